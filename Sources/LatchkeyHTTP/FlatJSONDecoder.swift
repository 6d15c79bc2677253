import Foundation

/// Decodes a body type from a ``FlatJSONObject``, throwing the `DecodingError`s
/// `JSONDecoder` throws for the same object: a missing member is `keyNotFound`, `null` where
/// a value is required `valueNotFound`, a value of another kind `typeMismatch`.
///
/// Only a keyed top level with `String` and `Bool` members is decoded here; a body type that
/// asks for anything else (a number, a nested container, a single value) gets
/// ``Unsupported``, and ``HTTPRequest/decodeJSON(_:allowingEmpty:)`` decodes the body with
/// `JSONDecoder` instead. A body type must therefore let errors it does not know pass
/// through (no `try?`).
struct FlatJSONDecoder: Decoder {
    /// What this decoder leaves to `JSONDecoder`.
    struct Unsupported: Error {}

    let object: FlatJSONObject
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Members(members: object.members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unsupported() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Unsupported() }

    /// The object's members, read by key.
    private struct Members<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: FlatJSONObject.Value]
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        func decodeNil(forKey key: Key) throws -> Bool { try value(for: key) == .null }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            switch try value(for: key) {
            case .string(let text): return text
            case .null: throw DecodingError.valueNotFound(type, context(key, "Expected a string, found null."))
            case .bool: throw DecodingError.typeMismatch(type, context(key, "Expected a string, found a boolean."))
            }
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            switch try value(for: key) {
            case .bool(let flag): return flag
            case .null: throw DecodingError.valueNotFound(type, context(key, "Expected a boolean, found null."))
            case .string: throw DecodingError.typeMismatch(type, context(key, "Expected a boolean, found a string."))
            }
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw Unsupported() }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw Unsupported() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { throw Unsupported() }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw Unsupported() }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw Unsupported() }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw Unsupported() }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw Unsupported() }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw Unsupported() }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw Unsupported() }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw Unsupported() }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw Unsupported() }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw Unsupported() }

        /// `String` and `Bool` are read here; every other type is left to `JSONDecoder`.
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if type == String.self, let text = try decode(String.self, forKey: key) as? T { return text }
            if type == Bool.self, let flag = try decode(Bool.self, forKey: key) as? T { return flag }
            throw Unsupported()
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        { throw Unsupported() }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Unsupported() }

        func superDecoder() throws -> any Decoder { throw Unsupported() }

        func superDecoder(forKey key: Key) throws -> any Decoder { throw Unsupported() }

        private func value(for key: Key) throws -> FlatJSONObject.Value {
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: [], debugDescription: "No such member."))
            }
            return value
        }

        private func context(_ key: Key, _ description: String) -> DecodingError.Context {
            DecodingError.Context(codingPath: [key], debugDescription: description)
        }
    }
}
