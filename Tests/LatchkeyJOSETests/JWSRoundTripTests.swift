import Foundation
import LatchkeyCrypto
import LatchkeyJOSE
import Testing

@Suite struct JWSRoundTripTests {
    @Test("Tokens signed by generated ES256 and EdDSA keys verify through their published JWKS", arguments: [
        JWSAlgorithm.es256, .edDSA,
    ])
    func roundTrip(algorithm: JWSAlgorithm) throws {
        let key = try SigningKey.generate(algorithm)
        let published = try JSONDecoder().decode(
            JWKSet.self, from: JSONEncoder().encode(JWKSet(keys: [key.privateJWK]).publicKeys))
        #expect(published.keys.allSatisfy { $0.d == nil })
        let keys = try published.keys.map { try VerificationKey(jwk: $0) }
        let payload = Data(#"{"sub":"alice"}"#.utf8)
        let token = try JWS.sign(header: JWSHeader(alg: algorithm, typ: "JWT"), payload: payload, key: key)
        let verified = try JWS.verify(compact: token, keys: keys)
        #expect(verified.payload == payload)
        #expect(verified.header.kid == key.kid)
        #expect(verified.header.typ == "JWT")
    }

    @Test("A stored private JWK restores a key that signs tokens the original's public key accepts")
    func restoreFromPrivateJWK() throws {
        let original = try SigningKey.generate(.es256)
        let json = try JSONEncoder().encode(original.privateJWK)
        let restored = try SigningKey(jwk: JSONDecoder().decode(JWK.self, from: json))
        #expect(restored.kid == original.kid)
        let token = try JWS.sign(header: JWSHeader(alg: .es256), payload: Data("x".utf8), key: restored)
        #expect(try JWS.verify(compact: token, keys: [original.verificationKey]).payload == Data("x".utf8))
    }

    @Test("A private JWK whose d does not match x and y is rejected")
    func mismatchedPrivateKey() throws {
        var jwk = Fixtures.rfc7515ES256Key
        jwk.d = try SigningKey.generate(.es256).privateJWK.d
        #expect(joseErrorCode { _ = try SigningKey(jwk: jwk) } == .invalidKey)
    }

    @Test("An EC public key that is not on the curve is rejected")
    func pointOffCurve() {
        var jwk = Fixtures.rfc7515ES256Key.publicKey
        jwk.y = jwk.x
        #expect(joseErrorCode { _ = try VerificationKey(jwk: jwk) } == .invalidKey)
    }

    @Test("A private key never shows in a JWK's description")
    func redactedDescription() throws {
        let text = "\(Fixtures.rfc8037Ed25519Key)"
        #expect(!text.contains("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"))
        let rsa = Fixtures.rfc7515RS256Key
        let rsaText = "\(rsa)"
        for member in [rsa.d, rsa.p, rsa.q, rsa.dp, rsa.dq, rsa.qi] {
            #expect(!rsaText.contains(try #require(member?.exposed)))
        }
    }

    @Test("Short RSA moduli are refused")
    func rsaLimits() throws {
        var short = Fixtures.rsaFixtureKey
        short.n = Base64URL.encode(Data(repeating: 0xff, count: 128))
        #expect(joseErrorCode { _ = try VerificationKey(jwk: short) } == .invalidKey)
    }
}
