import LatchkeyCore
/// One database connection, lent for the duration of one ``SQLDatabase/read(_:)`` or
/// ``SQLDatabase/transaction(_:)`` call. Statements are written once, with `?` for each
/// parameter; each database binds `values` to them in order, never splicing them into SQL.
/// May be noncopyable (SQLite's is), so it cannot outlive the call that lent it.
protocol SQLConnection: ~Copyable {
    /// The rows ``query(_:_:)`` returns.
    associatedtype Row: SQLRow

    /// Runs one statement with `values` bound to its parameters; returns how many rows it
    /// inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ values: [SQLValue]) throws -> Int

    /// Runs one statement with `values` bound to its parameters; returns every row it
    /// produced (a `SELECT`, or a statement with `RETURNING`).
    func query(_ sql: String, _ values: [SQLValue]) throws -> [Row]

    /// Runs a script of several statements without parameters, such as a migration.
    func executeScript(_ sql: String) throws
}
