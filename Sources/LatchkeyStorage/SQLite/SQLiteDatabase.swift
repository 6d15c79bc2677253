import LatchkeyCore
import CSQLite
import Foundation
import Synchronization

/// The one wrapper of the SQLite C library: owns a `sqlite3` connection, closes it in
/// `deinit`, and lends it only inside ``withConnection(_:)``, ``read(_:)`` and
/// ``transaction(_:)``.
///
/// Every use of the connection is serialised by a `Mutex`, so one instance may be shared
/// by any number of threads. Several instances (or processes) may open the same file:
/// WAL mode lets readers run beside one writer, write transactions start with
/// `BEGIN IMMEDIATE`, and `busy_timeout` makes a writer wait for another instead of
/// failing at once.
///
/// Every failure is thrown as ``LatchkeyError`` with code `storage_error`, a message
/// safe for clients, and SQLite's own error text in `detail`.
final class SQLiteDatabase: Sendable {
    /// How long a statement waits for another connection's write lock before failing.
    static let busyTimeoutMilliseconds: Int32 = 5000

    private let connection: Mutex<OpaquePointer>

    /// Opens (creating if needed) the database file at `path` and configures it: WAL
    /// journal, `synchronous=NORMAL`, foreign keys enforced, busy timeout.
    init(path: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(handle)
            throw LatchkeyError(.storage, "The database could not be opened.", detail: "\(path): \(detail)")
        }
        let connection = Connection(handle: handle)
        do {
            // The timeout comes first: switching to WAL needs a lock another opener may hold.
            _ = try connection.query("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)")
            let mode = try connection.query("PRAGMA journal_mode = WAL").first?.optionalText("journal_mode")
            guard mode?.lowercased() == "wal" else {
                throw LatchkeyError(
                    .storage, "The database could not be opened.",
                    detail: "\(path): journal_mode is \(mode ?? "unknown"), WAL is required")
            }
            try connection.execute("PRAGMA synchronous = NORMAL")
            try connection.execute("PRAGMA secure_delete = ON")
            try connection.execute("PRAGMA foreign_keys = ON")
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        self.connection = Mutex(handle)
    }

    deinit {
        connection.withLock { handle in
            _ = sqlite3_close_v2(handle)
        }
    }

    /// Runs `body` with exclusive use of the connection, outside any explicit transaction
    /// (each statement commits on its own). `body` must not call back into this database:
    /// the lock is not reentrant.
    @discardableResult
    func withConnection<Output: Sendable>(_ body: (borrowing Connection) throws -> Output) throws -> Output {
        try connection.withLock { handle in
            try body(Connection(handle: handle))
        }
    }
}

extension SQLiteDatabase: SQLDatabase {
    var dialect: SQLDialect { .sqlite }

    /// Runs `body` like ``withConnection(_:)``.
    @discardableResult
    func read<Output: Sendable>(_ body: (borrowing any SQLConnection & ~Copyable) throws -> Output) throws -> Output {
        try connection.withLock { handle in
            let connection: any SQLConnection & ~Copyable = Connection(handle: handle)
            return try body(connection)
        }
    }

    /// Runs `body` in one write transaction: `BEGIN IMMEDIATE`, then `COMMIT` when `body`
    /// returns, or `ROLLBACK` when it (or the commit) throws; the error is rethrown. Runs
    /// `body` once. `body` must not call back into this database: the lock is not reentrant.
    @discardableResult
    func transaction<Output: Sendable>(_ body: (borrowing any SQLConnection & ~Copyable) throws -> Output) throws -> Output {
        try connection.withLock { handle in
            let connection: any SQLConnection & ~Copyable = Connection(handle: handle)
            try connection.execute("BEGIN IMMEDIATE", [])
            do {
                let result = try body(connection)
                try connection.execute("COMMIT", [])
                return result
            } catch {
                // SQLite rolls back by itself after some errors; a second ROLLBACK would only
                // fail with "no transaction is active" and hide the error that matters.
                if sqlite3_get_autocommit(handle) == 0 {
                    _ = try? connection.execute("ROLLBACK", [])
                }
                throw error
            }
        }
    }
}

extension SQLiteDatabase {
    /// The connection, lent for the duration of one ``SQLiteDatabase/withConnection(_:)``,
    /// ``SQLiteDatabase/read(_:)`` or ``SQLiteDatabase/transaction(_:)`` call. Not copyable, so it cannot outlive the
    /// lock that guards it.
    struct Connection: ~Copyable, SQLConnection {
        private let handle: OpaquePointer

