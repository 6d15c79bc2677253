package import Foundation

/// An Ed25519 package key (RFC 8032; the JOSE `EdDSA` algorithm with curve `Ed25519`).
package struct Ed25519PublicKey: Sendable, Hashable {
    /// The 32-byte encoded point.
    package let rawRepresentation: Data

    /// Creates a key from its 32-byte encoding; throws ``LatchkeyCryptoError/Code/invalidKey``
    /// for any other length.
    package init(rawRepresentation: Data) throws {
        guard rawRepresentation.count == LibCrypto.ed25519KeyLength else {
            throw LatchkeyCryptoError(.invalidKey, "An Ed25519 package key is 32 bytes.")
        }
        self.rawRepresentation = rawRepresentation
    }

    /// Whether `signature` (64 bytes) is a valid Ed25519 signature of `message`.
    package func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        LibCrypto.ed25519Verify(publicKey: rawRepresentation, message: message, signature: signature)
    }
}
