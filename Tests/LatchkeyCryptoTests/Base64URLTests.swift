import Foundation
import LatchkeyCrypto
import Testing

@Suite struct Base64URLTests {
    @Test("RFC 4648 §10 vectors encode without padding and decode back", arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
        ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func rfcVectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Data(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Data(plain.utf8))
    }

    @Test("bytes that need the URL alphabet use - and _ instead of + and /")
    func urlAlphabet() {
        let data = Data([0xfb, 0xff, 0xbf])
        #expect(Base64URL.encode(data) == "-_-_")
        #expect(Base64URL.decode("-_-_") == data)
    }

    @Test("every length from 0 to 70 bytes encodes as Foundation's base64 does, in the URL alphabet without padding")
    func matchesFoundation() {
        for length in 0...70 {
            let data = SecureRandom.bytes(length)
            let foundation = data.base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(data) == foundation, "\(length) bytes")
        }
        #expect(Base64URL.encode(Data(repeating: 0xFF, count: 5)) == "______8")
    }

    @Test("every length from 0 to 70 bytes round-trips")
    func roundTrips() {
        for length in 0...70 {
            let data = SecureRandom.bytes(length)
            let encoded = Base64URL.encode(data)
            #expect(!encoded.contains("="))
            #expect(Base64URL.decode(encoded) == data)
        }
    }

    @Test("invalid input is rejected", arguments: [
        "Zg==",  // padding
        "Zm9v+g",  // standard alphabet
        "Zm9v/g",
        "Zm9 v",  // whitespace
        "Zm9v\n",
        "Z",  // 4n+1 characters cannot come from an encoder
        "Zm9vY",
        "Zh",  // non-zero unused bits (canonical form is Zg)
        "Zm9",  // canonical is Zm8
        "Zm9v.g",
        "Zm9vÿg",  // non-ASCII
    ])
    func rejects(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
