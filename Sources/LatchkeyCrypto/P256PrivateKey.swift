package import Foundation

/// A P-256 private key for ECDSA with SHA-256 (the JOSE `ES256` algorithm).
package struct P256PrivateKey: Sendable {
    /// The package half.
    package let publicKey: P256PublicKey
    /// The 32-byte big-endian private scalar.
    package let scalar: Redacted<Data>

    /// Generates a new key from the operating system's CSPRNG.
    package static func generate() -> P256PrivateKey {
        let key = LibCrypto.p256Generate()
        return P256PrivateKey(publicKey: P256PublicKey(validatedX: key.x, y: key.y), scalar: Redacted(key.d))
    }

    /// Restores a key from its scalar `d` and package coordinates; throws
    /// ``LatchkeyCryptoError/Code/invalidKey`` unless the point is on the curve and equals
    /// `d` times the generator.
    package init(scalar: Redacted<Data>, x: Data, y: Data) throws {
        guard LibCrypto.p256IsValid(.init(x: x, y: y, d: scalar.exposed)), !scalar.exposed.isEmpty else {
            throw LatchkeyCryptoError(.invalidKey, "The P-256 private key does not match its package key.")
        }
        self.publicKey = P256PublicKey(validatedX: x, y: y)
        self.scalar = scalar
    }

    private init(publicKey: P256PublicKey, scalar: Redacted<Data>) {
        self.publicKey = publicKey
        self.scalar = scalar
    }

    /// Signs SHA-256(`message`) and returns the raw 64-byte `r || s` signature. ECDSA is
    /// randomised: two signatures of one message differ.
    package func signature(for message: Data) -> Data {
        LibCrypto.p256Sign(.init(x: publicKey.x, y: publicKey.y, d: scalar.exposed), message: message)
    }
}
