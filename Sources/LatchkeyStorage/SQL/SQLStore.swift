import LatchkeyCore
import Foundation
import LatchkeyCrypto

/// The store logic shared by every SQL database: each ``Store`` protocol is implemented
/// once, in extensions of this protocol, over the ``SQLDatabase`` a conforming store owns.
/// ``SQLiteStore`` and ``PostgresStore`` only open their database.
///
/// Every multi-statement change is one ``SQLDatabase/transaction(_:)``. The changes that
/// must have a single winner (consuming a reset token, code or refresh token, leasing
/// mail) are single conditional statements (`UPDATE … WHERE used_at IS NULL … RETURNING`).
/// Every transaction that issues, consumes or revokes an account's tokens locks the
/// account row first (see ``lockAccount(_:using:)`` and ``SQLDialect``), so a reset racing
/// a login or refresh leaves no live token behind, and such transactions queue instead of
/// deadlocking. Transactions may run more than once, so they have no effects outside the
/// database. See ``Migrations`` for the schema and how values are encoded.
protocol SQLStore: Sendable {
    /// The database type the store runs on.
    associatedtype Database: SQLDatabase

    /// The database every method runs its statements on.
    var database: Database { get }
    /// Stamps the changes whose protocol methods carry no `now`: `schema_migrations.applied_at`
    /// and `accounts.updated_at` on a status change.
    var clock: any WallClock { get }
    /// Seals the bodies of mail waiting in the outbox (they hold live links), and opens them
    /// when the mail is leased for sending.
    var mailBox: SecretBox { get }
}

extension SQLStore {
    /// The number `sql` (a `SELECT COUNT(*) AS counted …` with `values`) gives, read on a reader.
    func count(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
        let counted = try database.read { connection in try connection.query(sql, values).first?.integer("counted") }
        return Int(counted ?? 0)
    }

    @discardableResult
    package func migrate() throws -> [Int] {
        try migrate(through: Int.max)
    }

    /// ``migrate()`` up to and including version `lastVersion` only: how a test makes the
    /// database an older build left, to check a later migration against it.
    @discardableResult
    package func migrate(through lastVersion: Int) throws -> [Int] {
        let known = Migrations.all.map(\.version).max() ?? 0
        let newest = try database.transaction { connection in
            try lockMigrations(connection)
            try connection.executeScript(Migrations.bookkeeping)
            return try connection.query("SELECT MAX(version) AS newest FROM schema_migrations", [])
                .first?.optionalInteger("newest")
        }
        if let newest, newest > known {
            throw LatchkeyError(
                .storage, "The database was created by a newer version of Latchkey.",
                detail: "schema version \(newest), this build knows up to \(known)")
        }
        var applied: [Int] = []
        for migration in Migrations.all where migration.version <= lastVersion {
            let didApply = try database.transaction { connection in
                // Checked under the lock: another server may have applied it meanwhile.
                try lockMigrations(connection)
                let recorded = try connection.query(
                    "SELECT name FROM schema_migrations WHERE version = ?", [.integer(Int64(migration.version))])
                if let name = try recorded.first?.text("name") {
                    // Same number, other change (a development build's numbering): applying
                    // the rest on top would fail, or worse, half succeed.
                    guard name == migration.name else {
                        throw LatchkeyError(
                            .storage, "The database's schema is not one this build of Latchkey made.",
                            detail: "migration \(migration.version) is recorded as '\(name)', this build's is '\(migration.name)'")
                    }
                    return false
                }
                try connection.executeScript(database.dialect.script(for: migration))
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

    package func schemaVersions() throws -> (applied: Int, latest: Int) {
        let applied = try database.read { connection -> Int in
            let found = try connection.query(database.dialect.migrationsTableQuery, []).first?.integer("found") ?? 0
            guard found > 0 else { return 0 }
            let newest = try connection.query("SELECT MAX(version) AS newest FROM schema_migrations", []).first?.optionalInteger("newest")
            return Int(newest ?? 0)
        }
        return (applied, Migrations.all.map(\.version).max() ?? 0)
    }

    @discardableResult
    package func purge(before cutoffTime: Date) throws -> Int {
        let cutoff = SQLValue.integer(StorageEncoding.milliseconds(cutoffTime))
        return try database.transaction { connection in
            let tokens = try connection.execute(
                "DELETE FROM reset_tokens WHERE expires_at < ? OR used_at < ? OR superseded_at < ?",
                [cutoff, cutoff, cutoff])
            let emailChanges = try connection.execute(
                "DELETE FROM email_change_tokens WHERE expires_at < ? OR used_at < ? OR superseded_at < ?",
                [cutoff, cutoff, cutoff])
            let sessions = try connection.execute(
                "DELETE FROM sessions WHERE expires_at < ? OR revoked_at < ?", [cutoff, cutoff])
            let mail = try connection.execute(
                "DELETE FROM outbox WHERE (status = 'sent' AND sent_at < ?) OR (status = 'failed' AND last_attempt_at < ?)",
                [cutoff, cutoff])
            let codes = try connection.execute("DELETE FROM authorization_codes WHERE expires_at < ?", [cutoff])
            // A request is processed within seconds; one still here after a week fails every time.
            let requests = try connection.execute(
                "DELETE FROM reset_requests WHERE id < ?", [.text(SecureRandom.identifierTimePrefix(cutoffTime))])
            let signUps = try connection.execute(
                "DELETE FROM registration_requests WHERE id < ?", [.text(SecureRandom.identifierTimePrefix(cutoffTime))])
            let registrations = try connection.execute(
                "DELETE FROM registrations WHERE expires_at < ? OR used_at < ? OR superseded_at < ?", [cutoff, cutoff, cutoff])
            let pendingSecrets = try connection.execute("DELETE FROM pending_second_factors WHERE expires_at < ?", [cutoff])
            let challenges = try connection.execute("DELETE FROM second_factor_challenges WHERE expires_at < ?", [cutoff])
            let passkeyChallenges = try connection.execute("DELETE FROM passkey_challenges WHERE expires_at < ?", [cutoff])
            return tokens + emailChanges + sessions + mail + codes + requests + signUps + registrations + pendingSecrets + challenges
                + passkeyChallenges
        }
    }

    package func isReady() -> Bool {
        let answer = try? database.read { connection in
            try connection.query("SELECT 1 AS ready", []).first?.integer("ready")
        }
        return answer == 1
    }

    /// Waits until no other transaction migrates, and holds that lock until this
    /// transaction ends (see ``SQLDialect/migrationLock``).
    private func lockMigrations(_ connection: borrowing any SQLConnection & ~Copyable) throws {
        guard let statement = database.dialect.migrationLock else { return }
        try connection.execute(statement, [])
    }

    /// Waits until no other transaction holds the lock of the normalised address `email`, and
    /// holds it until this one ends (see ``SQLDialect/addressLock``): taken by every
    /// transaction that gives an account an address, so a check that the address is free and
    /// the change that takes it cannot be split by another.
    func lockAddress(_ email: String, using connection: borrowing any SQLConnection & ~Copyable) throws {
        guard let statement = database.dialect.addressLock else { return }
        try connection.execute(statement, [.text(email)])
    }

    /// Locks the account row against other writers until the transaction ends. Every
    /// transaction that issues, consumes or revokes an account's tokens locks the account
    /// first, before any token or session row, so they queue on the account instead of
    /// deadlocking on each other's rows.
    func lockAccount(_ accountID: String, using connection: borrowing any SQLConnection & ~Copyable) throws {
        try connection.execute(
            "SELECT 1 FROM accounts WHERE id = ? \(database.dialect.updateLock)", [.text(accountID)])
    }
}
