import LatchkeyCore
import CSQLite
import Foundation
import Synchronization

/// One SQLite connection and the statements prepared on it: owns the `sqlite3` handle and
/// every cached `sqlite3_stmt`, and finalizes them and closes the handle in `deinit`.
///
/// Every statement is prepared once per connection (`sqlite3_prepare_v3` with
/// `SQLITE_PREPARE_PERSISTENT`), kept in a cache keyed by its SQL text, and reset with its
/// bindings cleared after each run, so a later call with the same SQL only binds and
/// steps. At most ``statementCacheLimit`` statements are kept; beyond that (ad-hoc SQL of
/// tests and tools, never the stores' fixed set) a statement is prepared, run and finalized.
///
/// ``SQLiteConnectionPool`` lends a connection to one thread at a time; the `Mutex` makes
/// that a checked promise and is never contended.
///
/// Every failure is thrown as ``LatchkeyError`` with code `storage_error` (`storage_unavailable`
/// for a lock held past the busy timeout), a message safe for clients, and SQLite's own error
/// text in `detail`.
final class SQLiteConnection: Sendable {
    /// What a connection is for, which decides how it is opened.
    enum Role: Sendable {
        /// Runs only reads: opened without `SQLITE_OPEN_CREATE` and with `query_only`, so a
        /// write sent to it fails instead of bypassing the writer.
        case reader
        /// Runs the transactions and migrations; creates the file and switches it to WAL.
        case writer
    }

    /// A statement prepared once and kept for reuse, with what every run needs to know.
    private struct PreparedStatement {
        let handle: OpaquePointer
        let parameterCount: Int
        let columnCount: Int32
        /// The result's column names; shared by every row the statement returns.
        let columns: ResultColumns
    }

    /// An SQL text as the statement cache's key: equal when the whole texts are, hashed by
    /// the text's length and its first and last 32 bytes only. The stores' SQL runs to
    /// hundreds of bytes, and every run looks its statement up; texts alike at both ends
    /// share a bucket, never a statement.
    private struct SQLText: Hashable {
        let sql: String

