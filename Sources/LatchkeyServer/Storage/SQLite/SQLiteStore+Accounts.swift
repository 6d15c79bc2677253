public import Foundation

extension SQLiteStore: AccountStore {
    /// The columns ``account(from:)`` reads, for `SELECT` and `RETURNING` lists.
    static let accountColumns = "id, email, password_hash, status, credential_version, locale, created_at"

    public func createAccount(_ account: Account) throws {
        let createdAt = SQLiteValue.integer(StorageEncoding.milliseconds(account.createdAt))
        try database.transaction { connection in
            // Checked inside the write transaction, so no other writer can take the email in between.
            let taken = try connection.query("SELECT 1 AS taken FROM accounts WHERE email = ?", [.text(account.email)])
            guard taken.isEmpty else {
                throw LatchkeyError(.accountExists, "An account with this email already exists.")
            }
            try connection.execute(
                """
                INSERT INTO accounts (id, email, password_hash, status, credential_version, locale, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(account.id), .text(account.email), .text(account.passwordHash),
                    .text(account.status.rawValue), .integer(Int64(account.credentialVersion)),
                    .text(account.locale), createdAt, createdAt,
                ])
        }
    }

    public func account(email: String) throws -> Account? {
        try accounts(where: "email = ?", [.text(email)]).first
    }

    public func account(id: String) throws -> Account? {
        try accounts(where: "id = ?", [.text(id)]).first
    }

    public func allAccounts() throws -> [Account] {
        try accounts(where: "1 = 1", [])
    }

    public func setStatus(_ status: Account.Status, email: String) throws -> Bool {
        let changed = try database.withConnection { connection in
            try connection.execute(
                "UPDATE accounts SET status = ?, updated_at = ? WHERE email = ?",
                [.text(status.rawValue), .integer(StorageEncoding.milliseconds(clock.now())), .text(email)])
        }
        return changed > 0
    }

    public func rehashPassword(accountID: String, currentHash: String, newHash: String, now: Date) throws -> Bool {
        let changed = try database.withConnection { connection in
            try connection.execute(
                "UPDATE accounts SET password_hash = ?, updated_at = ? WHERE id = ? AND password_hash = ?",
                [.text(newHash), .integer(StorageEncoding.milliseconds(now)), .text(accountID), .text(currentHash)])
        }
        return changed > 0
    }

    /// The accounts matching `condition`, oldest first.
    private func accounts(where condition: String, _ values: [SQLiteValue]) throws -> [Account] {
        let rows = try database.withConnection { connection in
            try connection.query(
                "SELECT \(Self.accountColumns) FROM accounts WHERE \(condition) ORDER BY created_at, id", values)
        }
        return try rows.map(Self.account(from:))
    }

    /// The account in a row holding ``accountColumns``.
    static func account(from row: SQLiteRow) throws -> Account {
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
            createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")))
    }
}
