package import Foundation

/// A P-256 (secp256r1) package key for ECDSA with SHA-256 (the JOSE `ES256` algorithm).
package struct P256PublicKey: Sendable, Hashable {
    /// The 32-byte big-endian x coordinate.
    package let x: Data
    /// The 32-byte big-endian y coordinate.
    package let y: Data

    /// Creates a key from its affine coordinates; throws ``LatchkeyCryptoError/Code/invalidKey``
    /// unless both are 32 bytes and the point lies on the curve.
    package init(x: Data, y: Data) throws {
        guard LibCrypto.p256IsValid(.init(x: x, y: y, d: Data())) else {
            throw LatchkeyCryptoError(.invalidKey, "The P-256 package key is not a point on the curve.")
        }
        self.x = x
        self.y = y
    }

    init(validatedX x: Data, y: Data) {
        self.x = x
        self.y = y
    }

    /// Whether `signature` (raw `r || s`, 64 bytes, as JWS uses) is a valid ECDSA signature
    /// of SHA-256(`message`) under this key. Any other signature length is invalid.
    package func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        LibCrypto.p256Verify(.init(x: x, y: y, d: Data()), message: message, signature: signature)
    }
}
