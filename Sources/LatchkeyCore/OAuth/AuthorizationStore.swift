package import Foundation

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
    /// What the person proved at sign-in, and when.
    package let assurance: Assurance
    /// When the code was issued.
    package let createdAt: Date
    /// When it stops working.
    package let expiresAt: Date
    /// The cookie digest of the browser session that signed in for it (``BrowserSession/cookieDigest``);
    /// the login the code starts keeps it, and ending that login ends this browser session.
    /// Nil for a code issued before codes kept it.
    package let browserSessionDigest: Data?

    /// Creates a record value.
    package init(
        digest: Data, clientID: String, accountID: String, redirectURI: String, codeChallenge: String, scope: [String],
        nonce: String?, credentialVersion: Int, assurance: Assurance, createdAt: Date, expiresAt: Date,
        browserSessionDigest: Data? = nil
    ) {
        self.digest = digest
        self.clientID = clientID
        self.accountID = accountID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.scope = scope
        self.nonce = nonce
        self.credentialVersion = credentialVersion
        self.assurance = assurance
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.browserSessionDigest = browserSessionDigest
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
    /// The most live families the account may hold once this one starts; the least recently
    /// used ones beyond it end.
    package let liveFamilyLimit: Int
    /// Where the code is redeemed from: the new login's origin.
    package let origin: LoginOrigin

    /// Creates the value.
    package init(
        digest: Data, familyID: String, idleExpiresAt: Date, absoluteExpiresAt: Date, liveFamilyLimit: Int, origin: LoginOrigin
    ) {
        self.digest = digest
        self.familyID = familyID
        self.origin = origin
        self.idleExpiresAt = idleExpiresAt
        self.absoluteExpiresAt = absoluteExpiresAt
        self.liveFamilyLimit = liveFamilyLimit
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
    /// What the person proved when the browser signed in, and when.
    package let assurance: Assurance
    /// SHA-256 of the session cookie's value: what identifies the session in the store, and
    /// what the codes it signs in for and the logins they start record.
    package let cookieDigest: Data

    /// Creates the value.
    package init(account: Account, assurance: Assurance, cookieDigest: Data) {
        self.account = account
        self.assurance = assurance
        self.cookieDigest = cookieDigest
    }
}

/// Authorization codes and browser sessions. A password reset ends every browser session of
/// the account; ending a login that a code started (its client revoking it, reuse of its
/// refresh token, a replayed code) ends the browser session that signed in for the code.
package protocol AuthorizationStore: Sendable {
    /// Stores a new authorization code.
    func createAuthorizationCode(_ code: AuthorizationCodeRecord) throws

    /// In one transaction: consumes the code with `digest` if it is unused and unexpired at
    /// `now` (one conditional update: of racing callers exactly one wins); asks `accepts`
    /// whether the request fits it (when not: ``AuthorizationCodeRedemption/rejected``, and
    /// the code stays spent);
    /// checks the account is still active with the code's credential version; and starts
    /// the refresh-token family `refreshToken` (recorded on the code, and keeping the code's
    /// browser session), ending the account's least recently used live families beyond its
    /// limit. A code presented again revokes that family and ends its browser session
    /// (``AuthorizationCodeRedemption/replayed``).
    func redeemAuthorizationCode(
        digest: Data, now: Date, refreshToken: InitialRefreshToken, accepts: (AuthorizationCodeRecord) -> Bool
    ) throws -> AuthorizationCodeRedemption

    /// Stores a browser session, signed in with `assurance`, for the account if it is active
    /// with `credentialVersion`, ending its live browser sessions beyond the `keeping` most
    /// recently started (this one among them); false (nothing stored or ended) otherwise.
    func createBrowserSession(
        digest: Data, accountID: String, credentialVersion: Int, assurance: Assurance, now: Date, expiresAt: Date,
        keeping limit: Int
    ) throws -> Bool

    /// The live browser session with this cookie digest: unexpired and unrevoked at `now`,
    /// its account active and with the credential version it signed in with.
    func browserSession(digest: Data, now: Date) throws -> BrowserSession?

    /// Moves the expiry of the live browser session with this cookie digest to `idleExpiresAt`
    /// (its use at `now` restarts its inactivity timeout), never past `absoluteLifetime` after
    /// it started; nothing for a session that is unknown, ended or expired at `now`.
    func touchBrowserSession(digest: Data, now: Date, idleExpiresAt: Date, absoluteLifetime: TimeInterval) throws

    /// Revokes the browser session with this cookie digest at `now` (signing the browser out);
    /// false when there is no unrevoked one.
    func endBrowserSession(digest: Data, now: Date) throws -> Bool
}
