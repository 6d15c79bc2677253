/// The bounds within which ``CBOR/parse(bytes:limits:)`` decodes: past any of them the input
/// is refused with ``WebAuthnError/Code/cborLimitExceeded`` before more is read or allocated.
package struct CBORLimits: Sendable, Hashable {
    /// The most bytes an input may have.
    package let maximumLength: Int
    /// The deepest nesting of arrays and maps: a top-level scalar is depth 0, the items of a
    /// top-level map depth 1.
    package let maximumDepth: Int
    /// The most data items in the whole input, every key, value and element counted.
    package let maximumItems: Int

    /// Limits of `maximumLength` bytes, `maximumDepth` levels (at most 64: the decoder takes
    /// a stack frame per level) and `maximumItems` items.
    package init(maximumLength: Int, maximumDepth: Int, maximumItems: Int) {
        precondition(maximumDepth >= 0 && maximumDepth <= 64, "CBOR nesting is limited to 64 levels")
        self.maximumLength = maximumLength
        self.maximumDepth = maximumDepth
        self.maximumItems = maximumItems
    }

    /// Limits that fit every WebAuthn structure Latchkey parses: an attestation object of
    /// up to 16 KiB (a credential ID of 1023 bytes, an 8192-bit RSA key and a `packed`
    /// statement with room to spare), eight levels (the attestation object, its statement, a
    /// certificate list, extension outputs nest three or four), 512 items.
    package static let webAuthn = CBORLimits(maximumLength: 16 * 1024, maximumDepth: 8, maximumItems: 512)
}
