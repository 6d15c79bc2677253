package import Foundation
package import LatchkeyWebAuthn

/// Encodes ``CBORValue``s in the shortest form (the CTAP2 canonical form, but for map keys,
/// which stay in the order given), so tests can build authenticator output and mangle it.
package enum CBOREncoder {
    /// The encoding of `value`.
    package static func encode(_ value: CBORValue) -> Data {
        var output = Data()
        append(value, to: &output)
        return output
    }

    /// The head of an item: `major` type and the shortest encoding of `argument`.
    package static func head(major: UInt8, _ argument: UInt64) -> Data {
        let type = major << 5
        switch argument {
        case 0..<24: return Data([type | UInt8(argument)])
        case 24...0xFF: return Data([type | 24, UInt8(argument)])
        case 0x100...0xFFFF: return Data([type | 25]) + bigEndian(argument, 2)
        case 0x1_0000...0xFFFF_FFFF: return Data([type | 26]) + bigEndian(argument, 4)
        default: return Data([type | 27]) + bigEndian(argument, 8)
        }
    }

    private static func bigEndian(_ value: UInt64, _ count: Int) -> Data {
        Data((0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    }

    private static func append(_ value: CBORValue, to output: inout Data) {
        switch value {
        case .unsigned(let number): output += head(major: 0, number)
        case .negative(let number): output += head(major: 1, number)
        case .bytes(let bytes): output += head(major: 2, UInt64(bytes.count)) + bytes
        case .text(let text): output += head(major: 3, UInt64(text.utf8.count)) + Data(text.utf8)
        case .array(let elements):
            output += head(major: 4, UInt64(elements.count))
            for element in elements { append(element, to: &output) }
        case .map(let map):
            output += head(major: 5, UInt64(map.count))
            for entry in map.entries {
                append(entry.key, to: &output)
                append(entry.value, to: &output)
            }
        case .bool(let flag): output.append(flag ? 0xF5 : 0xF4)
        case .null: output.append(0xF6)
        }
    }
}

extension CBORValue {
    /// A map of `pairs`, in the order given.
    package static func map(_ pairs: KeyValuePairs<CBORValue, CBORValue>) -> CBORValue {
        .map(CBORMap(entries: pairs.map { CBORMap.Entry(key: $0.key, value: $0.value) }))
    }
}
