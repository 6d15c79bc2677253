import LatchkeyCore
import Foundation

extension SQLStore {
    package func createRefreshToken(
        digest: Data, accountID: String, familyID: String, clientID: String?, scope: [String], credentialVersion: Int,
        now: Date, idleExpiresAt: Date, absoluteExpiresAt: Date
    ) throws -> RefreshTokenRecord? {
        let expiresAt = min(idleExpiresAt, absoluteExpiresAt)
        let inserted = try database.transaction { connection in
            // Conditional on the account as it is now, and the share lock holds it so: a reset
            // waits for this insert and then revokes the token, or this waits for the reset
            // and then finds the credential version changed. Either way no live token is left.
            try connection.execute(
                """
                INSERT INTO sessions (id, account_id, kind, token_digest, created_at, expires_at,
                                      family_id, client_id, scope, credential_version, absolute_expires_at)
                SELECT ?, id, 'refresh_family', ?, ?, ?, ?, ?, ?, credential_version, ?
                FROM accounts WHERE id = ? AND status = 'active' AND credential_version = ?
                \(database.dialect.shareLock(of: "accounts"))
                """,
                [
                    .text(UUID().uuidString.lowercased()), .text(StorageEncoding.hex(digest)),
                    .integer(StorageEncoding.milliseconds(now)), .integer(StorageEncoding.milliseconds(expiresAt)),
                    .text(familyID), .text(clientID), .text(scope.joined(separator: " ")),
                    .integer(StorageEncoding.milliseconds(absoluteExpiresAt)), .text(accountID),
                    .integer(Int64(credentialVersion)),
                ])
        }
        guard inserted == 1 else { return nil }
        return RefreshTokenRecord(
            digest: digest, accountID: accountID, familyID: familyID, clientID: clientID, scope: scope,
            credentialVersion: credentialVersion, createdAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(now)),
            expiresAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(expiresAt)),
            absoluteExpiresAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(absoluteExpiresAt)))
    }

    package func rotateRefreshToken(presentedDigest: Data, newDigest: Data, now: Date, idleTTL: TimeInterval) throws
        -> RefreshTokenRotation
    {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        let presented = SQLValue.text(StorageEncoding.hex(presentedDigest))
        return try database.transaction { connection -> RefreshTokenRotation in
            // The account first, locked for share as in createRefreshToken: a racing reset then waits
            // for this rotation and revokes its successor, or this waits for the reset and
            // finds the credential version changed. Taken before the token row, as every
            // writer does (see lockAccount), so the two queue instead of deadlocking.
            let owner = try connection.query(
                """
                SELECT a.id FROM accounts a JOIN sessions s ON s.account_id = a.id
                WHERE s.token_digest = ? AND s.kind = 'refresh_family'
                \(database.dialect.shareLock(of: "a"))
                """,
                [presented])
            guard !owner.isEmpty else { return .invalid }
            // One conditional UPDATE: racing callers wait for the row lock and then find used_at set.
            let consumed = try connection.query(
                """
                UPDATE sessions SET used_at = ?
                WHERE token_digest = ? AND kind = 'refresh_family' AND used_at IS NULL AND revoked_at IS NULL
                  AND expires_at > ? AND absolute_expires_at > ?
                RETURNING account_id, family_id, client_id, scope, credential_version, absolute_expires_at
                """,
                [nowValue, presented, nowValue, nowValue])
            guard let token = consumed.first else {
                let known = try connection.query(
                    "SELECT family_id, used_at FROM sessions WHERE token_digest = ? AND kind = 'refresh_family'",
                    [presented])
                guard let row = known.first, try row.optionalInteger("used_at") != nil else { return .invalid }
                try Self.revokeFamily(try row.text("family_id"), now: nowValue, using: connection)
                return .reused
            }
            let familyID = try token.text("family_id")
            let credentialVersion = try token.integer("credential_version")
            let accounts = try connection.query(
                "SELECT \(Self.accountColumns) FROM accounts WHERE id = ? AND status = 'active' AND credential_version = ?",
                [.text(try token.text("account_id")), .integer(credentialVersion)])
            guard let accountRow = accounts.first else {
                try Self.revokeFamily(familyID, now: nowValue, using: connection)
                return .invalid
            }
            let account = try Self.account(from: accountRow)
            let absoluteExpiresAt = StorageEncoding.date(milliseconds: try token.integer("absolute_expires_at"))
            let expiresAt = min(now.addingTimeInterval(idleTTL), absoluteExpiresAt)
            let clientID = try token.optionalText("client_id")
            let scope = try token.optionalText("scope") ?? ""
            let successor = RefreshTokenRecord(
                digest: newDigest, accountID: account.id, familyID: familyID, clientID: clientID,
                scope: scope.split(separator: " ").map(String.init), credentialVersion: Int(credentialVersion),
                createdAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(now)),
                expiresAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(expiresAt)),
                absoluteExpiresAt: absoluteExpiresAt)
            try Self.insertRefreshToken(successor, using: connection)
            return .rotated(successor: successor, account: account)
        }
    }

    @discardableResult
    package func revokeFamily(containing digest: Data, now: Date) throws -> Bool {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection in
            // The account first, as every writer of its tokens does (see lockAccount).
            let known = try connection.query(
                """
                SELECT s.family_id FROM sessions s JOIN accounts a ON a.id = s.account_id
                WHERE s.token_digest = ? AND s.kind = 'refresh_family'
                \(database.dialect.shareLock(of: "a"))
                """,
                [.text(StorageEncoding.hex(digest))])
            guard let familyID = try known.first?.text("family_id") else { return false }
            try Self.revokeFamily(familyID, now: nowValue, using: connection)
            return true
        }
    }

    /// Inserts `token` as a live refresh token.
    static func insertRefreshToken(_ token: RefreshTokenRecord, using connection: borrowing any SQLConnection & ~Copyable) throws {
        try connection.execute(
            """
            INSERT INTO sessions (id, account_id, kind, token_digest, created_at, expires_at,
                                  family_id, client_id, scope, credential_version, absolute_expires_at)
            VALUES (?, ?, 'refresh_family', ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(UUID().uuidString.lowercased()), .text(token.accountID), .text(StorageEncoding.hex(token.digest)),
                .integer(StorageEncoding.milliseconds(token.createdAt)), .integer(StorageEncoding.milliseconds(token.expiresAt)),
                .text(token.familyID), .text(token.clientID), .text(token.scope.joined(separator: " ")),
                .integer(Int64(token.credentialVersion)), .integer(StorageEncoding.milliseconds(token.absoluteExpiresAt)),
            ])
    }

    /// The columns ``refreshToken(from:)`` reads.
    static var refreshTokenColumns: String {
        "token_digest, account_id, family_id, client_id, scope, credential_version, created_at, expires_at, absolute_expires_at"
    }

    /// The refresh token in a row holding ``refreshTokenColumns``.
    static func refreshToken(from row: any SQLRow) throws -> RefreshTokenRecord {
        RefreshTokenRecord(
            digest: try StorageEncoding.bytes(hex: try row.text("token_digest")), accountID: try row.text("account_id"),
            familyID: try row.text("family_id"), clientID: try row.optionalText("client_id"),
            scope: (try row.optionalText("scope") ?? "").split(separator: " ").map(String.init),
            credentialVersion: Int(try row.integer("credential_version")),
            createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")),
            expiresAt: StorageEncoding.date(milliseconds: try row.integer("expires_at")),
            absoluteExpiresAt: StorageEncoding.date(milliseconds: try row.integer("absolute_expires_at")))
    }

    /// Revokes every live token of the family `familyID`.
    static func revokeFamily(_ familyID: String, now: SQLValue, using connection: borrowing any SQLConnection & ~Copyable) throws {
        try connection.execute(
            "UPDATE sessions SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL", [now, .text(familyID)])
    }
}
