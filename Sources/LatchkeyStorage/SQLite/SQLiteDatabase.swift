import LatchkeyCore

/// One SQLite database file in WAL mode, used through a pool of reader connections and one
/// writer connection (see ``SQLiteConnection``, the one wrapper of the SQLite C library).
///
/// ``read(_:)`` runs on a reader, ``transaction(_:)`` and ``withConnection(_:)`` on the
/// writer. WAL lets every reader run beside the writer, each statement seeing the data
/// committed when it started, so reads never wait for a write. Write transactions start
/// with `BEGIN IMMEDIATE`, so they queue on SQLite's write lock (`busy_timeout`), which
/// also excludes writers of other instances and processes opening the same file. The one
/// writer connection is used by one thread at a time: a caller waits for it (or for a free
/// reader) at most the busy timeout, then fails with `storage_unavailable` ("The database
/// is busy.", a 503). Write transactions that queue for the writer while it is busy run next as one
/// batch and one commit (``SQLiteGroupCommit``). Every statement is prepared once per
/// connection and reused.
///
/// Every other failure is thrown as ``LatchkeyError`` with code `storage_error`, a message
/// safe for clients, and SQLite's own error text in `detail`.
final class SQLiteDatabase: Sendable {
    /// How long a statement waits for another connection's write lock, and a caller for a
    /// free connection, before failing; the default of ``init(path:readers:busyTimeoutMilliseconds:)``.
    static let busyTimeoutMilliseconds: Int32 = 5000

    /// The default number of reader connections: the CPUs this process may run on (its
    /// affinity mask), at least 2.
    static var defaultReaderLimit: Int {
        max(2, AvailableProcessors.count)
    }

    private let readers: SQLiteConnectionPool
    private let writer: SQLiteConnectionPool
    private let groupCommit: SQLiteGroupCommit
    private let deferredWrites: SQLiteDeferredWrites

