package import Foundation

/// Random bytes from OpenSSL's CSPRNG, which is seeded from the operating system.
package enum SecureRandom {
    /// Returns `count` cryptographically secure random bytes.
    ///
    /// Traps if the random number generator fails: that only happens when the operating
    /// system cannot supply entropy, and carrying on with predictable secrets would be worse
    /// than stopping.
    package static func bytes(_ count: Int) -> Data {
        LibCrypto.randomBytes(count)
    }

    /// Returns a new secret token: `byteCount` random bytes as base64url without padding
    /// (43 characters for the default 32 bytes, i.e. 256 bits). Safe in URLs, fragments and
    /// JSON without escaping.
    package static func token(byteCount: Int = 32) -> Redacted<String> {
        Redacted(Base64URL.encode(bytes(byteCount)))
    }
}
