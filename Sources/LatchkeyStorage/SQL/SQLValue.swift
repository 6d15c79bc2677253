import LatchkeyCore
/// A value bound to a statement parameter, in the two types the stores write. NULL is a
/// `nil` of either type, so a database that types parameters (PostgreSQL) knows its type
/// even in a `SELECT` list.
enum SQLValue: Sendable, Equatable {
    /// Text (`text` on PostgreSQL).
    case text(String?)
    /// A 64-bit signed integer (`int8` on PostgreSQL).
    case integer(Int64?)
}
