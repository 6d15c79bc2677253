import LatchkeyCore
import Foundation

/// A value read from a result column, in SQLite's own storage classes.
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
