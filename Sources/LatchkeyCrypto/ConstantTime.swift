package import Foundation

/// Comparisons whose running time does not depend on where the inputs differ.
package enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes. Values of different lengths are unequal
    /// (the length itself is not secret); for equal lengths every byte is examined
    /// (OpenSSL `CRYPTO_memcmp`), so timing reveals nothing about the contents.
    package static func equals(_ a: Data, _ b: Data) -> Bool {
        LibCrypto.constantTimeEquals(a, b)
    }
}
