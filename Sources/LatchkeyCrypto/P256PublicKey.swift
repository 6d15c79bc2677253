package import Foundation

/// A P-256 (secp256r1) public key for ECDSA with SHA-256 (the JOSE `ES256` algorithm).
/// Two keys are equal when their coordinates are.
package struct P256PublicKey: Sendable, Hashable {
    /// The 32-byte big-endian x coordinate.
    package let x: Data
    /// The 32-byte big-endian y coordinate.
    package let y: Data
    /// The key as libcrypto uses it, built once from the coordinates.
    private let key: LibCrypto.KeyHandle

    /// Creates a key from its affine coordinates; throws ``LatchkeyCryptoError/Code/invalidKey``
    /// unless both are 32 bytes and the point lies on the curve.
    package init(x: Data, y: Data) throws {
        guard let key = LibCrypto.p256Key(.init(x: x, y: y, d: Data())) else {
            throw LatchkeyCryptoError(.invalidKey, "The P-256 public key is not a point on the curve.")
        }
        self.init(x: x, y: y, key: key)
    }

    /// A key whose `key` was built from `x` and `y`.
    init(x: Data, y: Data, key: LibCrypto.KeyHandle) {
        self.x = x
        self.y = y
        self.key = key
    }

    /// Whether `signature` (raw `r || s`, 64 bytes, as JWS uses) is a valid ECDSA signature
    /// of SHA-256(`message`) under this key. Any other signature length is invalid.
    package func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        LibCrypto.p256Verify(key, message: message, signature: signature)
    }

    /// Whether `signature` (a DER-encoded ECDSA-Sig-Value, as WebAuthn assertions and
    /// `packed` attestation statements carry it, at most 72 bytes) is a valid ECDSA signature
    /// of SHA-256(`message`) under this key. Only strict DER verifies: a BER length form, a
    /// superfluous zero, trailing bytes or the raw `r || s` form are invalid.
    package func isValidDERSignature(_ signature: Data, for message: Data) -> Bool {
        LibCrypto.p256VerifyDER(key, message: message, signature: signature)
    }

    /// Whether both keys have the same coordinates (the OpenSSL key built from them is not compared).
    package static func == (lhs: P256PublicKey, rhs: P256PublicKey) -> Bool {
        lhs.x == rhs.x && lhs.y == rhs.y
    }

    /// Hashes the coordinates, as ``==`` compares them.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(x)
        hasher.combine(y)
    }
}
