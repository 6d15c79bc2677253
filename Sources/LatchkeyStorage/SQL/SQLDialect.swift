import LatchkeyCore
/// The SQL databases the stores run on, and the few clauses in which their SQL differs;
/// every statement is otherwise written once (see ``SQLStore``).
///
/// SQLite has no row locks and needs none: a write transaction (`BEGIN IMMEDIATE`) excludes
/// every other writer, so its lock clauses are empty and the same statements run unlocked.
enum SQLDialect: Sendable {
    /// SQLite 3 (``SQLiteDatabase``).
    case sqlite
    /// PostgreSQL (``PostgresConnectionPool``).
    case postgres

    /// The advisory lock key that serialises PostgreSQL migrations: "latchkey" as a
    /// big-endian integer.
    static let migrationLockKey: Int64 = 7_809_651_199_139_603_833

    /// The collation, after a text column in `ORDER BY`, that compares byte by byte, so
    /// every database orders ids alike whatever its locale.
    var byteOrder: String {
        switch self {
        case .sqlite: "COLLATE BINARY"
        case .postgres: "COLLATE \"C\""
        }
    }

    /// As ``updateLock``, for the rows read from `table` only (a name or alias in the
    /// `FROM` of a join), so that the other rows of the join are not locked.
    func updateLock(of table: String) -> String {
        switch self {
        case .sqlite: ""
        case .postgres: "FOR NO KEY UPDATE OF \(table)"
        }
    }

    /// The clause, ending a `SELECT`, that locks the rows it reads against other writers
    /// and other lockers until the transaction ends, without blocking foreign keys that
    /// reference them.
    var updateLock: String {
        switch self {
        case .sqlite: ""
        case .postgres: "FOR NO KEY UPDATE"
        }
    }

    /// The clause, ending a `SELECT`, that locks the rows it reads for an update and skips
    /// any row another transaction holds locked, so concurrent callers take different rows.
    var updateLockSkippingLocked: String {
        switch self {
        case .sqlite: ""
        case .postgres: "FOR UPDATE SKIP LOCKED"
        }
    }

    /// The statement that makes a migration wait until no other one runs, holding the lock
    /// until its transaction ends; nil when the write transaction alone excludes other
    /// migrations (SQLite).
    var migrationLock: String? {
        switch self {
        case .sqlite: nil
        case .postgres: "SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))"
        }
    }

    /// The first key of the advisory locks on addresses (PostgreSQL's two-key form, a key
    /// space apart from the migration lock's one key): "LKad".
    static let addressLockClass: Int32 = 0x4C4B_6164

    /// The statement that makes a transaction wait until no other holds the lock of the
    /// address bound to its one parameter, holding it until the transaction ends; nil when
    /// the write transaction alone excludes other writers (SQLite). Addresses are hashed to
    /// the lock's second key, so two addresses may share a lock: they then only queue.
    var addressLock: String? {
        switch self {
        case .sqlite: nil
        case .postgres: "SELECT pg_advisory_xact_lock(\(Self.addressLockClass), hashtext(?))"
        }
    }

    /// The query whose one row's `found` is 1 when the `schema_migrations` table exists, else 0.
    var migrationsTableQuery: String {
        switch self {
        case .sqlite: "SELECT COUNT(*) AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        case .postgres: "SELECT COUNT(*) AS found FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = 'schema_migrations'"
        }
    }

    /// The script of `migration` in this dialect.
    func script(for migration: Migration) -> String {
        switch self {
        case .sqlite: migration.sqlite
        case .postgres: migration.postgres
        }
    }
}
