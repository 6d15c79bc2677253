package import Foundation

/// An Ed25519 public key (RFC 8032; the JOSE `EdDSA` algorithm with curve `Ed25519`). Two
/// keys are equal when their encodings are.
package struct Ed25519PublicKey: Sendable, Hashable {
    /// The 32-byte encoded point.
    package let rawRepresentation: Data
    /// The key as libcrypto uses it, built once from `rawRepresentation`.
    private let key: LibCrypto.KeyHandle

    /// Creates a key from its 32-byte encoding; throws ``LatchkeyCryptoError/Code/invalidKey``
    /// for any other length.
    package init(rawRepresentation: Data) throws {
        guard rawRepresentation.count == LibCrypto.ed25519KeyLength else {
            throw LatchkeyCryptoError(.invalidKey, "An Ed25519 public key is 32 bytes.")
        }
        // libcrypto copies any 32 bytes without decoding them; only a lack of memory fails here.
        guard let key = LibCrypto.ed25519PublicKey(rawRepresentation) else {
            throw LatchkeyCryptoError(.invalidKey, "libcrypto could not load the Ed25519 key.")
        }
        self.rawRepresentation = rawRepresentation
        self.key = key
    }

    /// Whether `signature` (64 bytes) is a valid Ed25519 signature of `message`.
    package func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        LibCrypto.ed25519Verify(key, message: message, signature: signature)
    }

    /// Whether both keys have the same key bytes (the OpenSSL key built from them is not compared).
    package static func == (lhs: Ed25519PublicKey, rhs: Ed25519PublicKey) -> Bool {
        lhs.rawRepresentation == rhs.rawRepresentation
    }

    /// Hashes the key bytes, as ``==`` compares them.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(rawRepresentation)
    }
}
