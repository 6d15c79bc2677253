import LatchkeyCore
import Foundation

extension SQLStore {
    /// The columns ``account(from:)`` reads, for `SELECT` and `RETURNING` lists.
    static var accountColumns: String { "id, email, password_hash, status, credential_version, locale, failure_epoch, created_at" }

    package func createAccount(_ account: Account) throws {
        try createAccount(account, sealedSecondFactor: nil)
    }

    package func createAccount(_ account: Account, sealedSecondFactor: String?) throws {
        let createdAt = SQLValue.integer(StorageEncoding.milliseconds(account.createdAt))
        let inserted = try database.transaction { connection in
            // ON CONFLICT makes the check and the insert one step, so racing servers cannot both
            // take the email; the address lock queues it with an address change to the same
            // address, which checks the address is free before it takes it.
            try lockAddress(account.email, using: connection)
            let inserted = try connection.execute(
                """
                INSERT INTO accounts (id, email, password_hash, status, credential_version, locale, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (email) DO NOTHING
                """,
                [
                    .text(account.id), .text(account.email), .text(account.passwordHash),
                    .text(account.status.rawValue), .integer(Int64(account.credentialVersion)),
                    .text(account.locale), createdAt, createdAt,
                ])
            // In the same transaction: the account never exists without its second factor.
            if inserted == 1, let sealedSecondFactor {
                try connection.execute(
                    "INSERT INTO second_factors (account_id, sealed_secret, last_step, enabled_at) VALUES (?, ?, 0, ?)",
                    [.text(account.id), .text(sealedSecondFactor), createdAt])
            }
            return inserted
        }
        guard inserted == 1 else {
            throw LatchkeyError(.accountExists, "An account with this email already exists.")
        }
    }

    package func account(email: String) throws -> Account? {
        try accounts(where: "email = ?", [.text(email)]).first
    }

    package func account(id: String) throws -> Account? {
        try accounts(where: "id = ?", [.text(id)]).first
    }

    package func allAccounts() throws -> [Account] {
        try accounts(where: "TRUE", [])
    }

    package func setStatus(_ status: Account.Status, email: String) throws -> Bool {
        let now = SQLValue.integer(StorageEncoding.milliseconds(clock.now()))
        return try database.transaction { connection -> Bool in
            guard let accountID = try Self.accountID(email: email, using: connection) else { return false }
            try lockAccount(accountID, using: connection)
            // Disabling ends what the account had issued (a new credential version and every
            // token ended), so enabling it again revives nothing.
            let disabling = status == .disabled
            try connection.execute(
                "UPDATE accounts SET status = ?, credential_version = credential_version + ?, updated_at = ? WHERE id = ?",
                [.text(status.rawValue), .integer(disabling ? 1 : 0), now, .text(accountID)])
            if disabling { try Self.endTokens(ofAccount: accountID, now: now, using: connection) }
            return true
        }
    }

    package func rehashPassword(accountID: String, currentHash: String, newHash: String, now: Date) throws -> Bool {
        try database.transaction { connection in
            try connection.execute(
                "UPDATE accounts SET password_hash = ?, updated_at = ? WHERE id = ? AND password_hash = ?",
                [.text(newHash), .integer(StorageEncoding.milliseconds(now)), .text(accountID), .text(currentHash)])
        } > 0
    }

    package func clearSignInFailures(email: String, now: Date) throws -> Bool {
        try database.transaction { connection in
            try connection.execute(
                "UPDATE accounts SET failure_epoch = failure_epoch + 1, updated_at = ? WHERE email = ?",
                [.integer(StorageEncoding.milliseconds(now)), .text(email)])
        } > 0
    }

