import LatchkeyCore
import Foundation
import LatchkeyCrypto

extension SQLStore {
    package func createRefreshToken(
        digest: Data, accountID: String, familyID: String, clientID: String?, scope: [String], credentialVersion: Int,
        assurance: Assurance, origin: LoginOrigin, now: Date, idleExpiresAt: Date, absoluteExpiresAt: Date, liveFamilyLimit: Int
    ) throws -> RefreshTokenRecord? {
        let expiresAt = min(idleExpiresAt, absoluteExpiresAt)
        let inserted = try database.transaction { connection in
            // Conditional on the account as it is now, and the lock holds it so: a reset waits
            // for this insert and then revokes the token, or this waits for the reset and then
            // finds the credential version changed. Either way no live token is left. Logins
            // to one account queue on the lock, so each counts the families the others
            // started (the limit below).
            let inserted = try connection.execute(
                """
                INSERT INTO sessions (id, account_id, kind, token_digest, created_at, expires_at,
                                      family_id, client_id, scope, credential_version, absolute_expires_at, auth_time, amr,
                                      client_ip, user_agent)
                SELECT ?, id, 'refresh_family', ?, ?, ?, ?, ?, ?, credential_version, ?, ?, ?, ?, ?
                FROM accounts WHERE id = ? AND status = 'active' AND credential_version = ?
                \(database.dialect.updateLock(of: "accounts"))
                """,
                [
                    .text(SecureRandom.identifier(orderedAt: now)), .text(StorageEncoding.hex(digest)),
                    .integer(StorageEncoding.milliseconds(now)), .integer(StorageEncoding.milliseconds(expiresAt)),
                    .text(familyID), .text(clientID), .text(scope.joined(separator: " ")),
                    .integer(StorageEncoding.milliseconds(absoluteExpiresAt)),
                    .integer(StorageEncoding.milliseconds(assurance.authTime)), .text(assurance.storedMethods),
                    .text(origin.ip), .text(origin.userAgent), .text(accountID), .integer(Int64(credentialVersion)),
                ])
            if inserted == 1 {
                try Self.endLeastRecentlyUsedFamilies(of: accountID, keeping: liveFamilyLimit, now: now, using: connection)
            }
            return inserted
        }
        guard inserted == 1 else { return nil }
        return RefreshTokenRecord(
            digest: digest, accountID: accountID, familyID: familyID, clientID: clientID, scope: scope,
            credentialVersion: credentialVersion,
            assurance: Assurance(
                methods: assurance.methods,
                authTime: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(assurance.authTime))),
            origin: origin, createdAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(now)),
            expiresAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(expiresAt)),
            absoluteExpiresAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(absoluteExpiresAt)),
            browserSessionDigest: nil)
    }

    package func rotateRefreshToken(
        presentedDigest: Data, newDigest: Data, now: Date, idleTTL: TimeInterval, reuseGrace: TimeInterval,
        accepts: (RefreshTokenRecord) -> Bool
    ) throws -> RefreshTokenRotation {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        let presented = SQLValue.text(StorageEncoding.hex(presentedDigest))
        let successorDigest = SQLValue.text(StorageEncoding.hex(newDigest))
        return try database.transaction { connection -> RefreshTokenRotation in
            guard let presentedToken = try lockedRefreshToken(presented, using: connection) else { return .invalid }
            guard accepts(presentedToken) else { return .refused }
            // One conditional UPDATE: racing callers wait for the row lock and then find used_at set.
            let consumed = try connection.execute(
                """
                UPDATE sessions SET used_at = ?, successor_digest = ?
                WHERE token_digest = ? AND kind = 'refresh_family' AND used_at IS NULL AND revoked_at IS NULL
                  AND expires_at > ? AND absolute_expires_at > ?
                """,
                [nowValue, successorDigest, presented, nowValue, nowValue])
            if consumed == 0 {
                let known = try connection.query(
                    "SELECT used_at, revoked_at, successor_digest FROM sessions WHERE token_digest = ? AND kind = 'refresh_family'",
                    [presented])
                guard let row = known.first, let usedAt = try row.optionalInteger("used_at") else { return .invalid }
                guard try Self.replaceUnusedSuccessor(
                    of: row, presented: presented, newSuccessor: successorDigest, usedAt: usedAt, now: now, grace: reuseGrace,
                    using: connection)
                else {
                    try Self.endLogin(presentedToken.familyID, now: nowValue, using: connection)
                    return .reused
                }
            }
            let accounts = try connection.query(
                "SELECT \(Self.accountColumns) FROM accounts WHERE id = ? AND status = 'active' AND credential_version = ?",
                [.text(presentedToken.accountID), .integer(Int64(presentedToken.credentialVersion))])
            guard let accountRow = accounts.first else {
                try Self.revokeFamily(presentedToken.familyID, now: nowValue, using: connection)
                return .invalid
            }
            let account = try Self.account(from: accountRow)
            let successor = RefreshTokenRecord(
                digest: newDigest, accountID: account.id, familyID: presentedToken.familyID, clientID: presentedToken.clientID,
                scope: presentedToken.scope, credentialVersion: presentedToken.credentialVersion,
                assurance: presentedToken.assurance, origin: presentedToken.origin,
                createdAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(now)),
                expiresAt: StorageEncoding.date(
                    milliseconds: StorageEncoding.milliseconds(min(now.addingTimeInterval(idleTTL), presentedToken.absoluteExpiresAt))),
                absoluteExpiresAt: presentedToken.absoluteExpiresAt, browserSessionDigest: presentedToken.browserSessionDigest)
            try Self.insertRefreshToken(successor, using: connection)
            return .rotated(successor: successor, account: account)
        }
    }

    /// The reuse grace: a used token (`row`: its used_at, revoked_at, successor_digest) that was
    /// rotated less than `grace` seconds before `now`, is not revoked, and whose successor is
    /// still unused, unrevoked and unexpired, had its successor lost by the client (a failed
    /// save). That successor is marked used and revoked — so if it turns up after all (it was
    /// not lost but stolen, or the other copy was), that is reuse and ends the login — and
    /// `newSuccessor` is recorded in its place; true then. False for anything else, which is
    /// reuse. The successor is replaced by one conditional UPDATE, so of two retries racing,
    /// one gets the grace and the other is reuse.
    private static func replaceUnusedSuccessor(
        of row: any SQLRow, presented: SQLValue, newSuccessor: SQLValue, usedAt: Int64, now: Date, grace: TimeInterval,
        using connection: borrowing any SQLConnection & ~Copyable
    ) throws -> Bool {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        guard grace > 0, try row.optionalInteger("revoked_at") == nil,
            StorageEncoding.date(milliseconds: usedAt) > now.addingTimeInterval(-grace),
            let successor = try row.optionalText("successor_digest")
        else { return false }
        let revoked = try connection.execute(
            """
            UPDATE sessions SET used_at = ?, revoked_at = ?
            WHERE token_digest = ? AND kind = 'refresh_family' AND used_at IS NULL AND revoked_at IS NULL
              AND expires_at > ? AND absolute_expires_at > ?
            """,
            [nowValue, nowValue, .text(successor), nowValue, nowValue])
        guard revoked == 1 else { return false }
        try connection.execute(
            "UPDATE sessions SET successor_digest = ? WHERE token_digest = ? AND kind = 'refresh_family'", [newSuccessor, presented])
        return true
    }

    @discardableResult
    package func revokeFamily(containing digest: Data, now: Date, accepts: (RefreshTokenRecord) -> Bool) throws -> Bool {
        try database.transaction { connection in
            guard let token = try lockedRefreshToken(.text(StorageEncoding.hex(digest)), using: connection), accepts(token)
            else { return false }
            try Self.endLogin(token.familyID, now: .integer(StorageEncoding.milliseconds(now)), using: connection)
            return true
        }
    }

    /// The refresh token with the hex digest `digest`, in whatever state, with its account
    /// locked first, as every writer of its tokens does (see lockAccount): a racing reset
    /// or revocation then waits for the caller's change and revokes what it made (a
    /// rotation's successor too), or the caller waits for it and finds the credential
    /// version changed or the token revoked. Taken before the token row, so the two queue
    /// instead of deadlocking.
    func lockedRefreshToken(_ digest: SQLValue, using connection: borrowing any SQLConnection & ~Copyable) throws
        -> RefreshTokenRecord?
    {
        let rows = try connection.query(
            """
            SELECT \(Self.refreshTokenColumns)
            FROM accounts a JOIN sessions s ON s.account_id = a.id
            WHERE s.token_digest = ? AND s.kind = 'refresh_family'
            \(database.dialect.updateLock(of: "a"))
            """,
            [digest])
        return try rows.first.map(Self.refreshToken(from:))
    }

    package func usableRefreshToken(digest: Data, now: Date) throws -> (token: RefreshTokenRecord, account: Account)? {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT s.token_digest, s.account_id, s.family_id, s.client_id, s.scope, s.credential_version,
                       s.auth_time, s.amr, s.client_ip, s.user_agent, s.created_at AS token_created_at, s.expires_at,
                       s.absolute_expires_at, s.browser_session_digest,
                       a.id, a.email, a.password_hash, a.status, a.locale, a.failure_epoch, a.created_at
                FROM sessions s JOIN accounts a ON a.id = s.account_id
                WHERE s.token_digest = ? AND s.kind = 'refresh_family' AND s.used_at IS NULL AND s.revoked_at IS NULL
                  AND s.expires_at > ? AND s.absolute_expires_at > ?
                  AND a.status = 'active' AND a.credential_version = s.credential_version
                """,
                [.text(StorageEncoding.hex(digest)), nowValue, nowValue])
        }
        guard let row = rows.first else { return nil }
        let token = RefreshTokenRecord(
            digest: digest, accountID: try row.text("account_id"), familyID: try row.text("family_id"),
            clientID: try row.optionalText("client_id"),
            scope: (try row.optionalText("scope") ?? "").split(separator: " ").map(String.init),
            credentialVersion: Int(try row.integer("credential_version")), assurance: try Self.assurance(from: row),
            origin: try Self.origin(from: row), createdAt: StorageEncoding.date(milliseconds: try row.integer("token_created_at")),
            expiresAt: StorageEncoding.date(milliseconds: try row.integer("expires_at")),
            absoluteExpiresAt: StorageEncoding.date(milliseconds: try row.integer("absolute_expires_at")),
            browserSessionDigest: try Self.browserSessionDigest(from: row))
        return (token, try Self.account(from: row))
    }

    package func liveFamily(familyID: String, now: Date) throws -> (account: Account, assurance: Assurance)? {
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT a.id, a.email, a.password_hash, a.status, a.credential_version, a.locale, a.failure_epoch, a.created_at,
                       s.auth_time, s.amr
                FROM accounts a JOIN sessions s ON s.account_id = a.id
                WHERE s.family_id = ? AND s.kind = 'refresh_family' AND s.revoked_at IS NULL AND s.absolute_expires_at > ?
                  AND a.status = 'active' AND s.credential_version = a.credential_version
                LIMIT 1
                """,
                [.text(familyID), .integer(StorageEncoding.milliseconds(now))])
        }
        guard let row = rows.first else { return nil }
        return (try Self.account(from: row), try Self.assurance(from: row))
    }

    package func revokeFamily(id familyID: String, now: Date) throws {
        try database.transaction { connection in
            // The account first, as every writer of its tokens does (see lockAccount): a
            // rotation running now commits first, and its successor is revoked too.
            _ = try connection.query(
                """
                SELECT a.id FROM accounts a JOIN sessions s ON s.account_id = a.id
                WHERE s.family_id = ? AND s.kind = 'refresh_family'
                \(database.dialect.updateLock(of: "a"))
                """,
                [.text(familyID)])
            try Self.endLogin(familyID, now: .integer(StorageEncoding.milliseconds(now)), using: connection)
        }
    }

    /// Revokes the account's live families (those holding an unused, unrevoked, unexpired
    /// token) beyond the `keeping` most recently used (by their live token's issue time).
    static func endLeastRecentlyUsedFamilies(
        of accountID: String, keeping limit: Int, now: Date, using connection: borrowing any SQLConnection & ~Copyable
    ) throws {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        let live = try connection.query(
            """
            SELECT family_id FROM sessions
            WHERE account_id = ? AND kind = 'refresh_family' AND used_at IS NULL AND revoked_at IS NULL
              AND expires_at > ? AND absolute_expires_at > ?
            ORDER BY created_at DESC, family_id
            """,
            [.text(accountID), nowValue, nowValue])
        for row in live.dropFirst(max(limit, 1)) {
            try revokeFamily(try row.text("family_id"), now: nowValue, using: connection)
        }
    }

    /// Inserts `token` as a live refresh token.
    static func insertRefreshToken(_ token: RefreshTokenRecord, using connection: borrowing any SQLConnection & ~Copyable) throws {
        try connection.execute(
            """
            INSERT INTO sessions (id, account_id, kind, token_digest, created_at, expires_at,
                                  family_id, client_id, scope, credential_version, absolute_expires_at, auth_time, amr,
                                  client_ip, user_agent, browser_session_digest)
            VALUES (?, ?, 'refresh_family', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(SecureRandom.identifier(orderedAt: token.createdAt)), .text(token.accountID),
                .text(StorageEncoding.hex(token.digest)),
                .integer(StorageEncoding.milliseconds(token.createdAt)), .integer(StorageEncoding.milliseconds(token.expiresAt)),
                .text(token.familyID), .text(token.clientID), .text(token.scope.joined(separator: " ")),
                .integer(Int64(token.credentialVersion)), .integer(StorageEncoding.milliseconds(token.absoluteExpiresAt)),
                .integer(StorageEncoding.milliseconds(token.assurance.authTime)), .text(token.assurance.storedMethods),
                .text(token.origin.ip), .text(token.origin.userAgent), .text(token.browserSessionDigest.map(StorageEncoding.hex)),
            ])
    }

    /// The columns ``refreshToken(from:)`` reads, of the `sessions` table aliased `s`.
    static var refreshTokenColumns: String {
        """
        s.token_digest, s.account_id, s.family_id, s.client_id, s.scope, s.credential_version, s.auth_time, s.amr, \
        s.client_ip, s.user_agent, s.created_at, s.expires_at, s.absolute_expires_at, s.browser_session_digest
        """
    }

    /// The refresh token in a row holding ``refreshTokenColumns``.
    static func refreshToken(from row: any SQLRow) throws -> RefreshTokenRecord {
        RefreshTokenRecord(
            digest: try StorageEncoding.bytes(hex: try row.text("token_digest")), accountID: try row.text("account_id"),
            familyID: try row.text("family_id"), clientID: try row.optionalText("client_id"),
            scope: (try row.optionalText("scope") ?? "").split(separator: " ").map(String.init),
            credentialVersion: Int(try row.integer("credential_version")), assurance: try assurance(from: row),
            origin: try origin(from: row), createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")),
            expiresAt: StorageEncoding.date(milliseconds: try row.integer("expires_at")),
            absoluteExpiresAt: StorageEncoding.date(milliseconds: try row.integer("absolute_expires_at")),
            browserSessionDigest: try browserSessionDigest(from: row))
    }

    /// The browser session a login records, in a row holding its `browser_session_digest`.
    static func browserSessionDigest(from row: any SQLRow) throws -> Data? {
        try row.optionalText("browser_session_digest").map(StorageEncoding.bytes(hex:))
    }

    /// The assurance of a login in a row holding its `auth_time` and `amr`; a login started
    /// before they were kept signed in with the password at an unknown time, read as long ago.
    static func assurance(from row: any SQLRow) throws -> Assurance {
        Assurance(
            storedMethods: try row.optionalText("amr"),
            authTime: StorageEncoding.date(milliseconds: try row.optionalInteger("auth_time") ?? 0))
    }

    /// The origin of a login in a row holding its `client_ip` and `user_agent`.
    static func origin(from row: any SQLRow) throws -> LoginOrigin {
        LoginOrigin(ip: try row.optionalText("client_ip"), userAgent: try row.optionalText("user_agent"))
    }

    /// Ends the login `familyID` as a sign-out or a theft does: revokes every live token of the
    /// family and ends the browser session whose sign-in started it (the one its tokens record),
    /// so the browser that signed in for it asks for the password again.
    static func endLogin(_ familyID: String, now: SQLValue, using connection: borrowing any SQLConnection & ~Copyable) throws {
        try connection.execute(
            """
            UPDATE sessions SET revoked_at = ?
            WHERE kind = 'browser' AND revoked_at IS NULL AND token_digest IN (
                SELECT browser_session_digest FROM sessions
                WHERE family_id = ? AND kind = 'refresh_family' AND browser_session_digest IS NOT NULL)
            """,
            [now, .text(familyID)])
        try revokeFamily(familyID, now: now, using: connection)
    }

    /// Revokes every live token of the family `familyID`, and nothing else: a login ended for
    /// being one too many of the account's, or whose account changed (its browser sessions
    /// already do not count).
    static func revokeFamily(_ familyID: String, now: SQLValue, using connection: borrowing any SQLConnection & ~Copyable) throws {
        try connection.execute(
            "UPDATE sessions SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL", [now, .text(familyID)])
    }
}
