package import Foundation
import LatchkeyCrypto

/// JSON for Latchkey's replies and tokens: keys sorted, slashes not escaped — byte for byte
/// what `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes, without its cost
/// on every request.
///
/// Objects, arrays, strings, integers, booleans and null are written directly. A value that
/// holds anything else (floating point, `Date`, `Data`, `URL`, `Decimal`, or a value encoded
/// through a `superEncoder`) goes through `JSONEncoder` instead, whole, so the output is the
/// same either way.
package enum CompactJSON {
    /// `value` as JSON (see the type's description); throws what `JSONEncoder` throws.
    package static func encode(_ value: some Encodable) throws -> Data {
        let encoder = TreeEncoder(codingPath: [])
        do {
            try value.encode(to: encoder)
        } catch is Unsupported {
            return try fallback(value)
        }
        // JSONEncoder refuses a top-level value that encodes nothing; so does the fallback.
        guard let root = encoder.root else { return try fallback(value) }
        var output: [UInt8] = []
        output.reserveCapacity(256)
        root.write(to: &output)
        return Data(output)
    }

    private static func fallback(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// A value this encoder leaves to `JSONEncoder`.
    fileprivate struct Unsupported: Error {}

    /// `value`, which writes its members itself, as JSON: the bytes ``encode(_:)`` writes
    /// for it through `Encodable`, without building them through an `Encoder`. For the few
    /// values every token request encodes (an access token's claims, the token replies) and
    /// the reset link check's reply, for which going through `Encodable` was a large part of
    /// the request's work (measured: docs/performance.md, "Replies that write their own JSON").
    package static func encode(_ value: some CompactJSONObject) -> Data {
        var object = ObjectWriter()
        value.writeMembers(to: &object)
        return Data(object.finished())
    }

    /// Writes one JSON object's members, in the order given, which must be the keys' sorted
    /// order (as ``encode(_:)`` sorts them; checked in debug builds).
    package struct ObjectWriter {
        private var output: [UInt8] = [UInt8(ascii: "{")]
        /// The last member's key (static text), for the order's check.
        private var lastKey: UnsafeBufferPointer<UInt8>?

        fileprivate init() {
            output.reserveCapacity(512)
        }

        /// The object's bytes, closed.
        fileprivate consuming func finished() -> [UInt8] {
            output.append(UInt8(ascii: "}"))
            return output
        }

        private mutating func key(_ key: StaticString) {
            let name = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
            assert(lastKey.map { $0.lexicographicallyPrecedes(name) } ?? true, "members out of their keys' order")
            lastKey = name
            if output.count > 1 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: name)
            output.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }

        /// A string member.
        package mutating func member(_ key: StaticString, _ value: String) {
            self.key(key)
            Node.write(string: value, to: &output)
        }

        /// A string member, left out when `value` is nil (as a synthesized `Encodable` does).
        package mutating func member(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            member(key, value)
        }

        /// An array-of-strings member.
        package mutating func member(_ key: StaticString, _ value: [String]) {
            self.key(key)
            output.append(UInt8(ascii: "["))
            for (index, element) in value.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Node.write(string: element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        }

        /// A boolean member.
        package mutating func member(_ key: StaticString, _ value: Bool) {
            self.key(key)
            output.append(contentsOf: (value ? "true" : "false").utf8)
        }

        /// A boolean member, left out when `value` is nil (as a synthesized `Encodable` does).
        package mutating func member(_ key: StaticString, _ value: Bool?) {
            guard let value else { return }
            member(key, value)
        }

        /// An integer member.
        package mutating func member(_ key: StaticString, _ value: some BinaryInteger) {
            self.key(key)
            output.append(contentsOf: String(value).utf8)
        }

        /// An object member, whose members `write` writes.
        package mutating func member(_ key: StaticString, object write: (inout ObjectWriter) -> Void) {
            self.key(key)
            var inner = ObjectWriter()
            write(&inner)
            output.append(contentsOf: inner.finished())
        }
    }
}

/// A value that writes its JSON object itself, for `CompactJSON.encode(_:)`: byte for byte what
/// its `Encodable` conformance gives.
package protocol CompactJSONObject: Encodable {
    /// Writes the members `encode(to:)` encodes, sorted by key.
    func writeMembers(to object: inout CompactJSON.ObjectWriter)
}

/// One JSON value being built; objects and arrays are shared with the containers filling them.
private final class Node {
    enum Content {
        /// Members in the order first encoded, each key once (a key encoded again replaces its
        /// value, as in JSONEncoder); written sorted by key. A list, not a dictionary: a
        /// reply's few keys are found faster by comparing than by hashing.
        case object([(key: String, value: Node)])
        case array([Node])
        case string(String)
        /// A number, `true`, `false` or `null`, as written.
        case literal(String)
    }

    var content: Content

    init(_ content: Content) {
        self.content = content
    }

    func write(to output: inout [UInt8]) {
        switch content {
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.write(string: member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .string(let text):
            Self.write(string: text, to: &output)
        case .literal(let text):
            output.append(contentsOf: text.utf8)
        }
    }

    /// `text` quoted: `"` and `\` escaped, control characters as `\b \t \n \f \r` or `\u00xx`,
    /// everything else (`/`, DEL, non-ASCII) as it is.
    static func write(string text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings need no escape at all: copied whole (looked for in the contiguous UTF-8,
        // which a scan through the string's view was several times slower at).
        var text = text
        let copiedWhole = text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            output.append(contentsOf: bytes)
            return true
        }
        guard !copiedWhole else {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x00..<0x20:
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                output.append(Hex.digit(byte >> 4))
                output.append(Hex.digit(byte & 0x0F))
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

/// The `Encoder` that builds a ``Node`` tree.
private final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What was encoded; nil while nothing was.
    var root: Node?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(object: node(.object([])), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(array: node(.array([])), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// The root, created as `content` the first time a container asks for it.
    private func node(_ content: Node.Content) -> Node {
        if let root { return root }
        let created = Node(content)
        root = created
        return created
    }

    /// `value` as a node: directly for the kinds written here, by its own `encode(to:)` for
    /// other `Encodable` types; throws ``CompactJSON/Unsupported`` for everything else.
    /// `codingPath` is only built for a value encoded by its own `encode(to:)`.
    static func node(for value: some Encodable, at codingPath: @autoclosure () -> [any CodingKey]) throws -> Node {
        switch value {
        case let text as String: return Node(.string(text))
        case let flag as Bool: return Node(.literal(flag ? "true" : "false"))
        case let number as Int: return Node(.literal(String(number)))
        case let number as Int64: return Node(.literal(String(number)))
        case let number as any BinaryInteger: return Node(.literal(String(describing: number)))
        case is any BinaryFloatingPoint, is Date, is Data, is URL, is Decimal: throw CompactJSON.Unsupported()
        default:
            let encoder = TreeEncoder(codingPath: codingPath())
            try value.encode(to: encoder)
            // JSONEncoder writes a nested value that encoded nothing as an empty object.
            return encoder.root ?? Node(.object([]))
        }
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: Node
    let codingPath: [any CodingKey]

    private func set(_ node: Node, for key: Key) {
        guard case .object(var members) = object.content else { return }
        object.content = .literal("")  // drop the reference so the list is not copied
        let name = key.stringValue
        if let index = members.firstIndex(where: { $0.key == name }) {
            members[index].value = node
        } else {
            members.append((name, node))
        }
        object.content = .object(members)
    }

    mutating func encodeNil(forKey key: Key) throws {
        set(Node(.literal("null")), for: key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try TreeEncoder.node(for: value, at: codingPath + [key]), for: key)
    }

    // The kinds replies are made of, written without a dynamic cast.
    mutating func encode(_ value: String, forKey key: Key) throws {
        set(Node(.string(value)), for: key)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        set(Node(.literal(value ? "true" : "false")), for: key)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        set(Node(.literal(String(value))), for: key)
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        set(Node(.literal(String(value))), for: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = Node(.object([]))
        set(nested, for: key)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = Node(.array([]))
        set(nested, for: key)
        return UnkeyedContainer(array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { UnsupportedEncoder(codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { UnsupportedEncoder(codingPath: codingPath + [key]) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let array: Node
    let codingPath: [any CodingKey]

    var count: Int {
        guard case .array(let elements) = array.content else { return 0 }
        return elements.count
    }

    private func append(_ node: Node) {
        guard case .array(var elements) = array.content else { return }
        array.content = .literal("")  // drop the reference so the array is not copied
        elements.append(node)
        array.content = .array(elements)
    }

    mutating func encodeNil() throws {
        append(Node(.literal("null")))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try TreeEncoder.node(for: value, at: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = Node(.object([]))
        append(nested)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = Node(.array([]))
        append(nested)
        return UnkeyedContainer(array: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { UnsupportedEncoder(codingPath: codingPath) }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {
        encoder.root = Node(.literal("null"))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.root = try TreeEncoder.node(for: value, at: codingPath)
    }
}

/// What `superEncoder()` returns: encoding anything through it sends the whole value to
/// `JSONEncoder`.
private struct UnsupportedEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(UnsupportedKeyed<Key>(codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnsupportedUnkeyed(codingPath: codingPath) }

    func singleValueContainer() -> any SingleValueEncodingContainer { UnsupportedSingle(codingPath: codingPath) }
}

private struct UnsupportedKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let codingPath: [any CodingKey]
    mutating func encodeNil(forKey key: Key) throws { throw CompactJSON.Unsupported() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw CompactJSON.Unsupported() }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(UnsupportedKeyed<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnsupportedUnkeyed(codingPath: codingPath)
    }
    mutating func superEncoder() -> any Encoder { UnsupportedEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { UnsupportedEncoder(codingPath: codingPath) }
}

private struct UnsupportedUnkeyed: UnkeyedEncodingContainer {
    let codingPath: [any CodingKey]
    var count: Int { 0 }
    mutating func encodeNil() throws { throw CompactJSON.Unsupported() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw CompactJSON.Unsupported() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(UnsupportedKeyed<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { UnsupportedUnkeyed(codingPath: codingPath) }
    mutating func superEncoder() -> any Encoder { UnsupportedEncoder(codingPath: codingPath) }
}

private struct UnsupportedSingle: SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    mutating func encodeNil() throws { throw CompactJSON.Unsupported() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw CompactJSON.Unsupported() }
}
