import LatchkeyCore
import Foundation

extension SQLStore {
    package func changePassword(
        login: LoginReference, newPasswordHash: String, now: Date, notification: (Account) throws -> MailMessage
    ) throws -> Account? {
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection -> Account? in
            // The account first, as every writer of its tokens does (lockAccount).
            try lockAccount(login.accountID, using: connection)
            guard try Self.isLive(login, now: now, using: connection) else { return nil }
            let updated = try connection.query(
                """
                UPDATE accounts SET password_hash = ?, credential_version = credential_version + 1, updated_at = ?
                WHERE id = ?
                RETURNING \(Self.accountColumns)
                """,
                [.text(newPasswordHash), now, .text(login.accountID)])
            guard let row = updated.first else { return nil }
            let account = try Self.account(from: row)
            // Every browser session and every other login ends; this login moves to the new
            // credential version, so its refresh token goes on (its access tokens carry the old one).
            try connection.execute(
                """
                UPDATE sessions SET revoked_at = ?
                WHERE account_id = ? AND revoked_at IS NULL AND (family_id IS NULL OR family_id <> ?)
                """,
                [now, .text(login.accountID), .text(login.familyID)])
            try connection.execute(
                "UPDATE sessions SET credential_version = ? WHERE family_id = ? AND account_id = ? AND revoked_at IS NULL",
                [.integer(Int64(account.credentialVersion)), .text(login.familyID), .text(login.accountID)])
            try connection.execute(
                "UPDATE reset_tokens SET superseded_at = ? WHERE account_id = ? AND used_at IS NULL AND superseded_at IS NULL",
                [now, .text(login.accountID)])
            try Self.insertMail(try notification(account), sealedBy: mailBox, now: now, using: connection)
            return account
        }
    }

    package func deleteAccount(login: LoginReference, now: Date, notification: (Account) throws -> MailMessage) throws -> Account? {
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        do {
            return try database.transaction { connection -> Account? in
                let found = try connection.query("SELECT email FROM accounts WHERE id = ?", [.text(login.accountID)])
                guard let email = try found.first?.text("email") else { return nil }
                // The pending requests before the account, in the order the reset worker takes
                // them (request, then account), so the two queue instead of deadlocking.
                try connection.execute("DELETE FROM reset_requests WHERE email = ?", [.text(email)])
                try lockAccount(login.accountID, using: connection)
                // Checked under the lock; a login that ended meanwhile undoes the deletion above.
                guard try Self.isLive(login, now: now, using: connection),
                    let row = try connection.query("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?", [.text(login.accountID)]).first
                else { throw LoginNotLive() }
                let account = try Self.account(from: row)
                if account.email != email {
                    // The address changed between the two reads.
                    try connection.execute("DELETE FROM reset_requests WHERE email = ?", [.text(account.email)])
                }
                // Every mail to the address: unsent ones hold links of the account's tokens,
                // sent ones (their bodies already erased) still name the address.
                try connection.execute("DELETE FROM outbox WHERE recipient = ?", [.text(account.email)])
                // Reset tokens, sessions, logins, codes and address changes go with it (ON DELETE CASCADE).
                try connection.execute("DELETE FROM accounts WHERE id = ?", [.text(login.accountID)])
                try Self.insertMail(try notification(account), sealedBy: mailBox, now: now, using: connection)
                return account
            }
        } catch is LoginNotLive {
            return nil
        }
    }

    package func liveLogins(accountID: String, now: Date) throws -> [LiveLogin] {
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT s.family_id, s.client_id, COALESCE(s.auth_time, s.created_at) AS signed_in_at,
                       s.created_at AS last_used_at, s.client_ip, s.user_agent
                FROM sessions s JOIN accounts a ON a.id = s.account_id
                WHERE s.account_id = ? AND \(Self.liveLoginCondition)
                ORDER BY s.created_at DESC, s.family_id \(database.dialect.byteOrder)
                """,
                [.text(accountID), now, now])
        }
        return try rows.map { row in
            LiveLogin(
                id: try row.text("family_id"), clientID: try row.optionalText("client_id"),
                signedInAt: StorageEncoding.date(milliseconds: try row.integer("signed_in_at")),
                lastUsedAt: StorageEncoding.date(milliseconds: try row.integer("last_used_at")),
                origin: try Self.origin(from: row))
        }
    }

    package func endLogin(id: String, accountID: String, now: Date) throws -> Bool {
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection -> Bool in
            try lockAccount(accountID, using: connection)
            let live = try connection.query(
                """
                SELECT s.family_id FROM sessions s JOIN accounts a ON a.id = s.account_id
                WHERE s.account_id = ? AND s.family_id = ? AND \(Self.liveLoginCondition)
                """,
                [.text(accountID), .text(id), now, now])
            guard !live.isEmpty else { return false }
            try Self.revokeFamily(id, now: now, using: connection)
            return true
        }
    }

    /// What makes a login live, over `sessions s JOIN accounts a`, with two parameters for
    /// now: a token of it that is unused, unrevoked and unexpired, of the account's current
    /// credential version, the account active.
    private static var liveLoginCondition: String {
        """
        s.kind = 'refresh_family' AND s.used_at IS NULL AND s.revoked_at IS NULL AND s.expires_at > ? \
        AND s.absolute_expires_at > ? AND a.status = 'active' AND a.credential_version = s.credential_version
        """
    }

    /// Whether `login` may change its account at `now`: the account active with the login's
    /// credential version, and the login not revoked nor past its absolute expiry (what keeps
    /// its access tokens valid, ``SessionStore/liveFamily(familyID:now:)``). Run after
    /// ``lockAccount(_:using:)``.
    static func isLive(
        _ login: LoginReference, now: SQLValue, using connection: borrowing any SQLConnection & ~Copyable
    ) throws -> Bool {
        let rows = try connection.query(
            """
            SELECT s.family_id FROM sessions s JOIN accounts a ON a.id = s.account_id
            WHERE a.id = ? AND a.status = 'active' AND a.credential_version = ? AND s.credential_version = ?
              AND s.family_id = ? AND s.kind = 'refresh_family' AND s.revoked_at IS NULL AND s.absolute_expires_at > ?
            LIMIT 1
            """,
            [
                .text(login.accountID), .integer(Int64(login.credentialVersion)), .integer(Int64(login.credentialVersion)),
                .text(login.familyID), now,
            ])
        return !rows.isEmpty
    }
}

/// Thrown inside a transaction to undo what it did when the login turned out not to be live.
private struct LoginNotLive: Error {}
