package import Foundation

/// An Ed25519 private key (RFC 8032), held as its 32-byte seed.
package struct Ed25519PrivateKey: Sendable {
    /// The public half.
    package let publicKey: Ed25519PublicKey
    /// The 32-byte private seed (the JWK `d` member).
    package let seed: Redacted<Data>
    /// The key pair as libcrypto uses it, built once from `seed`.
    private let key: LibCrypto.KeyHandle

    /// Generates a new key from the operating system's CSPRNG.
    package static func generate() -> Ed25519PrivateKey {
        do {
            return try Ed25519PrivateKey(seed: Redacted(LibCrypto.ed25519GenerateSeed()))
        } catch {
            preconditionFailure("libcrypto generated an unusable Ed25519 seed")
        }
    }

    /// Restores a key from its seed; throws ``LatchkeyCryptoError/Code/invalidKey`` unless it
    /// is 32 bytes.
    package init(seed: Redacted<Data>) throws {
        guard let (key, publicKey) = LibCrypto.ed25519PrivateKey(seed: seed.exposed) else {
            throw LatchkeyCryptoError(.invalidKey, "An Ed25519 private key is a 32-byte seed.")
        }
        self.publicKey = try Ed25519PublicKey(rawRepresentation: publicKey)
        self.seed = seed
        self.key = key
    }

    /// Signs `message`; Ed25519 is deterministic, so equal messages give equal signatures.
    package func signature(for message: Data) -> Data {
        LibCrypto.ed25519Sign(key, message: message)
    }
}
