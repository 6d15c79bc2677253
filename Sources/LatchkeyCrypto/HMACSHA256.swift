package import Foundation

/// HMAC with SHA-256 (RFC 2104, RFC 4231), computed by OpenSSL.
package enum HMACSHA256 {
    /// A key prepared once for many codes: what HMAC derives from the key (its inner and outer
    /// digest states) is computed when the key is made, not for every message, and a code
    /// allocates nothing but its own 32 bytes. Keep one for a key used on a hot path (the
    /// address key, the form-token key). Sendable: one key computes codes on many threads at
    /// once. It shows nothing of the key when printed.
    package final class Key: Sendable, CustomStringConvertible {
        private let handle: LibCrypto.MACKeyHandle

        /// Prepares `key`. Keys of any length are accepted (keys longer than 64 bytes are
        /// hashed first, as RFC 2104 requires).
        package init(_ key: Data) {
            handle = LibCrypto.hmacSHA256Key(key)
        }

        /// Returns the 32-byte authentication code of `message` under this key.
        ///
        /// Compare codes with ``ConstantTime/equals(_:_:)``, never with `==`.
        package func authenticationCode(for message: Data) -> Data {
            LibCrypto.hmacSHA256(handle, message: message)
        }

        /// Returns the 32-byte authentication code of `text`'s UTF-8 bytes under this key,
        /// read in place: the same as ``authenticationCode(for:)`` of `Data(text.utf8)`.
        package func authenticationCode(forUTF8 text: String) -> Data {
            LibCrypto.hmacSHA256(handle, utf8: text)
        }

        /// "HMACSHA256.Key(redacted)": never the key.
        package var description: String { "HMACSHA256.Key(redacted)" }
    }

    /// Returns the 32-byte authentication code of `message` under `key`, for a key used once;
    /// see ``Key`` for a key used again.
    ///
    /// Compare codes with ``ConstantTime/equals(_:_:)``, never with `==`.
    package static func authenticationCode(for message: Data, key: Data) -> Data {
        Key(key).authenticationCode(for: message)
    }
}
