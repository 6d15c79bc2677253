package import Foundation
import LatchkeyCrypto

/// A private key that signs JWS tokens with ES256 or EdDSA. Its ``kid`` is the RFC 7638
/// thumbprint of its package JWK.
package struct SigningKey: Sendable {
    private enum Material: Sendable {
        case p256(P256PrivateKey)
        case ed25519(Ed25519PrivateKey)
    }

    private let material: Material
    /// The algorithm this key signs with.
    package let algorithm: JWSAlgorithm
    /// The key ID placed in headers: the thumbprint of ``publicJWK``.
    package let kid: String

    /// Generates a new key for `algorithm`; throws ``JOSEError/Code/unsupportedAlgorithm``
    /// for RS256, which Latchkey only verifies.
    package static func generate(_ algorithm: JWSAlgorithm) throws -> SigningKey {
        switch algorithm {
        case .es256: try SigningKey(material: .p256(.generate()))
        case .edDSA: try SigningKey(material: .ed25519(.generate()))
        case .rs256: throw JOSEError(.unsupportedAlgorithm, "Latchkey does not sign with RS256.")
        }
    }

    /// Restores a key from a private JWK (`EC` P-256 or `OKP` Ed25519 with `d`); throws
    /// ``JOSEError/Code/invalidKey`` if members are missing or do not form a valid key pair.
    package init(jwk: JWK) throws {
        guard let d = jwk.d else { throw JOSEError(.invalidKey, "The JWK has no private member.") }
        let scalar = try Redacted(KeyMember.decode(d.exposed, "d"))
        do {
            switch (jwk.kty, jwk.crv) {
            case ("EC", "P-256"):
                let x = try KeyMember.decode(jwk.x, "x")
                let y = try KeyMember.decode(jwk.y, "y")
                try self.init(material: .p256(P256PrivateKey(scalar: scalar, x: x, y: y)))
            case ("OKP", "Ed25519"):
                let key = try Ed25519PrivateKey(seed: scalar)
                guard Base64URL.encode(key.publicKey.rawRepresentation) == jwk.x else {
                    throw JOSEError(.invalidKey, "The Ed25519 private key does not match its x member.")
                }
                try self.init(material: .ed25519(key))
            default:
                throw JOSEError(.invalidKey, "Only EC P-256 and OKP Ed25519 keys can sign.")
            }
        } catch let error as LatchkeyCryptoError {
            throw JOSEError(.invalidKey, "The JWK is not a valid key pair.", detail: error.message)
        }
    }

    private init(material: Material) throws {
        self.material = material
        switch material {
        case .p256: algorithm = .es256
        case .ed25519: algorithm = .edDSA
        }
        kid = try Self.publicJWK(of: material).thumbprint()
    }

    /// The package JWK, with `kid`, `alg` and `use` set: what a JWKS endpoint publishes.
    package var publicJWK: JWK {
        var jwk = Self.publicJWK(of: material)
        jwk.kid = kid
        jwk.alg = algorithm.rawValue
        jwk.use = "sig"
        return jwk
    }

    /// The full JWK including the private member `d`, for storing the key.
    package var privateJWK: JWK {
        var jwk = publicJWK
        switch material {
        case .p256(let key): jwk.d = Redacted(Base64URL.encode(key.scalar.exposed))
        case .ed25519(let key): jwk.d = Redacted(Base64URL.encode(key.seed.exposed))
        }
        return jwk
    }

    /// The matching verification key, allowing only this key's algorithm.
    package var verificationKey: VerificationKey {
        do {
            return try VerificationKey(jwk: publicJWK)
        } catch {
            preconditionFailure("a signing key's own package JWK failed to load: \(error)")
        }
    }

    /// Signs `message` (the JWS signing input) and returns the JWS signature bytes.
    package func signature(for message: Data) -> Data {
        switch material {
        case .p256(let key): key.signature(for: message)
        case .ed25519(let key): key.signature(for: message)
        }
    }

    private static func publicJWK(of material: Material) -> JWK {
        switch material {
        case .p256(let key):
            JWK(kty: "EC", crv: "P-256", x: Base64URL.encode(key.publicKey.x), y: Base64URL.encode(key.publicKey.y))
        case .ed25519(let key):
            JWK(kty: "OKP", crv: "Ed25519", x: Base64URL.encode(key.publicKey.rawRepresentation))
        }
    }
}
