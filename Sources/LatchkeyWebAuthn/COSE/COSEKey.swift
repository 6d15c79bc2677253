package import Foundation
import LatchkeyCrypto

/// A credential public key in COSE_Key form (RFC 9052 §7) as WebAuthn carries it (§6.5.1.1):
/// EC2 P-256 with ES256, OKP Ed25519 with EdDSA, or RSA with RS256, with `alg` present and
/// no parameter beyond those its key type needs (WebAuthn forbids the other optional ones).
///
/// The key's material is checked when it is parsed — the point is on the curve, the modulus
/// has 2048 to 8192 bits — so a key that parses verifies signatures without failing later.
package struct COSEKey: Sendable {
    private enum Material: Sendable {
        case p256(P256PublicKey)
        case ed25519(Ed25519PublicKey)
        case rsa(RSAPublicKey)
    }

    /// COSE key parameter labels (RFC 9052 §7.1, RFC 9053 §7, RFC 8230 §4).
    private enum Label {
        static let keyType: Int64 = 1
        static let algorithm: Int64 = 3
        static let curve: Int64 = -1
        static let x: Int64 = -2
        static let y: Int64 = -3
        static let modulus: Int64 = -1
        static let exponent: Int64 = -2
    }

    private let material: Material
    /// The algorithm the key is bound to; a signature is verified with it and no other.
    package let algorithm: COSEAlgorithm
    /// The CBOR bytes the key was parsed from, as a credential record keeps them.
    package let encoded: Data

    /// Parses the COSE key that `bytes` encodes exactly; throws ``WebAuthnError``:
    /// CBOR errors as ``CBOR/parse(bytes:limits:)`` gives them,
    /// ``WebAuthnError/Code/unsupportedAlgorithm`` for an algorithm other than the three, and
    /// ``WebAuthnError/Code/invalidCredentialKey`` for anything else wrong with the key.
    package static func parse(bytes: Data) throws -> COSEKey {
        let value = try CBOR.parse(bytes: bytes, limits: limits)
        return try COSEKey(value, encoded: bytes)
    }

    /// The limits a COSE key is parsed within: an RSA key of 8192 bits is some 1.05 KB, and
    /// a key is one flat map.
    package static let limits = CBORLimits(maximumLength: 2048, maximumDepth: 1, maximumItems: 16)

    /// The key `value` decodes to, whose encoding is `encoded`.
    init(_ value: CBORValue, encoded: Data) throws {
        guard let map = value.mapValue else {
            throw WebAuthnError(.invalidCredentialKey, "The credential public key is not a COSE_Key map.")
        }
        guard let algorithmLabel = map[label: Label.algorithm]?.integer else {
            throw WebAuthnError(.invalidCredentialKey, "The credential public key names no algorithm.")
        }
        guard let algorithm = COSEAlgorithm(rawValue: algorithmLabel) else {
            throw WebAuthnError(
                .unsupportedAlgorithm, "The credential public key's algorithm is not ES256, EdDSA or RS256.",
                detail: "alg \(algorithmLabel)")
        }
        let keyType = map[label: Label.keyType]?.integer
        let labels: Set<Int64>
        do {
            switch (algorithm, keyType) {
            case (.es256, 2):
                // EC2 (RFC 9053 §7.1.1): crv 1 is P-256; y as a sign bit (point compression)
                // is not accepted, as WebAuthn requires the uncompressed form.
                guard map[label: Label.curve]?.integer == 1 else {
                    throw WebAuthnError(.invalidCredentialKey, "An ES256 credential key must be on P-256.")
                }
                material = .p256(try P256PublicKey(x: Self.bytes(map, Label.x), y: Self.bytes(map, Label.y)))
                labels = [Label.keyType, Label.algorithm, Label.curve, Label.x, Label.y]
            case (.edDSA, 1):
                // OKP (RFC 9053 §7.2): crv 6 is Ed25519.
                guard map[label: Label.curve]?.integer == 6 else {
                    throw WebAuthnError(.invalidCredentialKey, "An EdDSA credential key must be on Ed25519.")
                }
                material = .ed25519(try Ed25519PublicKey(rawRepresentation: Self.bytes(map, Label.x)))
                labels = [Label.keyType, Label.algorithm, Label.curve, Label.x]
            case (.rs256, 3):
                // RSA (RFC 8230 §4): n and e, unsigned big-endian.
                material = .rsa(
                    try RSAPublicKey(modulus: Self.bytes(map, Label.modulus), exponent: Self.bytes(map, Label.exponent)))
                labels = [Label.keyType, Label.algorithm, Label.modulus, Label.exponent]
            default:
                throw WebAuthnError(
                    .invalidCredentialKey, "The credential public key's type does not fit its algorithm.",
                    detail: "kty \(keyType.map(String.init) ?? "none"), alg \(algorithm.name)")
            }
        } catch let error as LatchkeyCryptoError {
            throw WebAuthnError(.invalidCredentialKey, "The credential public key is not a valid key.", detail: error.message)
        }
        guard map.entries.allSatisfy({ $0.key.integer.map(labels.contains) ?? false }) else {
            throw WebAuthnError(.invalidCredentialKey, "The credential public key has parameters WebAuthn does not allow.")
        }
        self.algorithm = algorithm
        self.encoded = encoded
    }

    /// The byte string under `label`; throws if it is missing or of another kind.
    private static func bytes(_ map: CBORMap, _ label: Int64) throws -> Data {
        guard let bytes = map[label: label]?.byteString else {
            throw WebAuthnError(.invalidCredentialKey, "The credential public key lacks a parameter it needs.")
        }
        return bytes
    }

    /// Whether `signature` over `message` verifies under this key with its ``algorithm``, in
    /// the form WebAuthn gives it: DER for ES256, 64 bytes for EdDSA, the modulus's length
    /// for RS256.
    package func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        switch material {
        case .p256(let key): key.isValidDERSignature(signature, for: message)
        case .ed25519(let key): key.isValidSignature(signature, for: message)
        case .rsa(let key): key.isValidSignature(signature, for: message)
        }
    }
}
