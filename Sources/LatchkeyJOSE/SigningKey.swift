package import Foundation
import LatchkeyCrypto

/// A private key that signs JWS tokens with ES256, EdDSA or RS256. Its ``kid`` is the RFC 7638
/// thumbprint of its public JWK.
package struct SigningKey: Sendable {
    private enum Material: Sendable {
        case p256(P256PrivateKey)
        case ed25519(Ed25519PrivateKey)
        case rsa(RSAPrivateKey)
    }

    private let material: Material
    /// The algorithm this key signs with.
    package let algorithm: JWSAlgorithm
    /// The key ID placed in headers: the thumbprint of ``publicJWK``.
    package let kid: String

    /// Generates a new key for `algorithm` from the operating system's CSPRNG: P-256, Ed25519,
    /// or RSA with a ``RSAPrivateKey/defaultModulusBits``-bit modulus.
    package static func generate(_ algorithm: JWSAlgorithm) throws -> SigningKey {
        switch algorithm {
        case .es256: try SigningKey(material: .p256(.generate()))
        case .edDSA: try SigningKey(material: .ed25519(.generate()))
        case .rs256: try SigningKey(material: .rsa(.generate()))
        }
    }

    /// Restores a key from a private JWK (`EC` P-256 or `OKP` Ed25519 with `d`; `RSA` with `d`,
    /// `p`, `q`, `dp`, `dq` and `qi`); throws ``JOSEError/Code/invalidKey`` if members are
    /// missing or do not form a valid key pair.
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
            case ("RSA", nil):
                try self.init(
                    material: .rsa(
                        RSAPrivateKey(
                            publicKey: RSAPublicKey(modulus: KeyMember.decode(jwk.n, "n"), exponent: KeyMember.decode(jwk.e, "e")),
                            privateExponent: scalar, firstPrime: Redacted(KeyMember.decode(jwk.p?.exposed, "p")),
                            secondPrime: Redacted(KeyMember.decode(jwk.q?.exposed, "q")),
                            firstExponent: Redacted(KeyMember.decode(jwk.dp?.exposed, "dp")),
                            secondExponent: Redacted(KeyMember.decode(jwk.dq?.exposed, "dq")),
                            coefficient: Redacted(KeyMember.decode(jwk.qi?.exposed, "qi")))))
            default:
                throw JOSEError(.invalidKey, "Only EC P-256, OKP Ed25519 and RSA keys can sign.")
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
        case .rsa: algorithm = .rs256
        }
        kid = try Self.publicJWK(of: material).thumbprint()
    }

    /// The public JWK, with `kid`, `alg` and `use` set: what a JWKS endpoint publishes.
    package var publicJWK: JWK {
        var jwk = Self.publicJWK(of: material)
        jwk.kid = kid
        jwk.alg = algorithm.rawValue
        jwk.use = "sig"
        return jwk
    }

    /// The full JWK including the private members, for storing the key.
    package var privateJWK: JWK {
        var jwk = publicJWK
        switch material {
        case .p256(let key): jwk.d = Self.member(key.scalar)
        case .ed25519(let key): jwk.d = Self.member(key.seed)
        case .rsa(let key):
            jwk.d = Self.member(key.privateExponent)
            jwk.p = Self.member(key.firstPrime)
            jwk.q = Self.member(key.secondPrime)
            jwk.dp = Self.member(key.firstExponent)
            jwk.dq = Self.member(key.secondExponent)
            jwk.qi = Self.member(key.coefficient)
        }
        return jwk
    }

    /// A private JWK member: the bytes as base64url, still redacted.
    private static func member(_ bytes: Redacted<Data>) -> Redacted<String> {
        Redacted(Base64URL.encode(bytes.exposed))
    }

    /// The matching verification key, allowing only this key's algorithm.
    package var verificationKey: VerificationKey {
        do {
            return try VerificationKey(jwk: publicJWK)
        } catch {
            preconditionFailure("a signing key's own public JWK failed to load: \(error)")
        }
    }

    /// Signs `message` (the JWS signing input) and returns the JWS signature bytes.
    package func signature(for message: Data) -> Data {
        switch material {
        case .p256(let key): key.signature(for: message)
        case .ed25519(let key): key.signature(for: message)
        case .rsa(let key): key.signature(for: message)
        }
    }

    private static func publicJWK(of material: Material) -> JWK {
        switch material {
        case .p256(let key):
            JWK(kty: "EC", crv: "P-256", x: Base64URL.encode(key.publicKey.x), y: Base64URL.encode(key.publicKey.y))
        case .ed25519(let key):
            JWK(kty: "OKP", crv: "Ed25519", x: Base64URL.encode(key.publicKey.rawRepresentation))
        case .rsa(let key):
            JWK(kty: "RSA", n: Base64URL.encode(key.publicKey.modulus), e: Base64URL.encode(key.publicKey.exponent))
        }
    }
}
