import Foundation
import LatchkeyCrypto
import LatchkeyJOSE
import Testing

@Suite struct JWSVectorTests {
    @Test("The RFC 7515 A.3 ES256 token verifies with its public key")
    func rfc7515ES256() throws {
        let key = try VerificationKey(jwk: Fixtures.rfc7515ES256Key.publicKey)
        let verified = try JWS.verify(compact: Fixtures.rfc7515ES256Token, keys: [key])
        #expect(verified.header.alg == .es256)
        let claims = try JWTClaims.decode(from: verified.payload)
        #expect(claims.iss == "joe")
        #expect(claims.exp == 1_300_819_380)
    }

    @Test("Signing the RFC 8037 A.4 input reproduces its exact Ed25519 token")
    func rfc8037EdDSASign() throws {
        let key = try SigningKey(jwk: Fixtures.rfc8037Ed25519Key)
        let parts = Fixtures.rfc8037EdDSAToken.split(separator: ".")
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        #expect(Base64URL.encode(key.signature(for: signingInput)) == String(parts[2]))
    }

    @Test("The RFC 8037 A.4 EdDSA token verifies and carries its payload")
    func rfc8037EdDSAVerify() throws {
        let key = try VerificationKey(jwk: Fixtures.rfc8037Ed25519Key.publicKey)
        let verified = try JWS.verify(compact: Fixtures.rfc8037EdDSAToken, keys: [key])
        #expect(verified.payload == Data("Example of Ed25519 signing".utf8))
    }

    @Test("An RS256 token from an independent implementation verifies with the JWK's n and e")
    func rs256Fixture() throws {
        let key = try VerificationKey(jwk: Fixtures.rsaFixtureKey)
        let verified = try JWS.verify(compact: Fixtures.rsaFixtureToken, keys: [key])
        #expect(verified.kid == "rsa-fixture")
        #expect(try JWTClaims.decode(from: verified.payload).sub == "42")
        let tampered = Fixtures.rsaFixtureToken.replacingOccurrences(of: "eyJpc3Mi", with: "eyJpc3Ni")
        #expect(joseErrorCode { _ = try JWS.verify(compact: tampered, keys: [key]) } == .invalidSignature)
    }

    @Test("Thumbprints of RFC 8037 A.3 (Ed25519) and RFC 7638 §3.1 (RSA)")
    func thumbprints() throws {
        #expect(try Fixtures.rfc8037Ed25519Key.thumbprint() == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
        #expect(try Fixtures.rfc7638RSAKey.thumbprint() == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    @Test("A loaded private key's kid is the thumbprint of its public JWK")
    func signingKeyKid() throws {
        let key = try SigningKey(jwk: Fixtures.rfc8037Ed25519Key)
        #expect(key.kid == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
        #expect(key.publicJWK.d == nil)
        #expect(key.privateJWK.d?.exposed == Fixtures.rfc8037Ed25519Key.d?.exposed)
    }
}
