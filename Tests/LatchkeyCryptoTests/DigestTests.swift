import Foundation
import LatchkeyCrypto
import Testing

@Suite struct DigestTests {
    @Test("SHA-256 gives the FIPS 180-2 digests of abc and the two-block message")
    func sha256Vectors() {
        #expect(SHA256.hash(Data("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(SHA256.hash(Array(twoBlocks.utf8)).hex == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("SHA-256 of empty input is the well-known empty digest")
    func sha256Empty() {
        #expect(SHA256.hash(Data()).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("PKCE S256 challenge of the RFC 7636 Appendix B verifier")
    func pkceChallenge() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        #expect(Base64URL.encode(SHA256.hash(Data(verifier.utf8))) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test("JWK thumbprints of RFC 8037 A.3 (Ed25519) and RFC 7638 §3.1 (RSA)")
    func jwkThumbprints() {
        let okp = #"{"crv":"Ed25519","kty":"OKP","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#
        #expect(Base64URL.encode(SHA256.hash(Data(okp.utf8))) == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
        let modulus =
            "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"
        let rsa = #"{"e":"AQAB","kty":"RSA","n":"\#(modulus)"}"#
        #expect(Base64URL.encode(SHA256.hash(Data(rsa.utf8))) == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    @Test("HMAC-SHA256 gives RFC 4231 test cases 1 and 2")
    func hmacVectors() {
        let case1 = HMACSHA256.authenticationCode(
            for: Data("Hi There".utf8), key: Data(repeating: 0x0b, count: 20))
        #expect(case1.hex == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let case2 = HMACSHA256.authenticationCode(
            for: Data("what do ya want for nothing?".utf8), key: Data("Jefe".utf8))
        #expect(case2.hex == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("HMAC-SHA256 accepts an empty key and an empty message")
    func hmacEmpty() {
        #expect(HMACSHA256.authenticationCode(for: Data(), key: Data()).hex
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test("A prepared HMAC-SHA256 key gives RFC 4231 cases 1, 2 and 6 (a key longer than a block), again and again")
    func preparedKeyVectors() {
        let key = HMACSHA256.Key(Data(repeating: 0x0b, count: 20))
        for _ in 0..<3 {
            #expect(key.authenticationCode(for: Data("Hi There".utf8)).hex
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        }
        #expect(HMACSHA256.Key(Data("Jefe".utf8)).authenticationCode(for: Data("what do ya want for nothing?".utf8)).hex
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let long = HMACSHA256.Key(Data(repeating: 0xaa, count: 131))
        #expect(long.authenticationCode(for: Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8)).hex
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(HMACSHA256.Key(Data()).authenticationCode(for: Data()).hex
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test("HMAC-SHA256 with a key of exactly one block and of one byte more, and over a string's UTF-8 in place")
    func blockSizedKeysAndText() {
        // Expected codes from Python's hmac module (an implementation independent of ours).
        let block = HMACSHA256.Key(Data((0..<64).map { UInt8($0) }))
        #expect(block.authenticationCode(for: Data("Latchkey".utf8)).hex
            == "458e4591a67a50ef10cc58f7ba1314b9d1d62a44cc921d5616aeeb8a3e1280b7")
        #expect(block.authenticationCode(forUTF8: "Latchkey").hex
            == "458e4591a67a50ef10cc58f7ba1314b9d1d62a44cc921d5616aeeb8a3e1280b7")
        #expect(HMACSHA256.Key(Data((0..<65).map { UInt8($0) })).authenticationCode(forUTF8: "Latchkey").hex
            == "614e44cd2d7ce9ce2545514b00969ed948e36c0226292b81fa388883d6ede5cb")
        #expect(HMACSHA256.Key(Data("Jefe".utf8)).authenticationCode(forUTF8: "Zoë@exämple.com").hex
            == "14f713554005f41eb43e42ec9a164d9ba4585f25bd07b1f3aa5f72e996f62026")
    }

    @Test("One prepared key computes the right codes on many threads at once, and prints nothing of itself")
    func preparedKeyConcurrently() async {
        let key = HMACSHA256.Key(Data("Jefe".utf8))
        let messages = (0..<64).map { Data("message \($0)".utf8) }
        let expected = messages.map { HMACSHA256.authenticationCode(for: $0, key: Data("Jefe".utf8)) }
        let computed = await withTaskGroup(of: (Int, Data).self) { group in
            for (index, message) in messages.enumerated() {
                group.addTask { (index, (0..<50).map { _ in key.authenticationCode(for: message) }.last!) }
            }
            var codes = [Data](repeating: Data(), count: messages.count)
            for await (index, code) in group { codes[index] = code }
            return codes
        }
        #expect(computed == expected)
        #expect(String(describing: key) == "HMACSHA256.Key(redacted)")
        #expect(!String(reflecting: key).contains("Jefe"))
    }

    @Test("HMAC-SHA256 reproduces the RFC 7515 A.1 HS256 signature")
    func jwsHS256() throws {
        let key = try #require(Base64URL.decode(
            "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"))
        let signingInput =
            "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        let mac = HMACSHA256.authenticationCode(for: Data(signingInput.utf8), key: key)
        #expect(Base64URL.encode(mac) == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    }
}
