package import Foundation

/// An RSA private key for RSASSA-PKCS1-v1_5 signatures with SHA-256 (the JOSE `RS256`
/// algorithm), held as the members of an RSA JWK (RFC 7518 §6.3.2): the private exponent and
/// the two primes with their CRT values. Every member is big-endian and ``Redacted``.
package struct RSAPrivateKey: Sendable {
    /// The modulus size ``generate(modulusBits:)`` uses unless told otherwise: 3072 bits, the
    /// size NIST SP 800-57 pairs with 128-bit security.
    package static let defaultModulusBits = 3072

    /// The public half (`n`, `e`).
    package let publicKey: RSAPublicKey
    /// The private exponent `d`.
    package let privateExponent: Redacted<Data>
    /// The first prime factor `p`.
    package let firstPrime: Redacted<Data>
    /// The second prime factor `q`.
    package let secondPrime: Redacted<Data>
    /// The first factor CRT exponent `dp` = `d` mod (`p` − 1).
    package let firstExponent: Redacted<Data>
    /// The second factor CRT exponent `dq` = `d` mod (`q` − 1).
    package let secondExponent: Redacted<Data>
    /// The CRT coefficient `qi` = `q`⁻¹ mod `p`.
    package let coefficient: Redacted<Data>
    /// The key pair as libcrypto uses it, built once from the members above.
    private let key: LibCrypto.KeyHandle

    /// Generates a key with a `modulusBits`-bit modulus (2048 to 8192) and the exponent 65537,
    /// from the operating system's CSPRNG.
    package static func generate(modulusBits: Int = defaultModulusBits) -> RSAPrivateKey {
        precondition(
            (RSAPublicKey.minimumModulusBits...RSAPublicKey.maximumModulusBits).contains(modulusBits),
            "an RSA modulus must have 2048 to 8192 bits")
        do {
            return try RSAPrivateKey(LibCrypto.rsaGenerate(bits: modulusBits))
        } catch {
            preconditionFailure("libcrypto generated an unusable RSA key: \(error)")
        }
    }

    /// Restores a key from its JWK members; throws ``LatchkeyCryptoError/Code/invalidKey``
    /// unless the public key is acceptable (see ``RSAPublicKey/init(modulus:exponent:)``) and
    /// the private members belong to it.
    package init(
        publicKey: RSAPublicKey, privateExponent: Redacted<Data>, firstPrime: Redacted<Data>, secondPrime: Redacted<Data>,
        firstExponent: Redacted<Data>, secondExponent: Redacted<Data>, coefficient: Redacted<Data>
    ) throws {
        try self.init(
            LibCrypto.RSAComponents(
                n: publicKey.modulus, e: publicKey.exponent, d: privateExponent.exposed, p: firstPrime.exposed,
                q: secondPrime.exposed, dp: firstExponent.exposed, dq: secondExponent.exposed, qi: coefficient.exposed))
    }

    private init(_ components: LibCrypto.RSAComponents) throws {
        let publicKey = try RSAPublicKey(modulus: components.n, exponent: components.e)
        guard components.isPrivate, let key = LibCrypto.rsaKey(components) else {
            throw LatchkeyCryptoError(.invalidKey, "The RSA private key does not match its public key.")
        }
        self.publicKey = publicKey
        privateExponent = Redacted(components.d)
        firstPrime = Redacted(components.p)
        secondPrime = Redacted(components.q)
        firstExponent = Redacted(components.dp)
        secondExponent = Redacted(components.dq)
        coefficient = Redacted(components.qi)
        self.key = key
    }

    /// Signs SHA-256(`message`) with RSASSA-PKCS1-v1_5. The scheme is deterministic: equal
    /// messages give equal signatures, each as long as the modulus.
    package func signature(for message: Data) -> Data {
        LibCrypto.rsaSignSHA256(key, message: message)
    }
}
