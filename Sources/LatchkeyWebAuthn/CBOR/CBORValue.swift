package import Foundation

/// One decoded CBOR data item (RFC 8949), of the kinds WebAuthn uses: integers, byte and
/// text strings, arrays, maps and the simple values false, true and null. Tags, floats and
/// other simple values are refused by ``CBOR/parse(bytes:limits:)``, so they have no case.
package indirect enum CBORValue: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: the integer −1 − `n`.
    case negative(UInt64)
    /// Major type 2: a byte string.
    case bytes(Data)
    /// Major type 3: a text string (valid UTF-8).
    case text(String)
    /// Major type 4: an array.
    case array([CBORValue])
    /// Major type 5: a map whose keys are integers or text and all distinct.
    case map(CBORMap)
    /// The simple values false and true.
    case bool(Bool)
    /// The simple value null.
    case null

    /// The value as an integer, if it is one that fits `Int64`.
    package var integer: Int64? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): value <= UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: nil
        }
    }

    /// The bytes of a byte string; nil for any other kind.
    package var byteString: Data? {
        if case .bytes(let value) = self { value } else { nil }
    }

    /// The text of a text string; nil for any other kind.
    package var textString: String? {
        if case .text(let value) = self { value } else { nil }
    }

    /// The map, if this is one.
    package var mapValue: CBORMap? {
        if case .map(let value) = self { value } else { nil }
    }

    /// The integer `value` as a CBOR integer item.
    package static func integer(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }
}

/// A CBOR map: its entries in the order they were encoded, with keys that are integers or
/// text strings and never repeat (the decoder refuses a repeated key).
package struct CBORMap: Sendable, Hashable {
    /// One key and its value.
    package struct Entry: Sendable, Hashable {
        /// The key: ``CBORValue/unsigned(_:)``, ``CBORValue/negative(_:)`` or ``CBORValue/text(_:)``.
        package let key: CBORValue
        /// The value.
        package let value: CBORValue

        /// The entry of `key` and `value`.
        package init(key: CBORValue, value: CBORValue) {
            self.key = key
            self.value = value
        }
    }

    /// The entries, in encoded order.
    package let entries: [Entry]

    /// A map of `entries`, whose keys the caller has made distinct.
    package init(entries: [Entry]) {
        self.entries = entries
    }

    /// The number of entries.
    package var count: Int { entries.count }

    /// The value under `key`, or nil.
    package subscript(_ key: CBORValue) -> CBORValue? {
        entries.first { $0.key == key }?.value
    }

    /// The value under the integer key `key` (a COSE label), or nil.
    package subscript(label key: Int64) -> CBORValue? {
        self[.integer(key)]
    }

    /// The value under the text key `key`, or nil.
    package subscript(text key: String) -> CBORValue? {
        self[.text(key)]
    }
}
