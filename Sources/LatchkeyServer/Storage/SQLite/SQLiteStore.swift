public import Foundation

/// The embedded ``Store``: one SQLite file in WAL mode.
///
/// Safe to share between threads (each instance serialises its own connection), and
/// between instances or processes opening the same file: every multi-statement change is
/// one `BEGIN IMMEDIATE` transaction, and the changes that must have a single winner
/// (consuming a reset token, leasing mail) are single conditional `UPDATE … RETURNING`
/// statements. See ``Migrations`` for the schema and how values are encoded.
public final class SQLiteStore: Sendable {
    let database: SQLiteDatabase
    /// Stamps the changes whose protocol methods carry no `now`: `schema_migrations.applied_at`
    /// and `accounts.updated_at` on a status change.
    let clock: any WallClock

    /// Opens the database at `path`, creating the file (mode 0600) and any missing parent
    /// directories (mode 0700) first. Does not migrate: call ``migrate()`` before use.
    /// `clock` stamps the few changes whose methods take no `now` (migration records,
    /// status changes). Throws `storage_error` when the directory or the database cannot
    /// be opened.
    public init(path: String, clock: any WallClock = SystemClock()) throws {
        let fileManager = FileManager.default
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try fileManager.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw LatchkeyError(
                .storage, "The database directory could not be created.", detail: "\(directory): \(error)")
        }
        if !fileManager.fileExists(atPath: path) {
            // SQLite would create the file world-readable; it holds password hashes. When this
            // fails (e.g. another process created it first), opening reports any real problem.
            _ = fileManager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        database = try SQLiteDatabase(path: path)
        self.clock = clock
    }
}

extension SQLiteStore: MaintenanceStore {
    @discardableResult
    public func migrate() throws -> [Int] {
        let known = Migrations.all.map(\.version).max() ?? 0
        let newest = try database.withConnection { connection in
            try connection.execute(Migrations.bookkeeping)
            return try connection.query("SELECT MAX(version) AS newest FROM schema_migrations")
                .first?.optionalInteger("newest")
        }
        if let newest, newest > known {
            throw LatchkeyError(
                .storage, "The database was created by a newer version of Latchkey.",
                detail: "schema version \(newest), this build knows up to \(known)")
        }
        var applied: [Int] = []
        for migration in Migrations.all {
            // Checked again inside the transaction: another instance may have applied it meanwhile.
            let didApply = try database.transaction { connection in
                let recorded = try connection.query(
                    "SELECT 1 AS recorded FROM schema_migrations WHERE version = ?", [.integer(Int64(migration.version))])
                guard recorded.isEmpty else { return false }
                try connection.executeScript(migration.sqlite)
                try connection.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
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
        let cutoff = SQLiteValue.integer(StorageEncoding.milliseconds(cutoff))
        return try database.transaction { connection in
            let tokens = try connection.execute(
                "DELETE FROM reset_tokens WHERE expires_at < ? OR used_at < ? OR superseded_at < ?",
                [cutoff, cutoff, cutoff])
            let sessions = try connection.execute(
                "DELETE FROM sessions WHERE expires_at < ? OR revoked_at < ?", [cutoff, cutoff])
            let mail = try connection.execute("DELETE FROM outbox WHERE (status = 'sent' AND sent_at < ?) OR (status = 'failed' AND last_attempt_at < ?)", [cutoff, cutoff])
            let codes = try connection.execute("DELETE FROM authorization_codes WHERE expires_at < ?", [cutoff])
            return tokens + sessions + mail + codes
        }
    }

    public func isReady() -> Bool {
        let answer = try? database.withConnection { connection in
            try connection.query("SELECT 1 AS ready").first?.integer("ready")
        }
        return answer == 1
    }
}
