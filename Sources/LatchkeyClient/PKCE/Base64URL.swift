import Foundation

/// Base64url without padding (RFC 4648 §5), the encoding of PKCE challenges and tokens, and
/// of WebAuthn's binary members in its JSON forms.
enum Base64URL {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `text` consists only of base64url characters (`A–Z a–z 0–9 - _`).
    static func isAlphabet(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// The bytes of `text`, strictly: only the alphabet, no padding, no length that no
    /// encoding has (a remainder of one), and zero unused bits in the last character, so each
    /// byte string has exactly one text that decodes to it. Nil otherwise.
    static func decode(_ text: some StringProtocol) -> Data? {
        guard isAlphabet(text), text.utf8.count % 4 != 1 else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let bytes = Data(base64Encoded: standard), encode(bytes) == text else { return nil }
        return bytes
    }

    /// A string of `byteCount` bytes from the OS CSPRNG, base64url-encoded.
    static func randomString(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return encode((0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
