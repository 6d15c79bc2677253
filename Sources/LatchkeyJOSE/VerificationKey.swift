package import Foundation
import LatchkeyCrypto

/// A public key that verifies JWS signatures, with the algorithms it may be used with.
///
/// The allow-list is per key, so a token cannot pick a different algorithm than the key
/// was registered for (no algorithm confusion).
package struct VerificationKey: Sendable {
    private enum Material: Sendable {
        case p256(P256PublicKey)
        case ed25519(Ed25519PublicKey)
        case rsa(RSAPublicKey)
    }

    private let material: Material
    /// The key ID: the JWK's `kid`, or its RFC 7638 thumbprint if it has none.
    package let kid: String
    /// The algorithms a token verified by this key may name.
    package let allowedAlgorithms: Set<JWSAlgorithm>

    /// Loads a public key from `jwk` (`EC` P-256, `OKP` Ed25519 or `RSA` of 2048–8192 bits;
    /// private members are ignored).
    ///
    /// The allow-list is `allowedAlgorithms` if given, otherwise the JWK's `alg`, otherwise
    /// the one algorithm the key type supports. Throws ``JOSEError/Code/invalidKey`` for an
    /// invalid key, and ``JOSEError/Code/algorithmNotAllowed`` if the list is empty or names
    /// an algorithm the key type cannot verify.
    package init(jwk: JWK, allowedAlgorithms: Set<JWSAlgorithm>? = nil) throws {
        let native: JWSAlgorithm
        do {
            switch (jwk.kty, jwk.crv) {
            case ("EC", "P-256"):
                material = try .p256(P256PublicKey(x: KeyMember.decode(jwk.x, "x"), y: KeyMember.decode(jwk.y, "y")))
                native = .es256
            case ("OKP", "Ed25519"):
                material = try .ed25519(Ed25519PublicKey(rawRepresentation: KeyMember.decode(jwk.x, "x")))
                native = .edDSA
            case ("RSA", nil):
                material = try .rsa(
                    RSAPublicKey(modulus: KeyMember.decode(jwk.n, "n"), exponent: KeyMember.decode(jwk.e, "e")))
                native = .rs256
            default:
                throw JOSEError(.invalidKey, "The JWK key type or curve is not supported.")
            }
        } catch let error as LatchkeyCryptoError {
            throw JOSEError(.invalidKey, "The JWK is not a valid public key.", detail: error.message)
        }
        let allowed: Set<JWSAlgorithm>
        if let allowedAlgorithms {
            allowed = allowedAlgorithms
        } else if let alg = jwk.alg {
            guard let algorithm = JWSAlgorithm(rawValue: alg) else {
                throw JOSEError(.algorithmNotAllowed, "The JWK names an unsupported algorithm.")
            }
            allowed = [algorithm]
        } else {
            allowed = [native]
        }
        guard allowed == [native] else {
            throw JOSEError(.algorithmNotAllowed, "The key can only be used with \(native.rawValue).")
        }
        self.allowedAlgorithms = allowed
        self.kid = try jwk.kid ?? jwk.thumbprint()
    }

    /// Whether `signature` over `message` verifies under this key with `algorithm`; false if
    /// the algorithm is not on this key's allow-list.
    package func isValidSignature(_ signature: Data, for message: Data, algorithm: JWSAlgorithm) -> Bool {
        guard allowedAlgorithms.contains(algorithm) else { return false }
        switch material {
        case .p256(let key): return key.isValidSignature(signature, for: message)
        case .ed25519(let key): return key.isValidSignature(signature, for: message)
        case .rsa(let key): return key.isValidSignature(signature, for: message)
        }
    }
}
