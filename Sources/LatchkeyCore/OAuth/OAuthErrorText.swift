/// The text of an OAuth error's `error` and `error_description`, limited to the characters
/// RFC 6749 §4.1.2.1 and §5.2 allow in them: `%x20-21 / %x23-5B / %x5D-7E` (printable ASCII
/// without `"` and `\`). Every OAuth error Latchkey writes — a JSON body, a `WWW-Authenticate`
/// challenge or an error redirect — goes through ``sanitized(_:)``.
package enum OAuthErrorText {
    /// `text` with `…` spelled `...`, `"` as `'`, `\` as `/`, and any other character outside
    /// the allowed set (a control character, a letter outside ASCII in a name the client chose)
    /// as `?`; text already within the set is returned unchanged.
    package static func sanitized(_ text: String) -> String {
        guard !text.utf8.allSatisfy(isAllowed) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{2026}": result += "..."
            case "\"": result += "'"
            case "\\": result += "/"
            case _ where scalar.isASCII && isAllowed(UInt8(scalar.value)): result.unicodeScalars.append(scalar)
            default: result += "?"
            }
        }
        return result
    }

    /// Whether `byte` is in `%x20-21 / %x23-5B / %x5D-7E`.
    package static func isAllowed(_ byte: UInt8) -> Bool {
        (0x20...0x7E).contains(byte) && byte != 0x22 && byte != 0x5C
    }
}