    package func replacePassword(email: String, newPasswordHash: String, now: Date) throws -> Bool {
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection -> Bool in
            guard let accountID = try Self.accountID(email: email, using: connection) else { return false }
            // As a completed reset (``completeReset``): the account first, then its tokens.
            try lockAccount(accountID, using: connection)
            try connection.execute(
                "UPDATE accounts SET password_hash = ?, credential_version = credential_version + 1, updated_at = ? WHERE id = ?",
                [.text(newPasswordHash), now, .text(accountID)])
            try Self.endTokens(ofAccount: accountID, now: now, using: connection)
            return true
        }
    }

    package func replaceEmail(
        current: String, new: String, now: Date, notice: (Account) throws -> MailMessage
    ) throws -> Account? {
        let stamp = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection -> Account? in
            guard let accountID = try Self.accountID(email: current, using: connection) else { return nil }
            // As a password change (``replacePassword``): the account first, then its tokens.
            try lockAccount(accountID, using: connection)
            guard let row = try connection.query("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?", [.text(accountID)]).first
            else { return nil }
            let account = try Self.account(from: row)
            guard try connection.query("SELECT 1 AS taken FROM accounts WHERE email = ?", [.text(new)]).isEmpty else {
                throw LatchkeyError(.accountExists, "An account with this email already exists.")
            }
            try connection.execute(
                "UPDATE accounts SET email = ?, credential_version = credential_version + 1, updated_at = ? WHERE id = ?",
                [.text(new), stamp, .text(accountID)])
            try Self.endTokens(ofAccount: accountID, now: stamp, using: connection)
            try Self.insertMail(try notice(account), sealedBy: mailBox, now: stamp, using: connection)
            return account
        }
    }

    /// The id of the account with the normalised email `email`, if any.
    static func accountID(email: String, using connection: borrowing any SQLConnection & ~Copyable) throws -> String? {
        try connection.query("SELECT id FROM accounts WHERE email = ?", [.text(email)]).first?.text("id")
    }

    /// Revokes every session (refresh-token families and browser sessions) of the account
    /// and supersedes its unused reset tokens. Run inside the transaction that changed the
    /// account's credentials, after ``lockAccount(_:using:)``: the statements then see
    /// every session committed before the lock was granted.
    static func endTokens(
        ofAccount accountID: String, now: SQLValue, using connection: borrowing any SQLConnection & ~Copyable
    ) throws {
        try connection.execute(
            "UPDATE sessions SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL", [now, .text(accountID)])
        try connection.execute(
            "UPDATE reset_tokens SET superseded_at = ? WHERE account_id = ? AND used_at IS NULL AND superseded_at IS NULL",
            [now, .text(accountID)])
    }

    package func deleteAccount(email: String) throws -> Bool {
        try database.transaction { connection -> Bool in
            guard let accountID = try Self.accountID(email: email, using: connection) else { return false }
            // Mail not yet sent holds reset links for tokens that go with the account. The
            // pending requests before the account, in the order the reset worker takes them
            // (request, then account), so the two queue instead of deadlocking.
            try connection.execute("DELETE FROM reset_requests WHERE email = ?", [.text(email)])
            try lockAccount(accountID, using: connection)
            try connection.execute("DELETE FROM outbox WHERE recipient = ? AND status = 'pending'", [.text(email)])
            // Reset tokens, sessions and authorization codes go with it (ON DELETE CASCADE).
            return try connection.execute("DELETE FROM accounts WHERE id = ?", [.text(accountID)]) == 1
        }
    }

    package func samplePasswordHashes(limit: Int) throws -> [String] {
        try database.read { connection in
            try connection.query(
                """
                SELECT password_hash FROM accounts WHERE password_hash IS NOT NULL AND status = 'active'
                ORDER BY random() LIMIT ?
                """,
                [.integer(Int64(limit))])
        }.map { try $0.text("password_hash") }
    }

    /// The accounts matching `condition`, oldest first.
    private func accounts(where condition: String, _ values: [SQLValue]) throws -> [Account] {
        let rows = try database.read { connection in
            try connection.query(
                "SELECT \(Self.accountColumns) FROM accounts WHERE \(condition) ORDER BY created_at, id \(database.dialect.byteOrder)",
                values)
        }
        return try rows.map(Self.account(from:))
    }

    /// The account in a row holding ``accountColumns``.
    static func account(from row: any SQLRow) throws -> Account {
        let statusText = try row.text("status")
        guard let status = Account.Status(rawValue: statusText) else {
            throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "account status \(statusText)")
        }
        return Account(
            id: try row.text("id"),
            email: try row.text("email"),
            passwordHash: try row.optionalText("password_hash"),
            status: status,
            credentialVersion: Int(try row.integer("credential_version")),
            locale: try row.optionalText("locale"),
            failureEpoch: Int(try row.integer("failure_epoch")),
            createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")))
    }
}
