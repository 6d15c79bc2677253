import Foundation
import LatchkeyCrypto
import LatchkeyJOSE
import Testing

@Suite struct JWSRejectionTests {
    let es256 = try! SigningKey.generate(.es256)
    let edDSA = try! SigningKey.generate(.edDSA)

    /// A token with `headerJSON` as its literal header, correctly signed by `key`.
    func token(headerJSON: String, payload: String = #"{"sub":"alice"}"#, key: SigningKey) -> String {
        let input = Base64URL.encode(Data(headerJSON.utf8)) + "." + Base64URL.encode(Data(payload.utf8))
        return input + "." + Base64URL.encode(key.signature(for: Data(input.utf8)))
    }

    func code(_ compact: String, _ keys: [VerificationKey]) -> JOSEError.Code? {
        joseErrorCode { _ = try JWS.verify(compact: compact, keys: keys) }
    }

    @Test("alg none is rejected, with or without a signature")
    func algNone() {
        let payload = Base64URL.encode(Data(#"{"sub":"admin"}"#.utf8))
        let header = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8))
        #expect(code("\(header).\(payload).", [es256.verificationKey]) == .unsupportedAlgorithm)
        let signed = token(headerJSON: #"{"alg":"none","kid":"\#(es256.kid)"}"#, key: es256)
        #expect(code(signed, [es256.verificationKey]) == .unsupportedAlgorithm)
    }

    @Test("An HS256 token is rejected even when its MAC key is the public key's JSON")
    func hmacConfusion() throws {
        let publicJSON = try JSONEncoder().encode(es256.publicJWK)
        let input =
            Base64URL.encode(Data(#"{"alg":"HS256","kid":"\#(es256.kid)"}"#.utf8)) + "."
            + Base64URL.encode(Data(#"{"sub":"admin"}"#.utf8))
        let mac = HMACSHA256.authenticationCode(for: Data(input.utf8), key: publicJSON)
        #expect(code(input + "." + Base64URL.encode(mac), [es256.verificationKey]) == .unsupportedAlgorithm)
    }

    @Test("An ES256 token presented under an EdDSA key's kid is refused by the allow-list")
    func algorithmSwap() {
        let swapped = token(headerJSON: #"{"alg":"ES256","kid":"\#(edDSA.kid)"}"#, key: es256)
        #expect(code(swapped, [edDSA.verificationKey, es256.verificationKey]) == .algorithmNotAllowed)
    }

    @Test("A token signed by a different key of the same type fails")
    func wrongKey() throws {
        let other = try SigningKey.generate(.es256)
        let forged = token(headerJSON: #"{"alg":"ES256","kid":"\#(es256.kid)"}"#, key: other)
        #expect(code(forged, [es256.verificationKey]) == .invalidSignature)
    }

    @Test("A kid that is not in the key set is rejected, as is a missing kid with several keys")
    func unknownKid() {
        let stranger = token(headerJSON: #"{"alg":"EdDSA","kid":"someone-else"}"#, key: edDSA)
        #expect(code(stranger, [edDSA.verificationKey]) == .unknownKey)
        let anonymous = token(headerJSON: #"{"alg":"EdDSA"}"#, key: edDSA)
        #expect(code(anonymous, [edDSA.verificationKey, es256.verificationKey]) == .unknownKey)
        #expect(throws: Never.self) { try JWS.verify(compact: anonymous, keys: [edDSA.verificationKey]) }
    }

    @Test("Changing one payload or signature byte breaks verification", arguments: [1, 2])
    func tampering(part: Int) throws {
        for key in [es256, edDSA] {
            let compact = try JWS.sign(
                header: JWSHeader(alg: key.algorithm), payload: Data(#"{"sub":"alice"}"#.utf8), key: key)
            var parts = compact.split(separator: ".").map(String.init)
            var bytes = try #require(Base64URL.decode(parts[part]))
            bytes[bytes.startIndex] ^= 0x01
            parts[part] = Base64URL.encode(bytes)
            #expect(code(parts.joined(separator: "."), [key.verificationKey]) == .invalidSignature)
        }
    }

    @Test("A crit header with an extension Latchkey does not understand is rejected")
    func unknownCrit() {
        let critical = token(headerJSON: #"{"alg":"EdDSA","crit":["exp"],"exp":1}"#, key: edDSA)
        #expect(code(critical, [edDSA.verificationKey]) == .unsupportedCriticalHeader)
    }

    @Test("Malformed tokens: bad base64url, non-JSON header, wrong part count, bad member types")
    func malformed() {
        let keys = [edDSA.verificationKey]
        let valid = token(headerJSON: #"{"alg":"EdDSA"}"#, key: edDSA)
        #expect(code(valid + "=", keys) == .malformed)
        #expect(code("a.b", keys) == .malformed)
        #expect(code(valid + ".x", keys) == .malformed)
        #expect(code(token(headerJSON: "not json", key: edDSA), keys) == .malformed)
        #expect(code(token(headerJSON: #"{"alg":"EdDSA","kid":7}"#, key: edDSA), keys) == .malformed)
        #expect(code(token(headerJSON: #"{"typ":"JWT"}"#, key: edDSA), keys) == .malformed)
    }

    @Test("Tokens over 16 KiB are rejected before decoding; the limit itself is accepted")
    func oversized() throws {
        let keys = [edDSA.verificationKey]
        let overhead = token(headerJSON: #"{"alg":"EdDSA"}"#, payload: "", key: edDSA).utf8.count
        let fill = String(repeating: "a", count: (JWS.maximumCompactLength - overhead) / 4 * 3)
        let atLimit = token(headerJSON: #"{"alg":"EdDSA"}"#, payload: fill, key: edDSA)
        #expect(atLimit.utf8.count <= JWS.maximumCompactLength)
        #expect(throws: Never.self) { try JWS.verify(compact: atLimit, keys: keys) }
        let over = token(headerJSON: #"{"alg":"EdDSA"}"#, payload: fill + "aaaaaa", key: edDSA)
        #expect(over.utf8.count > JWS.maximumCompactLength)
        #expect(code(over, keys) == .tooLarge)
    }

    @Test("Signing refuses a header whose alg differs from the key's")
    func signAlgMismatch() {
        #expect(joseErrorCode { _ = try JWS.sign(header: JWSHeader(alg: .edDSA), payload: Data(), key: es256) }
            == .algorithmNotAllowed)
    }

    @Test("A verification key cannot be registered for an algorithm its type does not use")
    func allowListMismatch() {
        #expect(joseErrorCode { _ = try VerificationKey(jwk: edDSA.publicJWK, allowedAlgorithms: [.es256]) }
            == .algorithmNotAllowed)
        var hs = edDSA.publicJWK
        hs.alg = "HS256"
        #expect(joseErrorCode { _ = try VerificationKey(jwk: hs) } == .algorithmNotAllowed)
    }
}