    /// Opens (creating if needed) the database file at `path`, with at most `readers`
    /// reader connections (opened when first needed) and one writer, opened now: it
    /// switches the file to WAL. Each connection has `synchronous=NORMAL`, `secure_delete`
    /// and foreign keys on, temporary files in memory, and a busy timeout of
    /// `busyTimeoutMilliseconds`, which is also the longest wait for a free connection; the
    /// writer starts the WAL's writing as it grows (see ``SQLiteConnection``). A write
    /// transaction alone at the writer while writers meet waits for others to share its
    /// commit as `gathering` says (see ``SQLiteGroupCommit``). At most `deferredWriteLimit`
    /// writes wait for a batch of ``deferredWrite(_:)`` (see ``SQLiteDeferredWrites``).
    init(
        path: String, readers: Int = defaultReaderLimit, busyTimeoutMilliseconds: Int32 = busyTimeoutMilliseconds,
        gathering: SQLiteGroupCommit.Gathering = .standard, deferredWriteLimit: Int = 1024
    ) throws {
        precondition(readers > 0, "a database needs at least one reader connection")
        let wait = Int(busyTimeoutMilliseconds)
        let first = try SQLiteConnection(path: path, role: .writer, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        writer = SQLiteConnectionPool(role: .writer, limit: 1, waitMilliseconds: wait, initial: [first]) {
            try SQLiteConnection(path: path, role: .writer, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
        groupCommit = SQLiteGroupCommit(writer: writer, waitMilliseconds: wait, gathering: gathering)
        deferredWrites = SQLiteDeferredWrites(groupCommit: groupCommit, queueLimit: deferredWriteLimit)
        self.readers = SQLiteConnectionPool(role: .reader, limit: readers, waitMilliseconds: wait) {
            try SQLiteConnection(path: path, role: .reader, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
    }

    deinit {
        deferredWrites.close()
    }

    /// The most reader connections open at once.
    var readerLimit: Int { readers.limit }

    /// How many reader connections are open now; never more than ``readerLimit``.
    var openReaders: Int { readers.openConnections }

    /// How many batches of write transactions have run so far (see ``SQLiteGroupCommit``).
    var writeBatches: Int { groupCommit.batches }

    /// How many batches of write transactions began with their first waiting for others.
    var gatheredWriteBatches: Int { groupCommit.gatheredBatches }

    /// How many write transactions wait for a batch now.
    var queuedWriteTransactions: Int { groupCommit.queued }

    /// How many batches of deferred writes have run so far (see ``SQLiteDeferredWrites``).
    var deferredWriteBatches: Int { deferredWrites.batches }

    /// Runs `body` with the writer connection, outside any explicit transaction (each
    /// statement commits on its own). `body` must not call back into this database's writer.
    @discardableResult
    func withConnection<Output: Sendable>(_ body: (borrowing Connection) throws -> Output) throws -> Output {
        try writer.withConnection { try body(Connection($0)) }
    }

    /// Runs `body` with a reader connection of its own: it may only read (`query_only`),
    /// each statement seeing what was committed when it started.
    @discardableResult
    func withReader<Output: Sendable>(_ body: (borrowing Connection) throws -> Output) throws -> Output {
        try readers.withConnection { try body(Connection($0)) }
    }
}

extension SQLiteDatabase: SQLDatabase {
    var dialect: SQLDialect { .sqlite }

    /// Runs `body` on a reader, like ``withReader(_:)``; never waits for the writer.
    @discardableResult
    func read<Output: Sendable>(_ body: (borrowing any SQLConnection & ~Copyable) throws -> Output) throws -> Output {
        try readers.withConnection { connection in
            let connection: any SQLConnection & ~Copyable = Connection(connection)
            return try body(connection)
        }
    }

    /// Runs `body` on the writer in a write transaction (`BEGIN IMMEDIATE`), shared with
    /// the transactions that queued beside it (see ``SQLiteGroupCommit``): returns once that
    /// transaction has committed; when `body` throws, only its own changes are undone and
    /// its error is rethrown. `body` may run twice — its first run undone — when another
    /// transaction of its batch throws, so it must have no effects outside the database that
    /// it cannot repeat; it must not call back into this database's writer.
    @discardableResult
    func transaction<Output: Sendable>(_ body: (borrowing any SQLConnection & ~Copyable) throws -> Output) throws -> Output {
        var output: Output?
        try groupCommit.run { writer in
            let connection: any SQLConnection & ~Copyable = Connection(writer)
            output = try body(connection)
        }
        guard let output else { preconditionFailure("a committed transaction has its output") }
        return output
    }

    /// Queues `body` as a deferred write for the committer thread (``SQLiteDeferredWrites``),
    /// which runs it in a group-commit transaction with the other writes of its batch, and
    /// returns it; the committer settles it once that transaction committed, and does nothing
    /// else for the caller: the caller does not wait for it. When
    /// `body` throws, only its changes are undone and the write settles with its error. With
    /// the queue full, runs `body` now as ``transaction(_:)`` does and returns it settled.
    /// `body` may run twice — its first run undone — when another write of its batch throws,
    /// so it must have no effects outside the database that it cannot repeat; it must not call
    /// back into this database's writer.
    func deferredWrite(_ body: @escaping @Sendable (borrowing any SQLConnection & ~Copyable) throws -> Void) -> DeferredWrite {
        let queued = deferredWrites.submit { writer in
            let connection: any SQLConnection & ~Copyable = Connection(writer)
            try body(connection)
        }
        return queued ?? committedNow(body)
    }
}

extension SQLiteDatabase {
    /// A connection, lent for the duration of one ``SQLiteDatabase/withConnection(_:)``,
    /// ``SQLiteDatabase/withReader(_:)``, ``SQLiteDatabase/read(_:)`` or
    /// ``SQLiteDatabase/transaction(_:)`` call. Not copyable, so it cannot outlive the call
    /// that has it to itself.
    struct Connection: ~Copyable, SQLConnection {
        private let connection: SQLiteConnection

        fileprivate init(_ connection: SQLiteConnection) {
            self.connection = connection
        }

        /// Runs one statement with `values` bound to its `?` parameters, in order; returns
        /// how many rows it inserted, updated or deleted.
        @discardableResult
        func execute(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
            try connection.execute(sql, values)
        }

        /// Runs one statement with `values` bound to its `?` parameters, in order; returns
        /// every row it produced (a `SELECT`, or a statement with `RETURNING`).
        func query(_ sql: String, _ values: [SQLValue] = []) throws -> [SQLiteRow] {
            try connection.query(sql, values)
        }

        /// Runs a script of several statements without parameters, such as a migration.
        func executeScript(_ sql: String) throws {
            try connection.executeScript(sql)
        }

        /// How many statements this connection keeps prepared.
        var cachedStatementCount: Int { connection.cachedStatementCount }

        /// How many times the statement this connection keeps prepared for `sql` has run;
        /// nil when it keeps none (see ``SQLiteConnection/runs(ofCached:)``).
        func runs(ofCached sql: String) -> Int? {
            connection.runs(ofCached: sql)
        }
    }
}