        fileprivate init(handle: OpaquePointer) {
            self.handle = handle
        }

        /// Runs one statement with `values` bound to its `?` parameters, in order; returns
        /// how many rows it inserted, updated or deleted.
        @discardableResult
        func execute(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
            _ = try run(sql, values)
            return Int(sqlite3_changes64(handle))
        }

        /// Runs one statement with `values` bound to its `?` parameters, in order; returns
        /// every row it produced (a `SELECT`, or a statement with `RETURNING`).
        func query(_ sql: String, _ values: [SQLValue] = []) throws -> [SQLiteRow] {
            try run(sql, values)
        }

        /// Runs a script of several statements without parameters, such as a migration.
        func executeScript(_ sql: String) throws {
            var message: UnsafeMutablePointer<CChar>?
            let status = sqlite3_exec(handle, sql, nil, nil, &message)
            guard status == SQLITE_OK else {
                let detail = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
                sqlite3_free(message)
                throw LatchkeyError(.storage, "A database statement failed.", detail: detail)
            }
        }

        private func run(_ sql: String, _ values: [SQLValue]) throws -> [SQLiteRow] {
            var statement: OpaquePointer?
            var trailingSQL = ""
            let status = sql.withCString { text in
                var tail: UnsafePointer<CChar>?
                let status = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
                trailingSQL = tail.map { String(cString: $0) } ?? ""
                return status
            }
            defer { sqlite3_finalize(statement) }
            guard status == SQLITE_OK, let statement else {
                throw LatchkeyError(.storage, "A database statement could not be prepared.", detail: errorMessage())
            }
            // sqlite3_prepare compiles only the first statement; silently ignoring the rest would hide a bug.
            guard trailingSQL.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
                throw LatchkeyError(
                    .storage, "A database statement could not be prepared.", detail: "more than one statement in: \(sql)")
            }
            guard Int(sqlite3_bind_parameter_count(statement)) == values.count else {
                throw LatchkeyError(
                    .storage, "A database statement could not be prepared.",
                    detail: "\(values.count) values for \(sqlite3_bind_parameter_count(statement)) parameters in: \(sql)")
            }
            for (offset, value) in values.enumerated() {
                try bind(value, at: Int32(offset + 1), in: statement)
            }

            let columnCount = sqlite3_column_count(statement)
            var columnIndex: [String: Int] = [:]
            for column in 0..<columnCount {
                columnIndex[String(cString: sqlite3_column_name(statement, column))] = Int(column)
            }
            var rows: [SQLiteRow] = []
            while true {
                switch sqlite3_step(statement) {
                case SQLITE_ROW:
                    let values = (0..<columnCount).map { column(at: $0, in: statement) }
                    rows.append(SQLiteRow(values: values, columnIndex: columnIndex))
                case SQLITE_DONE:
                    return rows
                case SQLITE_BUSY:
                    throw LatchkeyError(.storage, "The database is busy.", detail: errorMessage())
                default:
                    throw LatchkeyError(.storage, "A database statement failed.", detail: errorMessage())
                }
            }
        }

        private func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer) throws {
            let status: Int32
            switch value {
            case .text(let text?):
                status = sqlite3_bind_text(statement, index, text, Int32(text.utf8.count), latchkey_sqlite_transient())
            case .integer(let integer?):
                status = sqlite3_bind_int64(statement, index, integer)
            case .text(nil), .integer(nil):
                status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else {
                throw LatchkeyError(.storage, "A database value could not be bound.", detail: errorMessage())
            }
        }

        private func column(at index: Int32, in statement: OpaquePointer) -> SQLiteValue {
            switch sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER:
                return .integer(sqlite3_column_int64(statement, index))
            case SQLITE_FLOAT:
                return .real(sqlite3_column_double(statement, index))
            case SQLITE_TEXT:
                let count = Int(sqlite3_column_bytes(statement, index))
                guard let text = sqlite3_column_text(statement, index) else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(statement, index))
                guard let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
                return .blob(Data(bytes: bytes, count: count))
            default:
                return .null
            }
        }

        private func errorMessage() -> String {
            "\(String(cString: sqlite3_errmsg(handle))) (code \(sqlite3_extended_errcode(handle)))"
        }
    }
}
