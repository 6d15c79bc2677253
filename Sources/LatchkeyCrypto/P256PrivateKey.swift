package import Foundation

/// A P-256 private key for ECDSA with SHA-256 (the JOSE `ES256` algorithm).
package struct P256PrivateKey: Sendable {
    /// The public half.
    package let publicKey: P256PublicKey
    /// The 32-byte big-endian private scalar.
    package let scalar: Redacted<Data>
    /// The key pair as libcrypto signs with it, built once from `scalar` and the public key.
    private let signer: LibCrypto.P256Signer

    /// Generates a new key from the operating system's CSPRNG.
    package static func generate() -> P256PrivateKey {
        let key = LibCrypto.p256Generate()
        do {
            return try P256PrivateKey(scalar: Redacted(key.d), x: key.x, y: key.y)
        } catch {
            preconditionFailure("libcrypto generated an unusable P-256 key")
        }
    }

    /// Restores a key from its scalar `d` and public coordinates; throws
    /// ``LatchkeyCryptoError/Code/invalidKey`` unless the point is on the curve and equals
    /// `d` times the generator.
    package init(scalar: Redacted<Data>, x: Data, y: Data) throws {
        guard !scalar.exposed.isEmpty, let key = LibCrypto.p256Key(.init(x: x, y: y, d: scalar.exposed)),
            let publicKey = LibCrypto.p256Key(.init(x: x, y: y, d: Data()))
        else {
            throw LatchkeyCryptoError(.invalidKey, "The P-256 private key does not match its public key.")
        }
        self.publicKey = P256PublicKey(x: x, y: y, key: publicKey)
        self.scalar = scalar
        signer = LibCrypto.p256Signer(key)
    }

    /// Signs SHA-256(`message`) and returns the raw 64-byte `r || s` signature. ECDSA is
    /// randomised: two signatures of one message differ. Uses a nonce prepared ahead when
    /// one is in stock (see ``LibCrypto/P256Signer``), each only once.
    package func signature(for message: Data) -> Data {
        LibCrypto.p256Sign(signer, message: message)
    }

    /// How many signatures have a nonce prepared ahead, waiting in this key's stock. A
    /// signature that leaves fewer than three quarters of the stock starts an idle-class
    /// thread that fills it again.
    package var preparedSignatureCount: Int {
        signer.preparedNonceCount
    }

    /// Fills the stock of prepared nonces on the calling thread.
    package func prepareSignatures() {
        signer.prepareNonces()
    }
}
