package import Foundation

/// A reset token as stored: only the SHA-256 digest of the token, never the token.
package struct ResetTokenRecord: Sendable, Equatable {
    /// SHA-256 of the token's bytes as sent (the base64url string's UTF-8).
    package let digest: Data
    /// The account the token resets.
    package let accountID: String
    /// When it was issued.
    package let createdAt: Date
    /// When it stops working.
    package let expiresAt: Date

    /// Creates a record value.
    package init(digest: Data, accountID: String, createdAt: Date, expiresAt: Date) {
        self.digest = digest
        self.accountID = accountID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// Accounts: creation, lookup, listing, status.
package protocol AccountStore: Sendable {
    /// Inserts a new account. Throws `account_exists` when the email is taken.
    func createAccount(_ account: Account) throws
    /// The account with this normalised email, if any.
    func account(email: String) throws -> Account?
    /// The account with this id, if any.
    func account(id: String) throws -> Account?
    /// Every account, oldest first.
    func allAccounts() throws -> [Account]
    /// Sets the status of the account with this email; false when there is none.
    func setStatus(_ status: Account.Status, email: String) throws -> Bool
    /// Replaces the account's password hash with `newHash` (the same password, hashed with
    /// newer parameters) only if it is still `currentHash`, so it never undoes a concurrent
    /// reset; the credential version is unchanged. Returns whether it was replaced.
    func rehashPassword(accountID: String, currentHash: String, newHash: String, now: Date) throws -> Bool
}

/// Reset tokens, each change made atomically together with the mail it causes.
package protocol ResetTokenStore: Sendable {
    /// In one transaction: marks every outstanding token of the account superseded, stores
    /// `token`, and queues `mail` in the outbox.
    func issueResetToken(_ token: ResetTokenRecord, mail: MailMessage, now: Date) throws

    /// The token with this digest if it is neither used, superseded nor expired at `now`
    /// and its account is active, with that account. Never changes anything.
    func usableResetToken(digest: Data, now: Date) throws -> (token: ResetTokenRecord, account: Account)?

    /// In one transaction, and only if the token is still usable at `now` (as in
    /// ``usableResetToken(digest:now:)``; one atomic conditional update, so of any number of
    /// racing callers, even on different servers, exactly one wins): consumes the token,
    /// sets the account's password hash, bumps its credential version, revokes every
    /// session of the account, supersedes its other reset tokens and queues the mail
    /// `notification` builds for the updated account. Returns the updated account, or nil
    /// when the token was not usable (then nothing changed).
    ///
    /// `notification` runs inside the transaction: it must not use the store, and when it
    /// throws, nothing is changed (the token stays usable) and its error is rethrown.
    func completeReset(
        digest: Data, newPasswordHash: String, now: Date,
        notification: (Account) throws -> MailMessage
    ) throws -> Account?
}

/// The mail outbox: messages queued inside business transactions, delivered later.
package protocol OutboxStore: Sendable {
    /// Queues a message on its own (outside any other change).
    func enqueue(_ message: MailMessage, now: Date) throws
    /// Leases up to `limit` messages due at `now` for `lease` seconds, so no other worker
    /// takes them meanwhile. A worker that dies leaves them to be leased again later.
    func leaseDueMail(now: Date, lease: TimeInterval, limit: Int) throws -> [OutboxEntry]
    /// Records that the message was delivered and erases its bodies (which may hold a reset
    /// link); it is never sent again. Throws
    /// `storage_error` when no message has this id.
    func markSent(id: String, now: Date) throws
    /// Records a failed attempt at `now` and ends the lease; the message becomes due again
    /// at `retryAt`, or is given up (kept as failed, its bodies erased) when `retryAt` is nil. A message
    /// that is no longer pending (another worker sent it) is left as it is. Throws
    /// `storage_error` when no message has this id.
    func markFailed(id: String, error: String, retryAt: Date?, now: Date) throws
    /// How many messages are waiting to be sent, leased or not (failed ones excluded).
    func pendingMailCount() throws -> Int
}

/// Registered OAuth clients.
package protocol ClientStore: Sendable {
    /// Inserts a new client. Throws `client_exists` when the id is taken.
    func createClient(_ client: OAuthClient) throws
    /// The client with this id, if any.
    func client(id: String) throws -> OAuthClient?
    /// Every client, oldest first.
    func allClients() throws -> [OAuthClient]
    /// Deletes the client with this id; false when there is none.
    func deleteClient(id: String) throws -> Bool
}

/// A refresh token as stored: only its SHA-256 digest, never the token. Every token
/// belongs to a family that starts at one login; each rotation adds the successor to it.
package struct RefreshTokenRecord: Sendable, Equatable {
    /// SHA-256 of the token's bytes as sent (the base64url string's UTF-8).
    package let digest: Data
    /// The account the token acts for.
    package let accountID: String
    /// The login this token descends from; revoking it revokes every token of the login.
    package let familyID: String
    /// The OAuth client it was issued to; nil for Latchkey's own first-party login.
    package let clientID: String?
    /// The scopes granted at login, kept by every rotation.
    package let scope: [String]
    /// The account's credential version when the family started.
    package let credentialVersion: Int
    /// When it was issued.
    package let createdAt: Date
    /// When it stops working unless rotated first (idle expiry, never after `absoluteExpiresAt`).
    package let expiresAt: Date
    /// When the whole family stops working, however often it is rotated.
    package let absoluteExpiresAt: Date

    /// Creates a record value.
    package init(
        digest: Data, accountID: String, familyID: String, clientID: String?, scope: [String], credentialVersion: Int,
        createdAt: Date, expiresAt: Date, absoluteExpiresAt: Date
    ) {
        self.digest = digest
        self.accountID = accountID
        self.familyID = familyID
        self.clientID = clientID
        self.scope = scope
        self.credentialVersion = credentialVersion
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.absoluteExpiresAt = absoluteExpiresAt
    }
}

/// What presenting a refresh token for rotation did.
package enum RefreshTokenRotation: Sendable, Equatable {
    /// The token was consumed and `successor` stored in its family, for `account`.
    case rotated(successor: RefreshTokenRecord, account: Account)
    /// The token had already been used: it was stolen or replayed, so its whole family is
    /// now revoked.
    case reused
    /// Unknown, expired, revoked, or its account is disabled or changed its password
    /// (then its family is revoked too).
    case invalid
}

/// Refresh tokens, grouped in families (one per login) with rotation and reuse detection.
/// ``ResetTokenStore/completeReset(digest:newPasswordHash:now:notification:)`` revokes
/// every family of the account.
package protocol SessionStore: Sendable {
    /// Starts a family (or adds to one) with the token `digest` for the account, if the
    /// account is active and its credential version is still `credentialVersion`; returns
    /// the stored record, or nil (nothing stored) when the account is gone, disabled or its
    /// credentials changed meanwhile.
    func createRefreshToken(
        digest: Data, accountID: String, familyID: String, clientID: String?, scope: [String], credentialVersion: Int,
        now: Date, idleExpiresAt: Date, absoluteExpiresAt: Date
    ) throws -> RefreshTokenRecord?

    /// In one transaction: consumes the token with `presentedDigest` if it is unused,
    /// unrevoked and unexpired at `now` (one conditional update, so of any number of racing
    /// callers exactly one wins) and stores `newDigest` in the same family, expiring
    /// `idleTTL` after `now` but never after the family's absolute expiry. A token that was
    /// already used revokes its whole family (``RefreshTokenRotation/reused``); a token whose
    /// account is disabled or changed credentials revokes its family and is ``RefreshTokenRotation/invalid``.
    func rotateRefreshToken(presentedDigest: Data, newDigest: Data, now: Date, idleTTL: TimeInterval) throws
        -> RefreshTokenRotation

    /// Revokes, at `now`, every live token of the family the token `digest` belongs to;
    /// false when no token has this digest.
    @discardableResult func revokeFamily(containing digest: Data, now: Date) throws -> Bool
}

/// Housekeeping shared by every store.
package protocol MaintenanceStore: Sendable {
    /// Applies every pending migration (each in its own transaction, recorded in
    /// `schema_migrations`); returns the versions applied, empty when up to date. Throws
    /// `storage_error` when the database was migrated by a newer version of Latchkey.
    @discardableResult func migrate() throws -> [Int]
    /// Deletes reset tokens that expired, were used or were superseded before `cutoff`,
    /// sessions that expired or were revoked before it, authorization codes that expired
    /// before it, and mail sent or given up before it (pending mail is kept); returns how
    /// many rows were removed.
    @discardableResult func purge(before cutoff: Date) throws -> Int
    /// Whether the database answers a trivial query.
    func isReady() -> Bool
}

/// An authorization code as stored: only the SHA-256 digest of the code, with everything
/// the token endpoint must check when it is redeemed.
package struct AuthorizationCodeRecord: Sendable, Equatable {
    /// SHA-256 of the code's bytes as sent (the base64url string's UTF-8).
    package let digest: Data
    /// The client the code was issued to.
    package let clientID: String
    /// The account that signed in.
    package let accountID: String
    /// The redirect URI exactly as the authorization request named it.
    package let redirectURI: String
    /// The PKCE S256 challenge (43 base64url characters).
    package let codeChallenge: String
    /// The scopes granted.
    package let scope: [String]
    /// The OpenID Connect nonce to put in the ID token, if the client sent one.
    package let nonce: String?
    /// The account's credential version when the person signed in.
    package let credentialVersion: Int
    /// When the person last entered their password.
    package let authTime: Date
    /// When the code was issued.
    package let createdAt: Date
    /// When it stops working.
    package let expiresAt: Date

    /// Creates a record value.
    package init(
        digest: Data, clientID: String, accountID: String, redirectURI: String, codeChallenge: String, scope: [String],
        nonce: String?, credentialVersion: Int, authTime: Date, createdAt: Date, expiresAt: Date
    ) {
        self.digest = digest
        self.clientID = clientID
        self.accountID = accountID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.scope = scope
        self.nonce = nonce
        self.credentialVersion = credentialVersion
        self.authTime = authTime
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// The refresh token a redeemed authorization code starts its family with.
package struct InitialRefreshToken: Sendable, Equatable {
    /// SHA-256 of the new refresh token.
    package let digest: Data
    /// The new family's id.
    package let familyID: String
    /// When the token stops working unless rotated first.
    package let idleExpiresAt: Date
    /// When the family stops working.
    package let absoluteExpiresAt: Date

    /// Creates the value.
    package init(digest: Data, familyID: String, idleExpiresAt: Date, absoluteExpiresAt: Date) {
        self.digest = digest
        self.familyID = familyID
        self.idleExpiresAt = idleExpiresAt
        self.absoluteExpiresAt = absoluteExpiresAt
    }
}

/// What presenting an authorization code did.
package enum AuthorizationCodeRedemption: Sendable, Equatable {
    /// The code was consumed and a refresh-token family started for `account`.
    case redeemed(code: AuthorizationCodeRecord, account: Account, refreshToken: RefreshTokenRecord)
    /// The code was consumed, but the request did not match it (client, redirect URI, PKCE
    /// verifier): nothing was issued and the code is spent.
    case rejected
    /// The code had already been used: the family started from it is now revoked.
    case replayed
    /// Unknown or expired, or its account is disabled or changed its password since.
    case invalid
}

/// A signed-in browser (the `/oauth/authorize` pages), as the session cookie's digest finds it.
package struct BrowserSession: Sendable, Equatable {
    /// The signed-in account, as it is now.
    package let account: Account
    /// When the person entered their password.
    package let authTime: Date

    /// Creates the value.
    package init(account: Account, authTime: Date) {
        self.account = account
        self.authTime = authTime
    }
}

/// Authorization codes, browser sessions, and the lookups the OAuth endpoints make on
/// refresh-token families. A password reset ends every browser session and family of the account.
package protocol AuthorizationStore: Sendable {
    /// Stores a new authorization code.
    func createAuthorizationCode(_ code: AuthorizationCodeRecord) throws

    /// In one transaction: consumes the code with `digest` if it is unused and unexpired at
    /// `now` (one conditional update: of racing callers exactly one wins); asks `matches`
    /// whether the request fits it (when not: ``AuthorizationCodeRedemption/rejected``);
    /// checks the account is still active with the code's credential version; and starts
    /// the refresh-token family `refreshToken` (recorded on the code). A code presented
    /// again revokes that family (``AuthorizationCodeRedemption/replayed``).
    func redeemAuthorizationCode(
        digest: Data, now: Date, refreshToken: InitialRefreshToken, matches: (AuthorizationCodeRecord) -> Bool
    ) throws -> AuthorizationCodeRedemption

    /// Stores a browser session for the account if it is active with `credentialVersion`;
    /// false (nothing stored) otherwise.
    func createBrowserSession(digest: Data, accountID: String, credentialVersion: Int, now: Date, expiresAt: Date) throws
        -> Bool

    /// The live browser session with this cookie digest: unexpired and unrevoked at `now`,
    /// its account active and with the credential version it signed in with.
    func browserSession(digest: Data, now: Date) throws -> BrowserSession?

    /// The refresh token with this digest in whatever state, for checks of which client holds it.
    func refreshToken(digest: Data) throws -> RefreshTokenRecord?

    /// The refresh token with this digest if it could be rotated at `now` (unused,
    /// unrevoked, unexpired, its account active with the family's credential version), with
    /// its account. Never changes anything.
    func usableRefreshToken(digest: Data, now: Date) throws -> (token: RefreshTokenRecord, account: Account)?

    /// The account of the family `familyID` if the family is live at `now` (not revoked, not
    /// past its absolute expiry) and the account is active with the family's credential
    /// version; nil otherwise. What makes an access token of that family valid.
    func liveFamilyAccount(familyID: String, now: Date) throws -> Account?

    /// Revokes every live token of the family `familyID`.
    func revokeFamily(id familyID: String, now: Date) throws
}

/// Everything the server persists. SQLite is the embedded implementation, PostgreSQL the
/// one several servers share. Instants are stored to the millisecond; every
/// implementation is safe to use from many threads.
package typealias Store = AccountStore & ResetTokenStore & OutboxStore & ClientStore & SessionStore
    & AuthorizationStore & MaintenanceStore
