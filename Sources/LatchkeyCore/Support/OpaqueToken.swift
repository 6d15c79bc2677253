package import Foundation
package import LatchkeyCrypto

/// The opaque tokens the server issues (reset tokens, refresh tokens): 32 CSPRNG bytes as
/// 43 base64url characters, stored only as the SHA-256 of that text.
package enum OpaqueToken {
    /// The SHA-256 of the token as sent, which is what the database holds.
    package static func digest(_ token: Redacted<String>) -> Data {
        SHA256.hash(utf8: token.exposed)
    }

    /// The digest of a token shaped like one we issue; nil for anything else, so junk never
    /// reaches the database.
    package static func wellFormedDigest(_ token: Redacted<String>) -> Data? {
        let text = token.exposed
        guard text.utf8.count == 43, Base64URL.decode(text)?.count == 32 else { return nil }
        return digest(token)
    }
}
