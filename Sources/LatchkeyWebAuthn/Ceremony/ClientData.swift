package import Foundation

/// The client data a browser or platform collected for a ceremony (W3C Web Authentication
/// Level 3 §5.8.1), read from `clientDataJSON`: a JSON object whose `type`, `challenge` and
/// `origin` are strings, `crossOrigin` a boolean if present and `topOrigin` a string if
/// present. Other members (`tokenBinding`, a browser's `other_keys_can_be_added_here`) are
/// skipped.
///
/// The JSON is read by a strict parser of its own (RFC 8259): a member named twice at the
/// top level is refused, where Foundation's decoders silently keep one of the two (one the
/// first, the other the last), so no two readers of the same bytes can disagree on them.
package struct ClientData: Sendable, Hashable {
    /// The most bytes accepted: browsers send some 200, an Android app's origin or a
    /// `topOrigin` adds a hundred or two.
    package static let maximumLength = 4096

    /// `webauthn.create` or `webauthn.get`, as the client said.
    package let type: String
    /// The challenge as the client encoded it (base64url).
    package let challenge: String
    /// The origin the ceremony ran in, as the client serialized it.
    package let origin: String
    /// Whether the ceremony ran in a frame not same-origin with its ancestors.
    package let crossOrigin: Bool?
    /// The top-level origin, when the ceremony ran in a cross-origin frame.
    package let topOrigin: String?

    /// Parses `bytes`; throws ``WebAuthnError/Code/responseTooLarge`` past
    /// ``maximumLength`` and ``WebAuthnError/Code/invalidClientData`` for anything that is
    /// not such an object (invalid JSON or UTF-8, a repeated member, a member of the wrong
    /// kind, a required one missing).
    package static func parse(bytes: Data) throws -> ClientData {
        guard bytes.count <= maximumLength else {
            throw WebAuthnError(.responseTooLarge, "The client data is longer than \(maximumLength) bytes.")
        }
        var scanner = JSONScanner(bytes: [UInt8](bytes))
        let members = try scanner.topLevelObject()
        func string(_ name: String) throws -> String? {
            switch members[name] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            default: throw WebAuthnError(.invalidClientData, "The client data's '\(name)' is not a string.")
            }
        }
        guard let type = try string("type"), let challenge = try string("challenge"),
            let origin = try string("origin")
        else {
            throw WebAuthnError(.invalidClientData, "The client data lacks its type, challenge or origin.")
        }
        let crossOrigin: Bool?
        switch members["crossOrigin"] {
        case nil, .null?: crossOrigin = nil
        case .bool(let value)?: crossOrigin = value
        default: throw WebAuthnError(.invalidClientData, "The client data's 'crossOrigin' is not a boolean.")
        }
        return ClientData(
            type: type, challenge: challenge, origin: origin, crossOrigin: crossOrigin, topOrigin: try string("topOrigin"))
    }

    private init(type: String, challenge: String, origin: String, crossOrigin: Bool?, topOrigin: String?) {
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
    }
}

/// A top-level member's value, as far as client data needs it.
private enum JSONMember {
    case string(String)
    case bool(Bool)
    case null
    /// A number, object or array: validated and skipped.
    case other
}

/// A strict RFC 8259 reader of one JSON object: its top-level members with string, boolean
/// and null values kept; numbers, objects and arrays validated (to a depth of 8) and skipped.
private struct JSONScanner {
    let bytes: [UInt8]
    var offset = 0
    static let maximumDepth = 8

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var invalid: WebAuthnError {
        WebAuthnError(.invalidClientData, "The client data is not valid JSON.")
    }

    mutating func topLevelObject() throws -> [String: JSONMember] {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { throw invalid }
        var members: [String: JSONMember] = [:]
        try readObject(depth: 1) { name, value in
            guard members.updateValue(value, forKey: name) == nil else {
                throw WebAuthnError(.invalidClientData, "The client data names a member twice.")
            }
        }
        skipWhitespace()
        guard offset == bytes.count else { throw invalid }
        return members
    }

    private func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard peek() == byte else { throw invalid }
        offset += 1
    }

    /// Reads `{ … }` at the cursor, handing each member to `member`.
    private mutating func readObject(depth: Int, _ member: (String, JSONMember) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            skipWhitespace()
            let name = try readString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            try member(name, try readValue(depth: depth))
            skipWhitespace()
            guard let next = peek() else { throw invalid }
            offset += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw invalid }
        }
    }

    private mutating func readValue(depth: Int) throws -> JSONMember {
        skipWhitespace()
        guard let byte = peek() else { throw invalid }
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw invalid }
            try readObject(depth: depth + 1) { _, _ in }
            return .other
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw invalid }
            offset += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                offset += 1
                return .other
            }
            while true {
                _ = try readValue(depth: depth + 1)
                skipWhitespace()
                guard let next = peek() else { throw invalid }
                offset += 1
                if next == UInt8(ascii: "]") { return .other }
                guard next == UInt8(ascii: ",") else { throw invalid }
            }
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            try readNumber()
            return .other
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - offset >= expected.count, bytes[offset..<offset + expected.count].elementsEqual(expected) else {
            throw invalid
        }
        offset += expected.count
    }

    /// A number as RFC 8259 §6 spells it: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`,
    /// within the range of a finite `Double` (RFC 8259 §6 lets a reader limit the range; this
    /// one draws the line where Foundation's `JSONSerialization` does, so `1e400` is refused
    /// by both).
    private mutating func readNumber() throws {
        let start = offset
        try readNumberGrammar()
        guard let value = Double(String(decoding: bytes[start..<offset], as: UTF8.self)), value.isFinite else {
            throw invalid
        }
    }

    private mutating func readNumberGrammar() throws {
        func digits() -> Int {
            let start = offset
            while let byte = peek(), (0x30...0x39).contains(byte) { offset += 1 }
            return offset - start
        }
        if peek() == UInt8(ascii: "-") { offset += 1 }
        if peek() == UInt8(ascii: "0") {
            offset += 1
        } else {
            guard digits() > 0 else { throw invalid }
        }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw invalid }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw invalid }
        }
    }

    /// A string at the cursor, its escapes decoded; refuses unescaped control characters,
    /// invalid escapes, lone surrogates and invalid UTF-8.
    private mutating func readString() throws -> String {
        try expect(UInt8(ascii: "\""))
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else { throw invalid }
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw invalid }
                return text
            case 0x00..<0x20:
                throw invalid
            case UInt8(ascii: "\\"):
                guard let escape = peek() else { throw invalid }
                offset += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        try expect(UInt8(ascii: "\\"))
                        try expect(UInt8(ascii: "u"))
                        let low = try readHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw invalid }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let character = Unicode.Scalar(scalar) else { throw invalid }
                    utf8.append(contentsOf: String(character).utf8)
                default:
                    throw invalid
                }
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func readHex4() throws -> UInt32 {
        guard bytes.count - offset >= 4 else { throw invalid }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { throw invalid }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }
}
