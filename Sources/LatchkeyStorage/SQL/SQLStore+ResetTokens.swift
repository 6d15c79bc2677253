import Foundation
import LatchkeyCore
import LatchkeyCrypto
import Synchronization

extension SQLStore {
    package func acceptResetRequest(_ request: PendingResetRequest) -> DeferredWrite {
        database.deferredWrite { connection in
            try connection.execute(
                """
                INSERT INTO reset_requests (id, email, reset_url, locale, accept_language, accepted_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(request.id), .text(request.email), .text(request.resetURL), .text(request.locale),
                    .text(request.acceptLanguage), .integer(StorageEncoding.milliseconds(request.acceptedAt)),
                ])
        }
    }

    package func pendingResetRequestIDs(acceptedBefore cutoff: Date, limit: Int) throws -> [String] {
        try database.read { connection in
            // The table's key is the time-ordered id: the range below the cutoff's time prefix.
            try connection.query(
                "SELECT id FROM reset_requests WHERE id < ? ORDER BY id LIMIT ?",
                [.text(SecureRandom.identifierTimePrefix(cutoff)), .integer(Int64(limit))])
        }.map { try $0.text("id") }
    }

    package func pendingResetRequestCount(upTo limit: Int) throws -> Int {
        try count("SELECT COUNT(*) AS counted FROM (SELECT 1 FROM reset_requests LIMIT ?) AS waiting", [.integer(Int64(limit))])
    }

    package func processResetRequests(
        ids: [String], now: Date, issue: @escaping @Sendable (PendingResetRequest, Account?) throws -> IssuedResetToken?
    ) -> [Result<Bool, LatchkeyError>] {
        let taken = TakenRequests(count: ids.count)
        let writes = ids.enumerated().map { index, id in
            database.deferredWrite { connection in
                let wasTaken = try takeResetRequest(id: id, now: now, issue: issue, using: connection)
                taken.record(wasTaken, at: index)
            }
        }
        return writes.enumerated().map { index, write in write.wait().map { taken.wasTaken(at: index) } }
    }

    /// One request of ``processResetRequests(ids:now:issue:)``, inside its transaction.
    private func takeResetRequest(
        id: String, now: Date, issue: (PendingResetRequest, Account?) throws -> IssuedResetToken?,
        using connection: borrowing any SQLConnection & ~Copyable
    ) throws -> Bool {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        // The DELETE takes the row: a racing worker waits for it and then finds nothing.
        let taken = try connection.query(
            "DELETE FROM reset_requests WHERE id = ? RETURNING email, reset_url, locale, accept_language, accepted_at",
            [.text(id)])
        guard let row = taken.first else { return false }
        let request = PendingResetRequest(
            id: id, email: try row.text("email"), resetURL: try row.optionalText("reset_url"),
            locale: try row.optionalText("locale"), acceptLanguage: try row.optionalText("accept_language"),
            acceptedAt: StorageEncoding.date(milliseconds: try row.integer("accepted_at")))
        let accounts = try connection.query(
            "SELECT \(Self.accountColumns) FROM accounts WHERE email = ? AND status = 'active'", [.text(request.email)])
        guard let issued = try issue(request, try accounts.first.map(Self.account(from:))) else { return true }
        let token = issued.token
        try lockAccount(token.accountID, using: connection)
        try connection.execute(
            """
            UPDATE reset_tokens SET superseded_at = ?
            WHERE account_id = ? AND used_at IS NULL AND superseded_at IS NULL
            """,
            [nowValue, .text(token.accountID)])
        try connection.execute(
            "INSERT INTO reset_tokens (token_digest, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
            [
                .text(StorageEncoding.hex(token.digest)), .text(token.accountID),
                .integer(StorageEncoding.milliseconds(token.createdAt)),
                .integer(StorageEncoding.milliseconds(token.expiresAt)),
            ])
        try Self.insertMail(issued.mail, sealedBy: mailBox, now: nowValue, using: connection)
        return true
    }

    package func usableResetToken(digest: Data, now: Date) throws -> (token: ResetTokenRecord, account: Account)? {
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT t.created_at AS token_created_at, t.expires_at,
                       a.id, a.email, a.password_hash, a.status, a.credential_version, a.locale, a.failure_epoch, a.created_at
                FROM reset_tokens t JOIN accounts a ON a.id = t.account_id
                WHERE t.token_digest = ? AND t.used_at IS NULL AND t.superseded_at IS NULL AND t.expires_at > ?
                  AND a.status = 'active'
                """,
                [.text(StorageEncoding.hex(digest)), .integer(StorageEncoding.milliseconds(now))])
        }
        guard let row = rows.first else { return nil }
        let account = try Self.account(from: row)
        // The row is the one whose digest the query asked for.
        let token = ResetTokenRecord(
            digest: digest,
            accountID: account.id,
            createdAt: StorageEncoding.date(milliseconds: try row.integer("token_created_at")),
            expiresAt: StorageEncoding.date(milliseconds: try row.integer("expires_at")))
        return (token, account)
    }

    package func completeReset(
        digest: Data, newPasswordHash: String, now: Date,
        notification: (Account) throws -> MailMessage
    ) throws -> Account? {
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection -> Account? in
            let owner = try connection.query(
                "SELECT account_id FROM reset_tokens WHERE token_digest = ?", [.text(StorageEncoding.hex(digest))])
            guard let ownerID = try owner.first?.text("account_id") else { return nil }
            try lockAccount(ownerID, using: connection)
            // One conditional UPDATE: a racing caller, on this server or another, waits for the
            // row (or the database) lock and then finds used_at set, so exactly one wins.
            let consumed = try connection.query(
                """
                UPDATE reset_tokens SET used_at = ?
                WHERE token_digest = ? AND used_at IS NULL AND superseded_at IS NULL AND expires_at > ?
                  AND account_id IN (SELECT id FROM accounts WHERE status = 'active')
                RETURNING account_id
                """,
                [now, .text(StorageEncoding.hex(digest)), now])
            // Nothing was changed, so committing the empty transaction is the same as rolling back.
            guard let accountID = try consumed.first?.text("account_id") else { return nil }

            let updated = try connection.query(
                """
                UPDATE accounts
                SET password_hash = ?, credential_version = credential_version + 1, updated_at = ?
                WHERE id = ?
                RETURNING \(Self.accountColumns)
                """,
                [.text(newPasswordHash), now, .text(accountID)])
            guard let row = updated.first else {
                throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "reset token without account")
            }
            let account = try Self.account(from: row)
            try Self.endTokens(ofAccount: accountID, now: now, using: connection)
            try Self.insertMail(try notification(account), sealedBy: mailBox, now: now, using: connection)
            return account
        }
    }
}

/// Which requests of one ``SQLStore/processResetRequests(ids:now:issue:)`` call were taken,
/// written by the transactions that took them (on the thread that runs them).
private final class TakenRequests: Sendable {
    private let taken: Mutex<[Bool]>

    init(count: Int) {
        taken = Mutex(Array(repeating: false, count: count))
    }

    func record(_ wasTaken: Bool, at index: Int) {
        taken.withLock { $0[index] = wasTaken }
    }

    func wasTaken(at index: Int) -> Bool {
        taken.withLock { $0[index] }
    }
}
