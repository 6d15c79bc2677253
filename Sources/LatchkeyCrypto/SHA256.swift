package import Foundation

/// SHA-256 (FIPS 180-4), computed by OpenSSL.
package enum SHA256 {
    /// Returns the 32-byte SHA-256 digest of `data` (a `Data`, `[UInt8]` or any other
    /// `DataProtocol` value).
    package static func hash(_ data: some DataProtocol) -> Data {
        LibCrypto.sha256(data as? Data ?? Data(data))
    }

    /// Returns the 32-byte SHA-256 digest of `text`'s UTF-8 bytes, read in place.
    package static func hash(utf8 text: String) -> Data {
        LibCrypto.sha256(utf8: text)
    }
}
