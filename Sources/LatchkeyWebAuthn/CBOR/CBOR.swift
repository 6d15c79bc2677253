package import Foundation

/// A strict CBOR decoder (RFC 8949) for the structures WebAuthn exchanges: attestation
/// objects, COSE keys and authenticator extension outputs.
///
/// It accepts what the CTAP2 canonical encoding form allows and refuses, with a stable
/// ``WebAuthnError`` code and never a crash, everything else a relying party has no use for:
/// - indefinite lengths, and integers, lengths and simple values not in their shortest
///   encoding (``WebAuthnError/Code/nonCanonicalCBOR``);
/// - tags, floating-point numbers, simple values other than false, true and null, and map
///   keys other than integers and text (``WebAuthnError/Code/unsupportedCBOR``);
/// - a map key given twice (``WebAuthnError/Code/duplicateMapKey``);
/// - truncated input, trailing bytes, reserved encodings, text that is not UTF-8
///   (``WebAuthnError/Code/invalidCBOR``);
/// - more bytes, nesting or items than its ``CBORLimits`` (``WebAuthnError/Code/cborLimitExceeded``),
///   checked before anything is allocated for a declared length.
///
/// Map keys are not required to be in canonical order: the signature covers the bytes as
/// sent, so order carries no ambiguity, and shipped clients and authenticators have sent
/// unordered maps (see docs/passkeys.md).
package enum CBOR {
    /// The one data item `bytes` encodes; throws ``WebAuthnError`` unless the item spans
    /// `bytes` exactly and is within `limits`.
    package static func parse(bytes: Data, limits: CBORLimits = .webAuthn) throws -> CBORValue {
        let (value, length) = try parsePrefix(bytes: bytes, limits: limits)
        guard length == bytes.count else {
            throw WebAuthnError(.invalidCBOR, "The CBOR item is followed by other bytes.")
        }
        return value
    }

    /// The data item at the start of `bytes` and the number of bytes it takes; what follows
    /// it is the caller's (authenticator data holds a COSE key followed by extensions).
    package static func parsePrefix(bytes: Data, limits: CBORLimits = .webAuthn) throws -> (value: CBORValue, length: Int) {
        guard bytes.count <= limits.maximumLength else {
            throw WebAuthnError(.cborLimitExceeded, "The CBOR input is longer than \(limits.maximumLength) bytes.")
        }
        var reader = CBORReader(bytes: [UInt8](bytes), limits: limits)
        let value = try reader.readItem(depth: 0)
        return (value, reader.offset)
    }
}

/// The decoder's cursor over the input bytes.
private struct CBORReader {
    let bytes: [UInt8]
    let limits: CBORLimits
    var offset = 0
    var items = 0

    init(bytes: [UInt8], limits: CBORLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    var remaining: Int { bytes.count - offset }

    mutating func readItem(depth: Int) throws -> CBORValue {
        items += 1
        guard items <= limits.maximumItems else {
            throw WebAuthnError(.cborLimitExceeded, "The CBOR input has more than \(limits.maximumItems) items.")
        }
        let initial = try readByte()
        let major = initial >> 5
        let info = initial & 0x1F
        switch major {
        case 0:
            return .unsigned(try readArgument(info, major: major))
        case 1:
            return .negative(try readArgument(info, major: major))
        case 2:
            return .bytes(Data(try take(try readLength(info, major: major))))
        case 3:
            let utf8 = try take(try readLength(info, major: major))
            guard let text = String(validating: utf8, as: UTF8.self) else {
                throw WebAuthnError(.invalidCBOR, "A CBOR text string is not valid UTF-8.")
            }
            return .text(text)
        case 4:
            let count = try readLength(info, major: major)
            try checkContainer(depth: depth, itemCount: count)
            var elements: [CBORValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try readItem(depth: depth + 1)) }
            return .array(elements)
        case 5:
            let count = try readLength(info, major: major)
            guard count <= remaining / 2 else { throw truncated }
            try checkContainer(depth: depth, itemCount: 2 * count)
            var entries: [CBORMap.Entry] = []
            entries.reserveCapacity(count)
            var keys = Set<CBORValue>()
            for _ in 0..<count {
                let key = try readItem(depth: depth + 1)
                switch key {
                case .unsigned, .negative, .text: break
                default: throw WebAuthnError(.unsupportedCBOR, "A CBOR map key is neither an integer nor text.")
                }
                guard keys.insert(key).inserted else {
                    throw WebAuthnError(.duplicateMapKey, "A CBOR map names one key twice.")
                }
                entries.append(.init(key: key, value: try readItem(depth: depth + 1)))
            }
            return .map(CBORMap(entries: entries))
        case 6:
            throw WebAuthnError(.unsupportedCBOR, "CBOR tags are not used in WebAuthn.")
        default:
            return try readSimple(info)
        }
    }

