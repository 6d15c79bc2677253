public import Foundation

extension PostgresStore: ResetTokenStore {
    public func issueResetToken(_ token: ResetTokenRecord, mail: MailMessage, now: Date) throws {
        let now = PostgresValue.integer(StorageEncoding.milliseconds(now))
        try pool.transaction { connection in
            try Self.lockAccount(token.accountID, using: connection)
            try connection.execute(
                """
                UPDATE reset_tokens SET superseded_at = $1
                WHERE account_id = $2 AND used_at IS NULL AND superseded_at IS NULL
                """,
                [now, .text(token.accountID)])
            try connection.execute(
                "INSERT INTO reset_tokens (token_digest, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
                [
                    .text(StorageEncoding.hex(token.digest)), .text(token.accountID),
                    .integer(StorageEncoding.milliseconds(token.createdAt)),
                    .integer(StorageEncoding.milliseconds(token.expiresAt)),
                ])
            try Self.insertMail(mail, now: now, using: connection)
        }
    }

    public func usableResetToken(digest: Data, now: Date) throws -> (token: ResetTokenRecord, account: Account)? {
        let rows = try pool.read { connection in
            try connection.query(
                """
                SELECT t.token_digest, t.created_at AS token_created_at, t.expires_at,
                       a.id, a.email, a.password_hash, a.status, a.credential_version, a.locale, a.created_at
                FROM reset_tokens t JOIN accounts a ON a.id = t.account_id
                WHERE t.token_digest = $1 AND t.used_at IS NULL AND t.superseded_at IS NULL AND t.expires_at > $2
                  AND a.status = 'active'
                """,
                [.text(StorageEncoding.hex(digest)), .integer(StorageEncoding.milliseconds(now))])
        }
        guard let row = rows.first else { return nil }
        let account = try Self.account(from: row)
        let token = ResetTokenRecord(
            digest: try StorageEncoding.bytes(hex: try row.text("token_digest")),
            accountID: account.id,
            createdAt: StorageEncoding.date(milliseconds: try row.integer("token_created_at")),
            expiresAt: StorageEncoding.date(milliseconds: try row.integer("expires_at")))
        return (token, account)
    }

    public func completeReset(
        digest: Data, newPasswordHash: String, now: Date,
        notification: (Account) throws -> MailMessage
    ) throws -> Account? {
        let now = PostgresValue.integer(StorageEncoding.milliseconds(now))
        return try pool.transaction { connection -> Account? in
            let owner = try connection.query(
                "SELECT account_id FROM reset_tokens WHERE token_digest = $1", [.text(StorageEncoding.hex(digest))])
            guard let ownerID = try owner.first?.text("account_id") else { return nil }
            try Self.lockAccount(ownerID, using: connection)
            // One conditional UPDATE: PostgreSQL locks the row, and a racing caller, on this
            // server or another, waits for that lock and then finds used_at set, so exactly one wins.
            let consumed = try connection.query(
                """
                UPDATE reset_tokens SET used_at = $1
                WHERE token_digest = $2 AND used_at IS NULL AND superseded_at IS NULL AND expires_at > $1
                  AND account_id IN (SELECT id FROM accounts WHERE status = 'active')
                RETURNING account_id
                """,
                [now, .text(StorageEncoding.hex(digest))])
            // Nothing was changed, so committing the empty transaction is the same as rolling back.
            guard let accountID = try consumed.first?.text("account_id") else { return nil }

            let updated = try connection.query(
                """
                UPDATE accounts
                SET password_hash = $1, credential_version = credential_version + 1, updated_at = $2
                WHERE id = $3
                RETURNING \(Self.accountColumns)
                """,
                [.text(newPasswordHash), now, .text(accountID)])
            guard let row = updated.first else {
                throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "reset token without account")
            }
            let account = try Self.account(from: row)
            // This statement sees every session committed before the account lock was granted.
            try connection.execute(
                "UPDATE sessions SET revoked_at = $1 WHERE account_id = $2 AND revoked_at IS NULL", [now, .text(accountID)])
            try connection.execute(
                """
                UPDATE reset_tokens SET superseded_at = $1
                WHERE account_id = $2 AND used_at IS NULL AND superseded_at IS NULL
                """,
                [now, .text(accountID)])
            try Self.insertMail(try notification(account), now: now, using: connection)
            return account
        }
    }

    /// Locks the account row against other writers and against token creation (which
    /// takes it `FOR SHARE`) until the transaction ends. Every transaction that issues,
    /// consumes or revokes an account's tokens locks the account first, before any token or
    /// session row, so they queue on the account instead of deadlocking on each other's rows.
    static func lockAccount(_ accountID: String, using connection: PostgresConnection) throws {
        try connection.execute("SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE", [.text(accountID)])
    }
}
