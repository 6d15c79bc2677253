package import Foundation

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
    /// What the sign-in that started the family proved, and when; every rotation keeps it.
    package let assurance: Assurance
    /// Where the family was started from; every rotation keeps it.
    package let origin: LoginOrigin
    /// When it was issued.
    package let createdAt: Date
    /// When it stops working unless rotated first (idle expiry, never after `absoluteExpiresAt`).
    package let expiresAt: Date
    /// When the whole family stops working, however often it is rotated.
    package let absoluteExpiresAt: Date
    /// The cookie digest of the browser session whose sign-in started the family (the code's
    /// ``AuthorizationCodeRecord/browserSessionDigest``), kept by every rotation: ending the
    /// login ends that browser session. Nil for a first-party login and a login started before
    /// families kept it.
    package let browserSessionDigest: Data?

    /// Creates a record value.
    package init(
        digest: Data, accountID: String, familyID: String, clientID: String?, scope: [String], credentialVersion: Int,
        assurance: Assurance, origin: LoginOrigin, createdAt: Date, expiresAt: Date, absoluteExpiresAt: Date,
        browserSessionDigest: Data?
    ) {
        self.digest = digest
        self.accountID = accountID
        self.familyID = familyID
        self.clientID = clientID
        self.scope = scope
        self.credentialVersion = credentialVersion
        self.assurance = assurance
        self.origin = origin
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.absoluteExpiresAt = absoluteExpiresAt
        self.browserSessionDigest = browserSessionDigest
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
    /// The caller's check refused the token (another client's, a scope it was not granted):
    /// nothing changed.
    case refused
}

/// Refresh tokens, grouped in families (one per login) with rotation and reuse detection.
/// ``ResetTokenStore/completeReset(digest:newPasswordHash:now:notification:)`` revokes
/// every family of the account. A family that ends because its client revoked it or one of
/// its tokens was reused also ends the browser session that signed in for it
/// (``RefreshTokenRecord/browserSessionDigest``), so the next sign-in in that browser asks for
/// the password; a family ended for being one too many of the account's does not.
package protocol SessionStore: Sendable {
    /// Starts a family (or adds to one) with the token `digest` for the account, signed in with
    /// `assurance` from `origin`, if the account is active and its credential version is still `credentialVersion`; returns
    /// the stored record, or nil (nothing stored) when the account is gone, disabled or its
    /// credentials changed meanwhile. In the same transaction, ends the account's least
    /// recently used live families beyond `liveFamilyLimit` (this one included in the count).
    func createRefreshToken(
        digest: Data, accountID: String, familyID: String, clientID: String?, scope: [String], credentialVersion: Int,
        assurance: Assurance, origin: LoginOrigin, now: Date, idleExpiresAt: Date, absoluteExpiresAt: Date, liveFamilyLimit: Int
    ) throws -> RefreshTokenRecord?

    /// In one transaction: finds the token with `presentedDigest` and asks `accepts` whether
    /// the request fits it (when not: ``RefreshTokenRotation/refused``, nothing changed);
    /// then consumes it if it is unused, unrevoked and unexpired at `now` (one conditional
    /// update, so of any number of racing callers exactly one wins) and stores `newDigest`
    /// in the same family, expiring `idleTTL` after `now` but never after the family's
    /// absolute expiry. A token that was already used revokes its whole family
    /// (``RefreshTokenRotation/reused``) — unless it was rotated less than `reuseGrace` seconds
    /// ago, is not revoked, and its successor is still unused: the client lost the successor
    /// (a failed save), so that successor is revoked and `newDigest` takes its place (0 turns
    /// the grace off). A token whose account is disabled or changed credentials revokes its
    /// family and is ``RefreshTokenRotation/invalid``. The successor keeps the family's browser
    /// session; reuse ends it.
    func rotateRefreshToken(
        presentedDigest: Data, newDigest: Data, now: Date, idleTTL: TimeInterval, reuseGrace: TimeInterval,
        accepts: (RefreshTokenRecord) -> Bool
    ) throws -> RefreshTokenRotation

    /// In one transaction: finds the token `digest` and, if `accepts` it, revokes at `now`
    /// every live token of its family and ends the family's browser session; false when no
    /// token has this digest or it was not accepted.
    @discardableResult func revokeFamily(containing digest: Data, now: Date, accepts: (RefreshTokenRecord) -> Bool) throws -> Bool

    /// The refresh token with this digest if it could be rotated at `now` (unused,
    /// unrevoked, unexpired, its account active with the family's credential version), with
    /// its account. Never changes anything.
    func usableRefreshToken(digest: Data, now: Date) throws -> (token: RefreshTokenRecord, account: Account)?

    /// The account of the family `familyID`, with what its sign-in proved, if the family is
    /// live at `now` (not revoked, not past its absolute expiry) and the account is active with
    /// the family's credential version; nil otherwise. What makes an access token of that
    /// family valid.
    func liveFamily(familyID: String, now: Date) throws -> (account: Account, assurance: Assurance)?

    /// Revokes every live token of the family `familyID` and ends the family's browser session.
    func revokeFamily(id familyID: String, now: Date) throws
}

extension SessionStore {
    /// The account of ``liveFamily(familyID:now:)``.
    package func liveFamilyAccount(familyID: String, now: Date) throws -> Account? {
        try liveFamily(familyID: familyID, now: now)?.account
    }
}
