import LatchkeyCore
import Foundation
import LatchkeyCrypto

extension SQLStore {
    package func createAuthorizationCode(_ code: AuthorizationCodeRecord) throws {
        _ = try database.transaction { connection in
            try connection.execute(
                """
                INSERT INTO authorization_codes (code_digest, client_id, account_id, redirect_uri, code_challenge, scope,
                                                 nonce, credential_version, auth_time, amr, created_at, expires_at,
                                                 browser_session_digest)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(StorageEncoding.hex(code.digest)), .text(code.clientID), .text(code.accountID),
                    .text(code.redirectURI), .text(code.codeChallenge), .text(code.scope.joined(separator: " ")),
                    .text(code.nonce), .integer(Int64(code.credentialVersion)),
                    .integer(StorageEncoding.milliseconds(code.assurance.authTime)), .text(code.assurance.storedMethods),
                    .integer(StorageEncoding.milliseconds(code.createdAt)),
                    .integer(StorageEncoding.milliseconds(code.expiresAt)),
                    .text(code.browserSessionDigest.map(StorageEncoding.hex)),
                ])
        }
    }

    package func redeemAuthorizationCode(
        digest: Data, now: Date, refreshToken: InitialRefreshToken, accepts: (AuthorizationCodeRecord) -> Bool
    ) throws -> AuthorizationCodeRedemption {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        let digestValue = SQLValue.text(StorageEncoding.hex(digest))
        return try database.transaction { connection -> AuthorizationCodeRedemption in
            // The account first, locked as every writer of its tokens does (see lockAccount):
            // a racing reset then waits for this redemption and revokes what it issued, or this
            // waits for the reset and finds the credential version changed.
            let owner = try connection.query(
                """
                SELECT a.id FROM accounts a JOIN authorization_codes c ON c.account_id = a.id
                WHERE c.code_digest = ?
                \(database.dialect.updateLock(of: "a"))
                """,
                [digestValue])
            guard !owner.isEmpty else { return .invalid }
            // One conditional UPDATE: racing redeemers wait for the row lock and then find used_at set.
            let consumed = try connection.query(
                """
                UPDATE authorization_codes SET used_at = ?, family_id = ?
                WHERE code_digest = ? AND used_at IS NULL AND expires_at > ?
                RETURNING client_id, account_id, redirect_uri, code_challenge, scope, nonce, credential_version,
                          auth_time, amr, created_at, expires_at, browser_session_digest
                """,
                [nowValue, .text(refreshToken.familyID), digestValue, nowValue])
            guard let row = consumed.first else {
                let known = try connection.query(
                    "SELECT family_id, used_at FROM authorization_codes WHERE code_digest = ?", [digestValue])
                guard let previous = known.first, try previous.optionalInteger("used_at") != nil else { return .invalid }
                if let familyID = try previous.optionalText("family_id") {
                    try Self.endLogin(familyID, now: nowValue, using: connection)
                }
                return .replayed
            }
            let code = AuthorizationCodeRecord(
                digest: digest, clientID: try row.text("client_id"), accountID: try row.text("account_id"),
                redirectURI: try row.text("redirect_uri"), codeChallenge: try row.text("code_challenge"),
                scope: try row.text("scope").split(separator: " ").map(String.init), nonce: try row.optionalText("nonce"),
                credentialVersion: Int(try row.integer("credential_version")),
                assurance: Assurance(
                    storedMethods: try row.optionalText("amr"),
                    authTime: StorageEncoding.date(milliseconds: try row.integer("auth_time"))),
                createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")),
                expiresAt: StorageEncoding.date(milliseconds: try row.integer("expires_at")),
                browserSessionDigest: try row.optionalText("browser_session_digest").map(StorageEncoding.bytes(hex:)))
            guard accepts(code) else {
                try connection.execute("UPDATE authorization_codes SET family_id = NULL WHERE code_digest = ?", [digestValue])
                return .rejected
            }
            let accounts = try connection.query(
                "SELECT \(Self.accountColumns) FROM accounts WHERE id = ? AND status = 'active' AND credential_version = ?",
                [.text(code.accountID), .integer(Int64(code.credentialVersion))])
            guard let accountRow = accounts.first else { return .invalid }
            let account = try Self.account(from: accountRow)
            let token = RefreshTokenRecord(
                digest: refreshToken.digest, accountID: account.id, familyID: refreshToken.familyID,
                clientID: code.clientID, scope: code.scope, credentialVersion: code.credentialVersion, assurance: code.assurance,
                origin: refreshToken.origin, createdAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(now)),
                expiresAt: StorageEncoding.date(
                    milliseconds: StorageEncoding.milliseconds(min(refreshToken.idleExpiresAt, refreshToken.absoluteExpiresAt))),
                absoluteExpiresAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(refreshToken.absoluteExpiresAt)),
                browserSessionDigest: code.browserSessionDigest)
            try Self.insertRefreshToken(token, using: connection)
            try Self.endLeastRecentlyUsedFamilies(
                of: account.id, keeping: refreshToken.liveFamilyLimit, now: now, using: connection)
            return .redeemed(code: code, account: account, refreshToken: token)
        }
    }

    package func createBrowserSession(
        digest: Data, accountID: String, credentialVersion: Int, assurance: Assurance, now: Date, expiresAt: Date,
        keeping limit: Int
    ) throws -> Bool {
        try database.transaction { connection in
            let id = SecureRandom.identifier()
            let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
            // The account locked, as for refresh tokens: a racing reset either revokes this session or makes it not be created.
            let inserted = try connection.execute(
                """
                INSERT INTO sessions (id, account_id, kind, token_digest, created_at, expires_at, credential_version,
                                      auth_time, amr)
                SELECT ?, id, 'browser', ?, ?, ?, credential_version, ?, ?
                FROM accounts WHERE id = ? AND status = 'active' AND credential_version = ?
                \(database.dialect.updateLock(of: "accounts"))
                """,
                [
                    .text(id), .text(StorageEncoding.hex(digest)), nowValue, .integer(StorageEncoding.milliseconds(expiresAt)),
                    .integer(StorageEncoding.milliseconds(assurance.authTime)), .text(assurance.storedMethods),
                    .text(accountID), .integer(Int64(credentialVersion)),
                ])
            guard inserted == 1 else { return false }
            // This one stays; of the others, the limit's remainder most recently started.
            let others = try connection.query(
                """
                SELECT id FROM sessions
                WHERE account_id = ? AND kind = 'browser' AND revoked_at IS NULL AND expires_at > ? AND id <> ?
                ORDER BY created_at DESC, id
                """,
                [.text(accountID), nowValue, .text(id)])
            for row in others.dropFirst(max(limit, 1) - 1) {
                try connection.execute("UPDATE sessions SET revoked_at = ? WHERE id = ?", [nowValue, .text(try row.text("id"))])
            }
            return true
        }
    }

    package func touchBrowserSession(digest: Data, now: Date, idleExpiresAt: Date, absoluteLifetime: TimeInterval) throws {
        let idle = SQLValue.integer(StorageEncoding.milliseconds(idleExpiresAt))
        let lifetime = SQLValue.integer(Int64(absoluteLifetime * 1000))
        try database.transaction { connection in
            // The later of the two never wins: an idle expiry beyond the absolute one is cut to it.
            _ = try connection.execute(
                """
                UPDATE sessions SET expires_at = CASE WHEN created_at + ? < ? THEN created_at + ? ELSE ? END
                WHERE token_digest = ? AND kind = 'browser' AND revoked_at IS NULL AND expires_at > ?
                """,
                [lifetime, idle, lifetime, idle, .text(StorageEncoding.hex(digest)), .integer(StorageEncoding.milliseconds(now))])
        }
    }

    package func endBrowserSession(digest: Data, now: Date) throws -> Bool {
        try database.transaction { connection in
            try connection.execute(
                "UPDATE sessions SET revoked_at = ? WHERE token_digest = ? AND kind = 'browser' AND revoked_at IS NULL",
                [.integer(StorageEncoding.milliseconds(now)), .text(StorageEncoding.hex(digest))])
        } > 0
    }

    package func browserSession(digest: Data, now: Date) throws -> BrowserSession? {
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT COALESCE(s.auth_time, s.created_at) AS auth_time, s.amr, a.id, a.email, a.password_hash, a.status, a.credential_version,
                       a.locale, a.failure_epoch, a.created_at
                FROM sessions s JOIN accounts a ON a.id = s.account_id
                WHERE s.token_digest = ? AND s.kind = 'browser' AND s.revoked_at IS NULL AND s.expires_at > ?
                  AND a.status = 'active' AND a.credential_version = s.credential_version
                """,
                [.text(StorageEncoding.hex(digest)), .integer(StorageEncoding.milliseconds(now))])
        }
        guard let row = rows.first else { return nil }
        return BrowserSession(
            account: try Self.account(from: row),
            assurance: Assurance(
                storedMethods: try row.optionalText("amr"), authTime: StorageEncoding.date(milliseconds: try row.integer("auth_time"))),
            cookieDigest: digest)
    }
}
