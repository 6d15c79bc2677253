package import Foundation

/// HMAC with SHA-1 (RFC 2104), computed by OpenSSL: only for one-time codes (HOTP, RFC 4226;
/// TOTP, RFC 6238), which authenticator apps compute with SHA-1. HMAC-SHA1 stays a sound
/// pseudorandom function (RFC 6194 §3); nothing else here uses SHA-1.
package enum HMACSHA1 {
    /// The 20-byte authentication code of `message` under `key`.
    ///
    /// Compare codes with ``ConstantTime/equals(_:_:)``, never with `==`.
    package static func authenticationCode(for message: Data, key: Data) -> Data {
        LibCrypto.hmacSHA1(key: key, message: message)
    }
}
