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

    /// A random (version 4) UUID in lowercase text, e.g. `0d4e…-4…-a…`, from the CSPRNG in
    /// this process: Foundation's `UUID()` reads the kernel's random device on every call.
    package static func identifier() -> String {
        var bytes = [UInt8](bytes(16))
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Hex.encode(Data(bytes))
        let characters = Array(hex)
        return String(characters[0..<8]) + "-" + String(characters[8..<12]) + "-" + String(characters[12..<16]) + "-"
            + String(characters[16..<20]) + "-" + String(characters[20..<32])
    }
}
