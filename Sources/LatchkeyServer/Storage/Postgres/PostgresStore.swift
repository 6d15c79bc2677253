public import Foundation

/// The ``Store`` for several servers sharing one PostgreSQL database (libpq, a bounded
/// connection pool).
///
/// Every multi-statement change is one transaction. The changes that must have a single
/// winner even across servers are single conditional statements that PostgreSQL
/// serialises on the row: consuming a reset or refresh token is an
/// `UPDATE … WHERE used_at IS NULL … RETURNING`, leasing mail picks rows with
/// `FOR UPDATE SKIP LOCKED`. Every transaction that issues, consumes or revokes an
/// account's tokens locks the account row first (a reset exclusively, a login or refresh
/// `FOR SHARE`), so a reset racing a login or refresh on another server leaves no live
/// token behind, and such transactions queue instead of deadlocking.
/// Migrations take a transaction-scoped advisory lock, so servers starting together
/// migrate once. The schema and value encoding are the SQLite store's (see
/// ``Migrations``), so both behave identically to the millisecond.
public final class PostgresStore: Sendable {
    /// The advisory lock key that serialises migrations: "latchkey" as a big-endian integer.
    static let migrationLockKey: Int64 = 7_809_651_199_139_603_833

    let pool: PostgresConnectionPool
    /// Stamps the changes whose protocol methods carry no `now`: `schema_migrations.applied_at`
    /// and `accounts.updated_at` on a status change.
    let clock: any WallClock

    /// A store on the database `url` names, with at most `poolSize` connections; each
    /// statement may run `statementTimeout` seconds, and a call waits as long for a free
    /// connection. Connects lazily: nothing is opened until the first call, so this
    /// never fails; call ``migrate()`` before use (it fails when the database cannot be
    /// reached). `clock` stamps the few changes whose methods take no `now`.
    public init(url: PostgresURL, poolSize: Int = 8, statementTimeout: TimeInterval = 5, clock: any WallClock = SystemClock()) {
        pool = PostgresConnectionPool(
            url: url, size: max(1, poolSize), statementTimeout: statementTimeout, connectTimeout: 5,
            acquireTimeout: statementTimeout)
        self.clock = clock
    }
}

extension PostgresStore: MaintenanceStore {
    @discardableResult
    public func migrate() throws -> [Int] {
        let known = Migrations.all.map(\.version).max() ?? 0
        let newest = try pool.transaction { connection in
            try Self.lockMigrations(connection)
            try connection.executeScript(Migrations.bookkeeping)
            return try connection.query("SELECT MAX(version) AS newest FROM schema_migrations").first?.optionalInteger("newest")
        }
        if let newest, newest > known {
            throw LatchkeyError(
                .storage, "The database was created by a newer version of Latchkey.",
                detail: "schema version \(newest), this build knows up to \(known)")
        }
        var applied: [Int] = []
        for migration in Migrations.all {
            let didApply = try pool.transaction { connection in
                // Checked under the lock: another server may have applied it meanwhile.
                try Self.lockMigrations(connection)
                let recorded = try connection.query(
                    "SELECT 1 AS recorded FROM schema_migrations WHERE version = $1", [.integer(Int64(migration.version))])
                guard recorded.isEmpty else { return false }
                try connection.executeScript(migration.postgres)
                try connection.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    [
                        .integer(Int64(migration.version)), .text(migration.name),
                        .integer(StorageEncoding.milliseconds(clock.now())),
                    ])
                return true
            }
            if didApply { applied.append(migration.version) }
        }
        return applied
    }

    @discardableResult
    public func purge(before cutoff: Date) throws -> Int {
        let cutoff = PostgresValue.integer(StorageEncoding.milliseconds(cutoff))
        return try pool.transaction { connection in
            let tokens = try connection.execute(
                "DELETE FROM reset_tokens WHERE expires_at < $1 OR used_at < $1 OR superseded_at < $1", [cutoff])
            let sessions = try connection.execute("DELETE FROM sessions WHERE expires_at < $1 OR revoked_at < $1", [cutoff])
            let mail = try connection.execute(
                "DELETE FROM outbox WHERE (status = 'sent' AND sent_at < $1) OR (status = 'failed' AND last_attempt_at < $1)",
                [cutoff])
            let codes = try connection.execute("DELETE FROM authorization_codes WHERE expires_at < $1", [cutoff])
            return tokens + sessions + mail + codes
        }
    }

    public func isReady() -> Bool {
        let answer = try? pool.read { connection in
            try connection.query("SELECT 1 AS ready").first?.integer("ready")
        }
        return answer == 1
    }

    /// Waits until no other transaction holds the migration lock, and holds it until this
    /// transaction ends.
    private static func lockMigrations(_ connection: PostgresConnection) throws {
        try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(migrationLockKey)])
    }
}
