import Foundation
import LatchkeyCrypto
import LatchkeyJOSE
import Synchronization
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

    @Test("One P-256 key signs on many threads at once, and its shared public key verifies every signature")
    func concurrentP256Signing() throws {
        let key = P256PrivateKey.generate()
        let results = Self.signConcurrently(sign: key.signature(for:), verify: key.publicKey.isValidSignature(_:for:))
        #expect(results.count == Self.concurrentMessageCount)
        #expect(Set(results.map(\.signature)).count == results.count)
        #expect(results.allSatisfy { $0.signature.count == 64 && $0.valid && !$0.tamperedValid })
        let restored = try P256PublicKey(x: key.publicKey.x, y: key.publicKey.y)
        #expect(restored == key.publicKey)
        #expect(results.allSatisfy { restored.isValidSignature($0.signature, for: $0.message) })
    }

    @Test("One Ed25519 or RSA key signs on many threads at once, and its shared public key verifies every signature")
    func concurrentEd25519AndRSASigning() {
        let ed25519 = Ed25519PrivateKey.generate()
        let rsa = RSAPrivateKey.generate(modulusBits: RSAPublicKey.minimumModulusBits)
        for results in [
            Self.signConcurrently(sign: ed25519.signature(for:), verify: ed25519.publicKey.isValidSignature(_:for:)),
            Self.signConcurrently(sign: rsa.signature(for:), verify: rsa.publicKey.isValidSignature(_:for:)),
        ] {
            #expect(results.count == Self.concurrentMessageCount)
            #expect(Set(results.map(\.signature)).count == results.count)
            #expect(results.allSatisfy { $0.valid && !$0.tamperedValid })
        }
    }

    /// How many messages ``signConcurrently(sign:verify:)`` signs: 8 in each of 64 iterations.
    private static let concurrentMessageCount = 64 * 8

    /// Signs distinct messages with one key from as many threads as Dispatch runs at once; each
    /// thread checks its signature with `verify`, over the message and over the message with
    /// one byte changed.
    private static func signConcurrently(
        sign: @Sendable (Data) -> Data, verify: @Sendable (Data, Data) -> Bool
    ) -> [(message: Data, signature: Data, valid: Bool, tamperedValid: Bool)] {
        let results = Mutex<[(message: Data, signature: Data, valid: Bool, tamperedValid: Bool)]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { iteration in
            for index in 0..<8 {
                let message = Data("header.payload-\(iteration)-\(index)".utf8)
                let signature = sign(message)
                var tampered = message
                tampered[tampered.startIndex] ^= 1
                let result = (message, signature, verify(signature, message), verify(signature, tampered))
                results.withLock { $0.append(result) }
            }
        }
        return results.withLock { $0 }
    }

    @Test("Short RSA moduli are refused")
    func rsaLimits() throws {
        var short = Fixtures.rsaFixtureKey
        short.n = Base64URL.encode(Data(repeating: 0xff, count: 128))
        #expect(joseErrorCode { _ = try VerificationKey(jwk: short) } == .invalidKey)
    }
}