    /// Refuses a container past the depth limit, or declaring more items than the input can
    /// hold (each takes a byte at least) or the item limit leaves.
    private func checkContainer(depth: Int, itemCount: Int) throws {
        guard depth < limits.maximumDepth else {
            throw WebAuthnError(.cborLimitExceeded, "The CBOR input nests deeper than \(limits.maximumDepth) levels.")
        }
        guard itemCount <= remaining else { throw truncated }
        guard itemCount <= limits.maximumItems - items else {
            throw WebAuthnError(.cborLimitExceeded, "The CBOR input has more than \(limits.maximumItems) items.")
        }
    }

    private mutating func readSimple(_ info: UInt8) throws -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 24:
            // A one-byte simple value: below 32 it is malformed (RFC 8949 §3.3), above it
            // unassigned; either way not WebAuthn's.
            let value = try readByte()
            guard value >= 32 else { throw WebAuthnError(.nonCanonicalCBOR, "A CBOR simple value is not in its shortest form.") }
            throw WebAuthnError(.unsupportedCBOR, "CBOR simple values other than false, true and null are not used in WebAuthn.")
        case 25, 26, 27:
            throw WebAuthnError(.unsupportedCBOR, "CBOR floating-point numbers are not used in WebAuthn.")
        case 28, 29, 30:
            throw WebAuthnError(.invalidCBOR, "The CBOR input uses a reserved encoding.")
        case 31:
            throw WebAuthnError(.invalidCBOR, "The CBOR input has a break outside an indefinite-length item.")
        default:
            throw WebAuthnError(.unsupportedCBOR, "CBOR simple values other than false, true and null are not used in WebAuthn.")
        }
    }

    /// The argument of an item's head: the value of an integer, the length of a string or
    /// container. Refuses an argument not in its shortest encoding and indefinite lengths.
    private mutating func readArgument(_ info: UInt8, major: UInt8) throws -> UInt64 {
        let value: UInt64
        let smallest: UInt64
        switch info {
        case 0..<24: return UInt64(info)
        case 24: value = try readBigEndian(1); smallest = 24
        case 25: value = try readBigEndian(2); smallest = 0x100
        case 26: value = try readBigEndian(4); smallest = 0x1_0000
        case 27: value = try readBigEndian(8); smallest = 0x1_0000_0000
        case 31 where (2...5).contains(major):
            throw WebAuthnError(.nonCanonicalCBOR, "CBOR indefinite lengths are not allowed in WebAuthn.")
        default:
            throw WebAuthnError(.invalidCBOR, "The CBOR input uses a reserved encoding.")
        }
        guard value >= smallest else {
            throw WebAuthnError(.nonCanonicalCBOR, "A CBOR integer or length is not in its shortest form.")
        }
        return value
    }

    /// A length argument, no more than the bytes left (a string's bytes, a container's items
    /// at one byte each at least), so no declared length allocates more than the input.
    private mutating func readLength(_ info: UInt8, major: UInt8) throws -> Int {
        let length = try readArgument(info, major: major)
        guard length <= UInt64(remaining) else { throw truncated }
        return Int(length)
    }

    private mutating func readBigEndian(_ count: Int) throws -> UInt64 {
        try take(count).reduce(0) { $0 << 8 | UInt64($1) }
    }

    private mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else { throw truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count <= remaining else { throw truncated }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private var truncated: WebAuthnError {
        WebAuthnError(.invalidCBOR, "The CBOR input ends before its last item does.")
    }
}
