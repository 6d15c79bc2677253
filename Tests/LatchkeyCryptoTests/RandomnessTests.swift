import Dispatch
import Foundation
import Synchronization
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

    @Test("a time-ordered identifier is a version 7 UUID whose first 48 bits are the time in milliseconds, sorting by time")
    func timeOrderedIdentifier() throws {
        // A quarter of a millisecond past each millisecond, so no rounding of the Double lands on the one before.
        func time(_ milliseconds: UInt64) -> Date { Date(timeIntervalSince1970: (Double(milliseconds) + 0.25) / 1000) }
        let start = time(1_796_000_000_123)
        let identifiers = (0..<200).map { SecureRandom.identifier(orderedAt: time(1_796_000_000_123 + UInt64($0) * 10)) }
        #expect(Set(identifiers).count == 200)
        #expect(identifiers.sorted() == identifiers)
        for (index, identifier) in identifiers.enumerated() {
            let parsed = try #require(UUID(uuidString: identifier))
            #expect(parsed.uuidString.lowercased() == identifier)
            let bytes = withUnsafeBytes(of: parsed.uuid) { Array($0) }
            let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(milliseconds == 1_796_000_000_123 + UInt64(index) * 10)
            #expect(bytes[6] >> 4 == 7)
            #expect(bytes[8] >> 6 == 0b10)
        }
        // Within one millisecond the rest is random.
        let sameTime = (0..<50).map { _ in SecureRandom.identifier(orderedAt: start) }
        #expect(Set(sameTime).count == 50)
        #expect(Set(sameTime.map { $0.prefix(13) }).count == 1)
    }

    @Test("an identifier's time prefix sorts after every id of earlier milliseconds and before every id of its own and later ones")
    func identifierTimePrefix() {
        func time(_ milliseconds: UInt64) -> Date { Date(timeIntervalSince1970: (Double(milliseconds) + 0.25) / 1000) }
        // 0x0193_7f4a_2b1c: a carry across the hyphen between 0x...ffff and 0x...0000 included.
        for milliseconds: UInt64 in [0, 1, 0x0193_7f4a_2b1c, 0x0193_7f4a_ffff, 0x0193_7f4b_0000, 1_796_000_000_123] {
            let prefix = SecureRandom.identifierTimePrefix(time(milliseconds))
            #expect(prefix.count == 13)
            for _ in 0..<20 {
                let same = SecureRandom.identifier(orderedAt: time(milliseconds))
                #expect(same.hasPrefix(prefix))
                #expect(same > prefix)
                #expect(SecureRandom.identifier(orderedAt: time(milliseconds + 1)) > prefix)
                if milliseconds > 0 { #expect(SecureRandom.identifier(orderedAt: time(milliseconds - 1)) < prefix) }
            }
        }
        #expect(SecureRandom.identifierTimePrefix(time(0x0193_7f4a_2b1c)) == "01937f4a-2b1c")
        #expect(SecureRandom.identifierTimePrefix(Date(timeIntervalSince1970: -5)) == "00000000-0000")
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

    @Test("draws from 16 threads at once never repeat a byte string, and a draw larger than one system call's 256 bytes is filled to its end")
    func concurrentDrawsNeverRepeat() {
        // 16 × 1 000 draws of 16 bytes, every seventh of 300: random bytes repeat a 16-byte
        // string with odds of 2^-100.
        let draws = Mutex<[Data]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            var mine: [Data] = []
            for index in 0..<1_000 { mine.append(SecureRandom.bytes(index % 7 == 0 ? 300 : 16)) }
            draws.withLock { $0 += mine }
        }
        let all = draws.withLock { $0 }
        #expect(all.count == 16_000)
        #expect(all.allSatisfy { $0.count == 16 || $0.count == 300 })
        #expect(Set(all.map { $0.prefix(16) }).count == all.count)
        // The 44 bytes past the first 256 are drawn too, not left as the zeros they start as.
        let large = all.filter { $0.count == 300 }
        #expect(Set(large.map { $0.suffix(16) }).count == large.count)
        #expect(!all.contains { $0.allSatisfy { $0 == 0 } })
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
