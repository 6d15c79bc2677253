import Foundation

/// A value bound to a statement parameter or read from a result column, in SQLite's own
/// storage classes.
enum SQLiteValue: Sendable, Equatable {
    /// UTF-8 text.
    case text(String)
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit float.
    case real(Double)
    /// Raw bytes.
    case blob(Data)
    /// SQL NULL.
    case null
}

extension SQLiteValue {
    /// `.text(value)`, or `.null` when `value` is nil.
    static func text(_ value: String?) -> SQLiteValue {
        value.map { .text($0) } ?? .null
    }

    /// `.integer(value)`, or `.null` when `value` is nil.
    static func integer(_ value: Int64?) -> SQLiteValue {
        value.map { .integer($0) } ?? .null
    }
}
