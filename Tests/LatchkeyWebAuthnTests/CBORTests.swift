import Foundation
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// The CBOR decoder: RFC 8949's examples it must read, and everything WebAuthn's canonical
/// form and Latchkey's limits refuse, each with its code.
@Suite struct CBORTests {
    private func code(_ bytes: Data, limits: CBORLimits = .webAuthn) -> WebAuthnError.Code? {
        refusal { try CBOR.parse(bytes: bytes, limits: limits) }
    }

    @Test("RFC 8949 Appendix A's examples of the kinds WebAuthn uses decode to their values", arguments: [
        ("00", CBORValue.unsigned(0)), ("17", .unsigned(23)), ("1818", .unsigned(24)), ("1903e8", .unsigned(1000)),
        ("1a000f4240", .unsigned(1_000_000)), ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
        ("1bffffffffffffffff", .unsigned(UInt64.max)), ("20", .negative(0)), ("3903e7", .negative(999)),
        ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null), ("40", .bytes(Data())),
        ("4401020304", .bytes(Data([1, 2, 3, 4]))), ("60", .text("")), ("6161", .text("a")),
        ("62c3bc", .text("ü")), ("63e6b0b4", .text("水")), ("80", .array([])),
        ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        ("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("a0", .map([:])), ("a201020304", .map([.unsigned(1): .unsigned(2), .unsigned(3): .unsigned(4)])),
        ("a26161016162820203", .map([.text("a"): .unsigned(1), .text("b"): .array([.unsigned(2), .unsigned(3)])])),
    ])
    func decodes(_ encoded: String, _ value: CBORValue) throws {
        #expect(try CBOR.parse(bytes: hex(encoded)) == value)
        #expect(CBOREncoder.encode(value) == hex(encoded))
    }

    @Test("what CTAP2's canonical form forbids is refused as non-canonical", arguments: [
        ("an indefinite byte string", "5f42010243030405ff"), ("an indefinite text string", "7f657374726561646d696e67ff"),
        ("an indefinite array", "9f018202039f0405ffff"), ("an indefinite map", "bf61610161629f0203ffff"),
        ("24 in two bytes", "190018"), ("0 in one extra byte", "1800"), ("255 in two bytes", "1900ff"),
        ("65535 in four bytes", "1a0000ffff"), ("2³²−1 in eight bytes", "1b00000000ffffffff"),
        ("a length in a longer form than needed", "5801ff"), ("a simple value below 32 in two bytes", "f814"),
    ])
    func nonCanonical(_ label: String, _ encoded: String) {
        #expect(code(hex(encoded)) == .nonCanonicalCBOR, "\(label)")
    }

    @Test("what WebAuthn never uses is refused as unsupported", arguments: [
        ("a tag (date/time)", "c074323031332d30332d32315432303a30343a30305a"), ("a tag (bignum)", "c249010000000000000000"),
        ("a half float", "f93c00"), ("a single float", "fa47c35000"), ("a double float", "fb3ff199999999999a"),
        ("undefined", "f7"), ("simple value 16", "f0"), ("simple value 255", "f8ff"),
        ("a byte string as map key", "a14101f5"), ("an array as map key", "a18001"), ("null as map key", "a1f601"),
    ])
    func unsupported(_ label: String, _ encoded: String) {
        #expect(code(hex(encoded)) == .unsupportedCBOR, "\(label)")
    }

    @Test("malformed input is refused as invalid", arguments: [
        ("nothing", ""), ("a truncated integer", "19 01"), ("a truncated string", "4401 0203"),
        ("an array missing an item", "83 0102"), ("a map missing a value", "a2 0102 03"), ("trailing bytes", "01 02"),
        ("a reserved additional value", "1c"), ("a reserved additional value on a string", "5d"),
        ("a stray break", "ff"), ("an indefinite integer", "1f"),
        ("text that is not UTF-8", "62 c328"), ("an overlong UTF-8 form", "62 c0af"), ("a UTF-16 surrogate in UTF-8", "63 eda080"),
        ("a byte string declaring 2⁶⁴−1 bytes", "5b ffffffffffffffff"), ("an array declaring 2³² items", "9b 0000000100000000"),
        ("a map declaring more pairs than bytes remain", "ba 00010000 0102"),
    ])
    func malformed(_ label: String, _ encoded: String) {
        #expect(code(hex(encoded)) == .invalidCBOR, "\(label)")
    }

    @Test("a map naming one key twice is refused, whether integer or text")
    func duplicateKeys() {
        #expect(code(hex("a2 01 02 01 03")) == .duplicateMapKey)
        #expect(code(hex("a2 6161 01 6161 02")) == .duplicateMapKey)
        // −1 and 1 are distinct keys, as are 1 and "1".
        #expect(code(hex("a2 20 01 01 02")) == nil)
        #expect(code(hex("a2 6131 01 01 02")) == nil)
    }

    @Test("map keys out of canonical order are accepted (shipped authenticators send them)")
    func unorderedKeys() throws {
        let value = try CBOR.parse(bytes: hex("a3 6161 01 20 02 01 03"))
        #expect(value.mapValue?[text: "a"] == .unsigned(1))
        #expect(value.mapValue?[label: -1] == .unsigned(2))
    }

    @Test("nesting, item count and length are bounded")
    func limits() {
        let limits = CBORLimits(maximumLength: 64, maximumDepth: 3, maximumItems: 10)
        #expect(code(hex("81 81 81 00"), limits: limits) == nil)
        #expect(code(hex("81 81 81 81 00"), limits: limits) == .cborLimitExceeded)
        #expect(code(hex("89 000102030405060708"), limits: limits) == nil)
        #expect(code(hex("8a 00010203040506070809"), limits: limits) == .cborLimitExceeded)
        #expect(code(Data([0x58, 62]) + Data(count: 62), limits: limits) == nil)
        #expect(code(Data([0x58, 63]) + Data(count: 63), limits: limits) == .cborLimitExceeded)
        // A deep nest of arrays within the length limit stops at the depth limit, not the stack.
        #expect(code(Data(repeating: 0x81, count: 10_000) + Data([0x00]), limits: .init(maximumLength: 20_000, maximumDepth: 8, maximumItems: 100_000))
            == .cborLimitExceeded)
    }

    @Test("parsePrefix reads one item and says where it ended")
    func prefix() throws {
        let (value, length) = try CBOR.parsePrefix(bytes: hex("a1 01 02 ff ff"))
        #expect(value == .map([.unsigned(1): .unsigned(2)]))
        #expect(length == 3)
    }
}
