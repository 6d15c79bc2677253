public import Foundation

extension PostgresStore: ResetTokenStore {
    public func issueResetToken(_ token: ResetTokenRecord, mail: MailMessage, now: Date) throws {
        let now = PostgresValue.integer(StorageEncoding.milliseconds(now))
        try pool.transaction { connection in
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
            // A later statement sees sessions committed while it waited for the account lock above.
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
}
