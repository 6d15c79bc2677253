package import Foundation

/// A JSON object whose members are all plain — strings without escapes, `true`, `false` or
/// `null` — which is what Latchkey's request bodies are in practice, read in one pass over
/// the bytes. ``HTTPRequest/decodeJSON(_:allowingEmpty:)`` decodes such a body through
/// ``FlatJSONDecoder`` instead of `JSONDecoder`, which costs several times more.
///
/// The parser only says yes to what is certainly valid JSON with one meaning: anything else —
/// a number, a nested object or array, an escape, a control or invalid UTF-8 byte in a
/// string, a repeated member name, a byte order mark — is `nil`, and `JSONDecoder` decides
/// that body, so every answer about it (error or not) stays `JSONDecoder`'s own.
package struct FlatJSONObject: Equatable {
    /// A member's value.
    package enum Value: Equatable {
        case string(String)
        case bool(Bool)
        case null
    }

    /// The members by name.
    package let members: [String: Value]

    /// Parses `json`; nil unless it is one flat object (see the type's description),
    /// optionally surrounded by JSON whitespace.
    package init?(_ json: Data) {
        var reader = Reader(bytes: [UInt8](json))
        guard let members = reader.object() else { return nil }
        self.members = members
    }

    /// A cursor over the body's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func object() -> [String: Value]? {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [String: Value] = [:]
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                repeat {
                    skipWhitespace()
                    guard let name = string() else { return nil }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipWhitespace()
                    guard let value = value(), members.updateValue(value, forKey: name) == nil else { return nil }
                    skipWhitespace()
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return nil }
            }
            skipWhitespace()
            return index == bytes.count ? members : nil
        }

        mutating func value() -> Value? {
            // A string that is not valid is no value: trying the literals after its bytes
            // would read `"\u{FF}"null` as null.
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") { return string().map(Value.string) }
            if take(literal: "true") { return .bool(true) }
            if take(literal: "false") { return .bool(false) }
            if take(literal: "null") { return .null }
            return nil
        }

        /// A string without escapes or control characters, as valid UTF-8.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    defer { index += 1 }
                    return String(validating: bytes[start..<index], as: UTF8.self)
                case UInt8(ascii: "\\"), 0x00..<0x20:
                    return nil
                default:
                    index += 1
                }
            }
            return nil
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func take(literal: String) -> Bool {
            let count = literal.utf8.count
            guard bytes.count - index >= count, bytes[index..<index + count].elementsEqual(literal.utf8) else { return false }
            index += count
            return true
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
    }
}
