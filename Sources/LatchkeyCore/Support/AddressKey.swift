package import Foundation
package import LatchkeyCrypto

/// The server's address key, prepared once (``HMACSHA256/Key``): keyed hashes of email
/// addresses, so that rate-limit keys and log lines name an address without holding it, and
/// every instance sharing the key hashes alike.
package struct AddressKey: Sendable {
    private let mac: HMACSHA256.Key

    /// Prepares `key` (the contents of the address key file).
    package init(_ key: Redacted<Data>) {
        mac = HMACSHA256.Key(key.exposed)
    }

    /// `text`'s keyed hash for limiter keys and logs: the first 16 bytes of its HMAC-SHA256,
    /// base64url (22 characters).
    package func hash(_ text: String) -> String {
        Base64URL.encode(code(for: text).prefix(16))
    }

    /// `text`'s whole 32-byte HMAC-SHA256.
    package func code(for text: String) -> Data {
        mac.authenticationCode(forUTF8: text)
    }
}