        func hash(into hasher: inout Hasher) {
            var sql = sql
            sql.withUTF8 { bytes in
                hasher.combine(bytes.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(32))))
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(32))))
            }
        }
    }

    private struct State {
        let handle: OpaquePointer
        /// The statements prepared on this connection, by SQL text.
        var statements: [SQLText: PreparedStatement] = [:]
        /// The writer's WAL hook state (see shim.h); nil on a reader.
        var walWriteback: UnsafeMutablePointer<latchkey_wal_writeback>?
    }

    /// The WAL size, in frames, from which the writer copies the WAL back into the database
    /// file after a commit: SQLite's own default (1 000 frames, 4 MiB of 4 KiB pages).
    static let walCheckpointFrames: Int32 = 1_000

    /// The most statements one connection keeps prepared; the stores' SQL is a fixed set
    /// well below this.
    static let statementCacheLimit = 256

    private let state: Mutex<State>

    /// Opens the database file at `path` for `role` and configures the connection:
    /// `busyTimeoutMilliseconds` of waiting for another connection's lock, WAL journal
    /// (the writer switches the file to it; every connection checks it), `synchronous=NORMAL`,
    /// `secure_delete` and foreign keys on, temporary files in memory, and `query_only` for a
    /// reader. The one temporary file a connection of ours needs is the savepoint journal of a
    /// group commit's batch (the pages its savepoints changed, bounded by the batch); on disk,
    /// SQLite spilled it to a new temporary file past 64 KiB, so a busy writer created,
    /// wrote and unlinked a file for many of its batches. The writer's WAL hook (shim.h)
    /// checkpoints at ``walCheckpointFrames`` as SQLite's own does, and starts the kernel
    /// writing each 64 new frames, so the checkpoint's sync of the WAL, which every writer
    /// waits for, finds most of it on the disk already (measured: docs/performance.md, "The WAL
    /// written as it grows").
    init(path: String, role: Role, busyTimeoutMilliseconds: Int32) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (role == .writer ? SQLITE_OPEN_CREATE : 0)
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(handle)
            throw LatchkeyError(.storage, "The database could not be opened.", detail: "\(path): \(detail)")
        }
        state = Mutex(State(handle: handle))
        // From here on a throw runs deinit, which closes the handle.
        // The timeout comes first: switching to WAL needs a lock another opener may hold.
        try executeScript("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
        let journal = role == .writer ? "PRAGMA journal_mode = WAL" : "PRAGMA journal_mode"
        let mode = try query(journal, []).first?.optionalText("journal_mode")
        guard mode?.lowercased() == "wal" else {
            throw LatchkeyError(
                .storage, "The database could not be opened.",
                detail: "\(path): journal_mode is \(mode ?? "unknown"), WAL is required")
        }
        try executeScript(
            "PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY")
        if role == .reader { try executeScript("PRAGMA query_only = ON") }
        if role == .writer {
            // SQLite's checkpoint after a commit, with the WAL's writing started as it grows.
            let pageSize = try query("PRAGMA page_size", []).first?.optionalInteger("page_size") ?? 4096
            try state.withLock { state in
                guard let writeback = latchkey_wal_writeback_new(path, Int32(pageSize), Self.walCheckpointFrames) else {
                    throw LatchkeyError(.storage, "The database could not be opened.", detail: "\(path): out of memory")
                }
                state.walWriteback = writeback
                latchkey_install_wal_hook(state.handle, writeback)
            }
        }
    }

    deinit {
        state.withLock { state in
            for statement in state.statements.values { sqlite3_finalize(statement.handle) }
            _ = sqlite3_close_v2(state.handle)
            latchkey_wal_writeback_free(state.walWriteback)
        }
    }

    /// Runs one statement with `values` bound to its `?` parameters, in order; returns how
    /// many rows it inserted, updated or deleted.
    func execute(_ sql: String, _ values: [SQLValue]) throws -> Int {
        try run(sql, values, collectingRows: false).changes
    }

    /// Runs one statement with `values` bound to its `?` parameters, in order; returns every
    /// row it produced (a `SELECT`, or a statement with `RETURNING`).
    func query(_ sql: String, _ values: [SQLValue]) throws -> [SQLiteRow] {
        try run(sql, values, collectingRows: true).rows
    }

    /// Runs a script of several statements without parameters, such as a migration;
    /// nothing of it is cached.
    func executeScript(_ sql: String) throws {
        try state.withLock { state in
            var message: UnsafeMutablePointer<CChar>?
            let status = sqlite3_exec(state.handle, sql, nil, nil, &message)
            guard status == SQLITE_OK else {
                let detail = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
                sqlite3_free(message)
                throw LatchkeyError(.storage, "A database statement failed.", detail: detail)
            }
        }
    }

    /// Whether a transaction is open on this connection (SQLite is not in autocommit mode).
    var isInsideTransaction: Bool {
        state.withLock { sqlite3_get_autocommit($0.handle) == 0 }
    }

    /// How many statements this connection keeps prepared.
    var cachedStatementCount: Int {
        state.withLock { $0.statements.count }
    }

    /// How many times the statement cached for `sql` has run: stepped, then reset
    /// (SQLite's `SQLITE_STMTSTATUS_RUN`); nil when `sql` is not cached.
    /// One cached statement with N runs is one preparation serving N calls.
    func runs(ofCached sql: String) -> Int? {
        state.withLock { state in
            state.statements[SQLText(sql: sql)].map { Int(sqlite3_stmt_status($0.handle, SQLITE_STMTSTATUS_RUN, 0)) }
        }
    }

    private func run(_ sql: String, _ values: [SQLValue], collectingRows: Bool) throws -> (rows: [SQLiteRow], changes: Int) {
        try state.withLock { state in
            let handle = state.handle
            let statement: PreparedStatement
            let cached: Bool
            let key = SQLText(sql: sql)
            if let found = state.statements[key] {
                statement = found
                cached = true
            } else {
                cached = state.statements.count < Self.statementCacheLimit
                statement = try Self.prepare(sql, on: handle, persistent: cached)
                if cached { state.statements[key] = statement }
            }
            defer {
                if cached {
                    // Ends the statement's implicit read transaction, so a reader never pins an old snapshot.
                    sqlite3_reset(statement.handle)
                    sqlite3_clear_bindings(statement.handle)
                } else {
                    sqlite3_finalize(statement.handle)
                }
            }
            guard statement.parameterCount == values.count else {
                throw LatchkeyError(
                    .storage, "A database statement could not be prepared.",
                    detail: "\(values.count) values for \(statement.parameterCount) parameters in: \(sql)")
            }
            for (offset, value) in values.enumerated() {
                try Self.bind(value, at: Int32(offset + 1), in: statement.handle, on: handle)
            }
            var rows: [SQLiteRow] = []
            while true {
                switch sqlite3_step(statement.handle) {
                case SQLITE_ROW:
                    guard collectingRows else { continue }
                    let values = (0..<statement.columnCount).map { Self.column(at: $0, in: statement.handle) }
                    rows.append(SQLiteRow(values: values, columns: statement.columns))
                case SQLITE_DONE:
                    return (rows, Int(sqlite3_changes64(handle)))
                case SQLITE_BUSY:
                    throw LatchkeyError.storageUnavailable("The database is busy.", detail: Self.errorMessage(handle))
                default:
                    throw LatchkeyError(.storage, "A database statement failed.", detail: Self.errorMessage(handle))
                }
            }
        }
    }

    /// Compiles `sql`, which must be exactly one statement; `persistent` tells SQLite the
    /// statement will be kept and reused.
    private static func prepare(_ sql: String, on handle: OpaquePointer, persistent: Bool) throws -> PreparedStatement {
        var statement: OpaquePointer?
        var onlyOneStatement = true
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let status = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let status = sqlite3_prepare_v3(handle, text, -1, flags, &statement, &tail)
            // sqlite3_prepare compiles only the first statement; silently ignoring the rest would hide a bug.
            var rest = tail
            while let character = rest.map({ UInt8(bitPattern: $0.pointee) }), character != 0 {
                if character != UInt8(ascii: ";") && !isWhitespace(character) { onlyOneStatement = false }
                rest = rest?.successor()
            }
            return status
        }
        guard status == SQLITE_OK, let statement else {
            throw LatchkeyError(.storage, "A database statement could not be prepared.", detail: errorMessage(handle))
        }
        guard onlyOneStatement else {
            sqlite3_finalize(statement)
            throw LatchkeyError(
                .storage, "A database statement could not be prepared.", detail: "more than one statement in: \(sql)")
        }
        let columnCount = sqlite3_column_count(statement)
        let columns = ResultColumns((0..<columnCount).map { String(cString: sqlite3_column_name(statement, $0)) })
        return PreparedStatement(
            handle: statement, parameterCount: Int(sqlite3_bind_parameter_count(statement)), columnCount: columnCount,
            columns: columns)
    }

    /// Whether `character` is ASCII white space, as SQL allows between statements.
    private static func isWhitespace(_ character: UInt8) -> Bool {
        character == 0x20 || (0x09...0x0d).contains(character)
    }

    private static func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer, on handle: OpaquePointer) throws {
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
            throw LatchkeyError(.storage, "A database value could not be bound.", detail: errorMessage(handle))
        }
    }

    private static func column(at index: Int32, in statement: OpaquePointer) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    private static func errorMessage(_ handle: OpaquePointer) -> String {
        "\(String(cString: sqlite3_errmsg(handle))) (code \(sqlite3_extended_errcode(handle)))"
    }
}
