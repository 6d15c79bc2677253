extension Unicode.Scalar {
    /// Whether this scalar, shown inside a name on a page or in a mail, would change the text
    /// around it instead of drawing: a control character (C0, DEL, C1: CR, LF, NEL, …), a line
    /// or paragraph separator, or one of Unicode's bidirectional controls (UAX #9: the Arabic
    /// letter mark, the left-to-right and right-to-left marks, the embeddings and overrides
    /// U+202A–U+202E, the isolates U+2066–U+2069), which could reorder or hide the words after
    /// it. Joiners and everything else that draws are not.
    package var isLayoutControl: Bool {
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: Self.bidirectionalControls.contains { $0.contains(value) }
        }
    }

    private static let bidirectionalControls: [ClosedRange<UInt32>] = [0x061C...0x061C, 0x200E...0x200F, 0x202A...0x202E, 0x2066...0x2069]
}
