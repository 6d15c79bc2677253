/// A value bound to a statement parameter, with the PostgreSQL type it is sent as. NULL is
/// a `nil` of either type, so the server knows its type even in a `SELECT` list.
enum PostgresValue: Sendable, Equatable {
    /// `text`.
    case text(String?)
    /// `int8`.
    case integer(Int64?)
}
