package import Foundation

/// HMAC with SHA-256 (RFC 2104, RFC 4231), computed by OpenSSL.
package enum HMACSHA256 {
    /// Returns the 32-byte authentication code of `message` under `key`. Keys of any length
    /// are accepted (keys longer than 64 bytes are hashed first, as RFC 2104 requires).
    ///
    /// Compare codes with ``ConstantTime/equals(_:_:)``, never with `==`.
    package static func authenticationCode(for message: Data, key: Data) -> Data {
        LibCrypto.hmacSHA256(key: key, message: message)
    }
}
