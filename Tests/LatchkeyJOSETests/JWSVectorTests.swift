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

    @Test("Signing the RFC 7515 A.2 input with its RSA key reproduces the RFC's signature (PKCS#1 v1.5 is deterministic)")
    func rfc7515RS256Sign() throws {
        let key = try SigningKey(jwk: Fixtures.rfc7515RS256Key)
        #expect(key.algorithm == .rs256)
        let parts = Fixtures.rfc7515RS256Token.split(separator: ".")
        let signature = key.signature(for: Data("\(parts[0]).\(parts[1])".utf8))
        #expect(signature.count == 256)
        #expect(Base64URL.encode(signature) == String(parts[2]))
    }

    @Test("The RFC 7515 A.2 RS256 token verifies with the public half, and a changed payload does not")
    func rfc7515RS256Verify() throws {
        let key = try VerificationKey(jwk: Fixtures.rfc7515RS256Key.publicKey)
        let verified = try JWS.verify(compact: Fixtures.rfc7515RS256Token, keys: [key])
        #expect(verified.header.alg == .rs256)
        #expect(try JWTClaims.decode(from: verified.payload).iss == "joe")
        let parts = Fixtures.rfc7515RS256Token.split(separator: ".")
        let forged = "\(parts[0]).\(Base64URL.encode(Data(#"{"iss":"joe","admin":true}"#.utf8))).\(parts[2])"
        #expect(joseErrorCode { _ = try JWS.verify(compact: forged, keys: [key]) } == .invalidSignature)
    }

    @Test("An RS256 token Latchkey signs verifies with the published JWK, and the key survives its stored JWK")
    func rs256RoundTrip() throws {
        let key = try SigningKey.generate(.rs256)
        let token = try JWS.sign(header: JWSHeader(alg: .rs256, typ: "JWT"), payload: Data(#"{"sub":"42"}"#.utf8), key: key)
        let published = key.publicJWK
        #expect(published.kty == "RSA" && published.alg == "RS256" && published.use == "sig" && published.e == "AQAB")
        #expect(Base64URL.decode(published.n ?? "")?.count == 384)
        #expect(published.d == nil && published.p == nil && published.qi == nil)
        #expect(published.kid == (try published.thumbprint()))
        let verified = try JWS.verify(compact: token, keys: [try VerificationKey(jwk: published)])
        #expect(verified.kid == key.kid && verified.payload == Data(#"{"sub":"42"}"#.utf8))

        let stored = try JSONDecoder().decode(JWK.self, from: try JSONEncoder().encode(key.privateJWK))
        let restored = try SigningKey(jwk: stored)
        #expect(restored.kid == key.kid)
        let message = Data("same input".utf8)
        #expect(restored.signature(for: message) == key.signature(for: message))
    }

    @Test("RFC 7518 §3.3 and §6.3: an RSA JWK whose private members do not belong together is refused")
    func rs256MismatchedMembers() throws {
        var swapped = Fixtures.rfc7515RS256Key
        swapped.dp = swapped.dq
        #expect(joseErrorCode { _ = try SigningKey(jwk: swapped) } == .invalidKey)
        var missing = Fixtures.rfc7515RS256Key
        missing.qi = nil
        #expect(joseErrorCode { _ = try SigningKey(jwk: missing) } == .invalidKey)
        var otherModulus = Fixtures.rfc7515RS256Key
        otherModulus.n = Fixtures.rsaFixtureKey.n
        #expect(joseErrorCode { _ = try SigningKey(jwk: otherModulus) } == .invalidKey)
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
