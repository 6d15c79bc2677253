import Foundation
@testable import LatchkeyCore
@testable import LatchkeyServer
import LatchkeyCrypto
import Testing

/// CompactJSON writes exactly what JSONEncoder with sorted keys and unescaped slashes writes.
@Suite struct CompactJSONTests {
    private struct Inner: Encodable, Equatable {
        var name: String
        var count: UInt8
    }

    private struct Everything: Encodable {
        var text: String
        var every: String
        var smallest = Int64.min
        var largest = Int64.max
        var small: Int16 = -7
        var unsigned: UInt64 = .max
        var flag = true
        var off = false
        var absent: String?
        var present: String? = "here"
        var inner = Inner(name: "n/a \"quoted\"", count: 3)
        var list = ["b", "a", ""]
        var nested = [[Inner(name: "x", count: 1)], []]
        var holes: [String?] = ["a", nil]
        var table = ["zeta": 1, "Alpha": 2, "a10": 3, "a9": 4, "_under": 5, "é": 6, "a_b": 7]
        var empty = Empty()

        enum CodingKeys: String, CodingKey {
            case text, every, smallest, largest, small, unsigned, flag, off, absent, present, inner, list, nested, holes,
                table, empty, explicitNull = "explicit_null", B
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)
            try container.encode(every, forKey: .every)
            try container.encode(smallest, forKey: .smallest)
            try container.encode(largest, forKey: .largest)
            try container.encode(small, forKey: .small)
            try container.encode(unsigned, forKey: .unsigned)
            try container.encode(flag, forKey: .flag)
            try container.encode(off, forKey: .off)
            try container.encodeIfPresent(absent, forKey: .absent)
            try container.encodeIfPresent(present, forKey: .present)
            try container.encode(inner, forKey: .inner)
            try container.encode(list, forKey: .list)
            try container.encode(nested, forKey: .nested)
            try container.encode(holes, forKey: .holes)
            try container.encode(table, forKey: .table)
            try container.encode(empty, forKey: .empty)
            try container.encodeNil(forKey: .explicitNull)
            var upper = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .B)
            try upper.encode("https://example.com/a/b?c=d", forKey: .text)
            var items = upper.nestedUnkeyedContainer(forKey: .list)
            try items.encode(1)
            try items.encodeNil()
            try items.encode("two")
        }
    }

    private struct Empty: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    private static func reference(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func compact(_ value: some Encodable) throws -> String {
        String(decoding: try CompactJSON.encode(value), as: UTF8.self)
    }

    @Test("objects, arrays, strings, integers, booleans and null: byte for byte JSONEncoder's output")
    func matchesJSONEncoder() throws {
        var every = ""
        for scalar in 0..<0x80 { every.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        every += "é€😀\u{2028}\u{2029}\u{FEFF}"
        let value = Everything(text: "a \"b\" \\ c / d\u{0}\n", every: every)
        #expect(try Self.compact(value) == Self.reference(value))
        #expect(try Self.compact(["solo"]) == Self.reference(["solo"]))
        #expect(try Self.compact("top") == Self.reference("top"))
        #expect(try Self.compact([Int]()) == Self.reference([Int]()))
        #expect(try Self.compact([7: "seven", 10: "ten"]) == Self.reference([7: "seven", 10: "ten"]))
    }

    @Test("a key encoded twice is written once, with its last value")
    func repeatedKeyKeepsLastValue() throws {
        struct Twice: Encodable {
            enum CodingKeys: String, CodingKey { case b, a, c }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode("first", forKey: .b)
                try container.encode(1, forKey: .a)
                try container.encode("second", forKey: .b)
                try container.encodeNil(forKey: .c)
                try container.encode(true, forKey: .c)
            }
        }
        #expect(try Self.compact(Twice()) == Self.reference(Twice()))
        #expect(try Self.compact(Twice()) == #"{"a":1,"b":"second","c":true}"#)
    }

    @Test("values it does not write itself (floating point, dates, URLs, data) come out as JSONEncoder writes them")
    func fallsBackForOtherValues() throws {
        struct Mixed: Encodable {
            var ratio = 0.1
            var when = Date(timeIntervalSince1970: 1_700_000_000.5)
            var link = URL(string: "https://example.com/x/y")!
            var bytes = Data([0, 1, 2, 255])
            var name = "m"
        }
        #expect(try Self.compact(Mixed()) == Self.reference(Mixed()))
        #expect(try Self.compact(["nested": [1.5]]) == Self.reference(["nested": [1.5]]))
    }

    @Test("a top-level value that encodes nothing is refused, as JSONEncoder refuses it")
    func emptyTopLevelIsRefused() {
        #expect(throws: EncodingError.self) { try CompactJSON.encode(Empty()) }
    }

    /// `value` through its own member writer and, in a context that only knows it is
    /// `Encodable`, through the encoder: both must be JSONEncoder's bytes.
    private static func expectWritesItsEncoding<Value: CompactJSONObject>(_ value: Value) throws {
        let written = String(decoding: CompactJSON.encode(value), as: UTF8.self)
        #expect(written == (try reference(value)))
        #expect(written == (try compact(value)))
    }

    /// Strings with everything a writer must escape, or must not.
    private static let awkward = ["", "plain", "a \"b\" \\ c / d\u{0}\n\t\u{1F}", "é€😀\u{2028}"]

    @Test("values that write their own members (the claims and replies every token request encodes, the reset link check's reply) write what they encode, optional members present or not")
    func ownWritersMatchTheirEncoding() throws {
        for text in Self.awkward {
            for optional in [nil, text] {
                try Self.expectWritesItsEncoding(TokenService.AccessTokenClaims(
                    iss: text, aud: text + "a", sub: "s" + text, client_id: optional, scope: text, jti: text, iat: -1,
                    exp: .max, cv: 7, sid: text))
                try Self.expectWritesItsEncoding(TokenService.IDTokenClaims(
                    iss: text, sub: text, aud: text, iat: 0, exp: 1, auth_time: .min, amr: [text, "pwd"], nonce: optional, email: optional))
                let issued = TokenService.IssuedTokens(
                    accessToken: Redacted(text), refreshToken: Redacted("r" + text), expiresIn: 900.5, scope: [text, "b"],
                    idToken: optional.map { Redacted($0) })
                try Self.expectWritesItsEncoding(TokenReply(issued))
                for mode in [DirectusMode.json, .cookie, .session] {
                    try Self.expectWritesItsEncoding(DirectusTokens(issued, mode: mode))
                }
                for valid in [true, false] {
                    try Self.expectWritesItsEncoding(TokenStatusReply(valid: valid, email_hint: text, expires_at: "e" + text))
                }
            }
        }
    }
}

