import Foundation
import LatchkeyCrypto
import Testing

@Suite struct SecureRandomTests {
    @Test("an identifier is a version 4 UUID as Foundation reads it, lowercase, and two differ")
    func identifier() throws {
        let identifiers = (0..<200).map { _ in SecureRandom.identifier() }
        #expect(Set(identifiers).count == 200)
        for identifier in identifiers {
            let parsed = try #require(UUID(uuidString: identifier))
            #expect(parsed.uuidString.lowercased() == identifier)
            let bytes = withUnsafeBytes(of: parsed.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4)
            #expect(bytes[8] >> 6 == 0b10)
        }
    }

    @Test("bytes returns the requested count, and two draws differ")
    func bytes() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(1).count == 1)
        let first = SecureRandom.bytes(32)
        #expect(first.count == 32)
        #expect(first != SecureRandom.bytes(32))
    }

    @Test("a default token is 43 base64url characters encoding 32 bytes")
    func defaultToken() throws {
        let token = SecureRandom.token()
        #expect(token.exposed.count == 43)
        let decoded = try #require(Base64URL.decode(token.exposed))
        #expect(decoded.count == 32)
        #expect("\(token)" == "<redacted>")
    }

    @Test("tokens are distinct and honour byteCount")
    func distinctTokens() {
        let tokens = Set((0..<1000).map { _ in SecureRandom.token().exposed })
        #expect(tokens.count == 1000)
        #expect(SecureRandom.token(byteCount: 16).exposed.count == 22)
    }
}

@Suite struct ConstantTimeTests {
    @Test("equal bytes compare equal")
    func equal() {
        #expect(ConstantTime.equals(Data(), Data()))
        #expect(ConstantTime.equals(Data("secret".utf8), Data("secret".utf8)))
    }

    @Test("a difference in any position, or in length, compares unequal")
    func unequal() {
        let base = Data(repeating: 0x41, count: 32)
        for position in [0, 15, 31] {
            var changed = base
            changed[position] ^= 0x01
            #expect(!ConstantTime.equals(base, changed))
        }
        #expect(!ConstantTime.equals(base, base.prefix(31)))
        #expect(!ConstantTime.equals(Data(), Data([0])))
    }
}
