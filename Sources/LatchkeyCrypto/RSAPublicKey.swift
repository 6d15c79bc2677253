package import Foundation

/// An RSA public key for verifying RSASSA-PKCS1-v1_5 SHA-256 signatures (the JOSE `RS256`
/// algorithm); ``RSAPrivateKey`` is its signing counterpart. Two keys are equal when their
/// modulus and exponent are.
package struct RSAPublicKey: Sendable, Hashable {
    /// The smallest modulus accepted, in bits (RFC 7518 §3.3 requires 2048).
    package static let minimumModulusBits = 2048
    /// The largest modulus accepted, in bits; bounds the work an attacker-supplied key causes.
    package static let maximumModulusBits = 8192

    /// The big-endian modulus `n`.
    package let modulus: Data
    /// The big-endian public exponent `e`.
    package let exponent: Data
    /// The key as libcrypto uses it, built once from `n` and `e`.
    private let key: LibCrypto.KeyHandle

    /// Creates a key from `n` and `e`; throws ``LatchkeyCryptoError/Code/invalidKey`` unless
    /// the modulus has 2048 to 8192 bits and the exponent is odd and greater than 1.
    package init(modulus: Data, exponent: Data) throws {
        let bits = LibCrypto.bitLength(modulus)
        guard bits >= Self.minimumModulusBits, bits <= Self.maximumModulusBits else {
            throw LatchkeyCryptoError(.invalidKey, "An RSA modulus must have 2048 to 8192 bits.")
        }
        guard let last = exponent.last, last & 1 == 1, LibCrypto.bitLength(exponent) > 1,
            exponent.count <= 8
        else {
            throw LatchkeyCryptoError(.invalidKey, "The RSA public exponent is not valid.")
        }
        // libcrypto checks nothing more about a public key; only a lack of memory fails here.
        guard let key = LibCrypto.rsaKey(.init(n: modulus, e: exponent)) else {
            throw LatchkeyCryptoError(.invalidKey, "libcrypto could not load the RSA key.")
        }
        self.modulus = modulus
        self.exponent = exponent
        self.key = key
    }

    /// Whether `signature` is a valid RSASSA-PKCS1-v1_5 signature of SHA-256(`message`).
    package func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        LibCrypto.rsaVerifySHA256(key, message: message, signature: signature)
    }

    /// Whether both keys have the same modulus and exponent (the OpenSSL key built from them is not compared).
    package static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.modulus == rhs.modulus && lhs.exponent == rhs.exponent
    }

    /// Hashes the modulus and exponent, as ``==`` compares them.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(modulus)
        hasher.combine(exponent)
    }
}
