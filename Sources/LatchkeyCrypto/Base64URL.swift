package import Foundation

/// Base64url without padding (RFC 4648 §5, as used by JOSE and in Latchkey tokens).
package enum Base64URL {
    /// Encodes `data` with the alphabet `A–Z a–z 0–9 - _` and no `=` padding.
    package static func encode(_ data: Data) -> String {
        Base64Codec.url.encode(data)
    }

    /// Decodes unpadded base64url, or returns nil for anything else: characters outside
    /// the alphabet (including `+`, `/`, `=` and whitespace), a length of 4n+1, or
    /// non-zero unused bits in the last character. Every byte string therefore has exactly
    /// one accepted encoding.
    package static func decode(_ text: String) -> Data? {
        Base64Codec.url.decode(text)
    }
}
