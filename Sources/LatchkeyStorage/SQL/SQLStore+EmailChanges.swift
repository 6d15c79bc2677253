import LatchkeyCore
import Foundation

extension SQLStore {
    package func requestEmailChange(
        login: LoginReference, confirmation: EmailChangeToken?, mail: MailMessage, now: Date
    ) throws -> Bool {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection -> Bool in
            try lockAccount(login.accountID, using: connection)
            guard try Self.isLive(login, now: nowValue, using: connection) else { return false }
            if let confirmation {
                let current = try connection.query("SELECT email FROM accounts WHERE id = ?", [.text(login.accountID)])
                guard try current.first?.text("email") == confirmation.oldEmail else { return false }
            }
            // The latest request is the one that counts.
            try Self.supersedeEmailChanges(of: login.accountID, kind: .confirm, now: nowValue, using: connection)
            if let confirmation {
                try Self.insertEmailChange(confirmation, using: connection)
            }
            try Self.insertMail(mail, sealedBy: mailBox, now: nowValue, using: connection)
            return true
        }
    }

    package func confirmEmailChange(
        digest: Data, undo: (digest: Data, expiresAt: Date), now: Date,
        notification: (EmailChangeToken, Account) throws -> MailMessage
    ) throws -> Account? {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        let digestValue = SQLValue.text(StorageEncoding.hex(digest))
        return try database.transaction { connection -> Account? in
            let found = try connection.query(
                "SELECT account_id, new_email FROM email_change_tokens WHERE token_digest = ? AND kind = 'confirm'", [digestValue])
            guard let row = found.first else { return nil }
            let accountID = try row.text("account_id")
            // The address the change takes, then the account (as a new account's creation
            // takes the address): the check below that it is free holds until the commit.
            try lockAddress(try row.text("new_email"), using: connection)
            try lockAccount(accountID, using: connection)
            // One conditional UPDATE: racing callers wait for the row lock and then find used_at set.
            let consumed = try connection.query(
                """
                UPDATE email_change_tokens SET used_at = ?
                WHERE token_digest = ? AND kind = 'confirm' AND used_at IS NULL AND superseded_at IS NULL AND expires_at > ?
                RETURNING \(Self.emailChangeColumns)
                """,
                [nowValue, digestValue, nowValue])
            guard let consumedRow = consumed.first else { return nil }
            let confirmed = try Self.emailChange(from: consumedRow, digest: digest)
            let updated = try connection.query(
                """
                UPDATE accounts SET email = ?, updated_at = ?
                WHERE id = ? AND email = ? AND status = 'active'
                  AND NOT EXISTS (SELECT 1 FROM accounts AS other WHERE other.email = ?)
                RETURNING \(Self.accountColumns)
                """,
                [.text(confirmed.newEmail), nowValue, .text(accountID), .text(confirmed.oldEmail), .text(confirmed.newEmail)])
            // The token stays spent: its account moved on, or the address was taken meanwhile.
            guard let accountRow = updated.first else { return nil }
            let account = try Self.account(from: accountRow)
            try Self.supersedeEmailChanges(of: accountID, kind: .confirm, now: nowValue, using: connection)
            try Self.insertEmailChange(
                EmailChangeToken(
                    digest: undo.digest, kind: .undo, accountID: accountID, oldEmail: confirmed.oldEmail,
                    newEmail: confirmed.newEmail, createdAt: now, expiresAt: undo.expiresAt),
                using: connection)
            try Self.insertMail(try notification(confirmed, account), sealedBy: mailBox, now: nowValue, using: connection)
            return account
        }
    }

    package func undoEmailChange(digest: Data, now: Date) throws -> Account? {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        let digestValue = SQLValue.text(StorageEncoding.hex(digest))
        return try database.transaction { connection -> Account? in
            let found = try connection.query(
                "SELECT account_id, old_email FROM email_change_tokens WHERE token_digest = ? AND kind = 'undo'", [digestValue])
            guard let row = found.first else { return nil }
            let accountID = try row.text("account_id")
            let oldEmail = try row.text("old_email")
            try lockAddress(oldEmail, using: connection)
            try lockAccount(accountID, using: connection)
            // The old address must be free (or already this account's again); checked before
            // the token is spent, so a refused undo changes nothing.
            let holders = try connection.query("SELECT id FROM accounts WHERE email = ?", [.text(oldEmail)])
            guard try holders.allSatisfy({ try $0.text("id") == accountID }) else { return nil }
            let consumed = try connection.query(
                """
                UPDATE email_change_tokens SET used_at = ?
                WHERE token_digest = ? AND kind = 'undo' AND used_at IS NULL AND superseded_at IS NULL AND expires_at > ?
                RETURNING \(Self.emailChangeColumns)
                """,
                [nowValue, digestValue, nowValue])
            guard let consumedRow = consumed.first else { return nil }
            let undone = try Self.emailChange(from: consumedRow, digest: digest)
            let updated = try connection.query(
                """
                UPDATE accounts SET email = ?, credential_version = credential_version + 1, updated_at = ?
                WHERE id = ?
                RETURNING \(Self.accountColumns)
                """,
                [.text(oldEmail), nowValue, .text(accountID)])
            guard let accountRow = updated.first else {
                throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "address change without account")
            }
            try Self.endTokens(ofAccount: accountID, now: nowValue, using: connection)
            try Self.supersedeEmailChanges(of: accountID, kind: .confirm, now: nowValue, using: connection)
            // The changes after this one are undone with it; an earlier change's undo stays.
            try connection.execute(
                """
                UPDATE email_change_tokens SET superseded_at = ?
                WHERE account_id = ? AND kind = 'undo' AND used_at IS NULL AND superseded_at IS NULL AND created_at >= ?
                """,
                [nowValue, .text(accountID), .integer(StorageEncoding.milliseconds(undone.createdAt))])
            return try Self.account(from: accountRow)
        }
    }

    /// The columns ``emailChange(from:digest:)`` reads.
    private static var emailChangeColumns: String { "kind, account_id, old_email, new_email, created_at, expires_at" }

    /// The token with `digest` in a row holding ``emailChangeColumns``.
    private static func emailChange(from row: any SQLRow, digest: Data) throws -> EmailChangeToken {
        let kindText = try row.text("kind")
        guard let kind = EmailChangeToken.Kind(rawValue: kindText) else {
            throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "address change kind \(kindText)")
        }
        return EmailChangeToken(
            digest: digest, kind: kind, accountID: try row.text("account_id"), oldEmail: try row.text("old_email"),
            newEmail: try row.text("new_email"), createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")),
            expiresAt: StorageEncoding.date(milliseconds: try row.integer("expires_at")))
    }

    private static func insertEmailChange(_ token: EmailChangeToken, using connection: borrowing any SQLConnection & ~Copyable) throws {
        try connection.execute(
            """
            INSERT INTO email_change_tokens (token_digest, kind, account_id, old_email, new_email, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(StorageEncoding.hex(token.digest)), .text(token.kind.rawValue), .text(token.accountID),
                .text(token.oldEmail), .text(token.newEmail), .integer(StorageEncoding.milliseconds(token.createdAt)),
                .integer(StorageEncoding.milliseconds(token.expiresAt)),
            ])
    }

    /// Marks every usable token of `kind` of the account superseded.
    private static func supersedeEmailChanges(
        of accountID: String, kind: EmailChangeToken.Kind, now: SQLValue, using connection: borrowing any SQLConnection & ~Copyable
    ) throws {
        try connection.execute(
            """
            UPDATE email_change_tokens SET superseded_at = ?
            WHERE account_id = ? AND kind = ? AND used_at IS NULL AND superseded_at IS NULL
            """,
            [now, .text(accountID), .text(kind.rawValue)])
    }
}
