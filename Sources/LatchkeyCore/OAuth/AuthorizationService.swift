package import Foundation
package import LatchkeyCrypto

/// The browser side of the authorization code flow: browser sessions, form tokens against
/// cross-site request forgery, and authorization codes.
///
/// Promises: session cookies and codes are 32 CSPRNG bytes of which only the SHA-256 is
/// stored; a code lives ``codeLifetime`` seconds at most; a form token is bound to the
/// browser's own CSRF cookie with a keyed HMAC, so a page on another site can neither read
/// nor forge it.
package struct AuthorizationService: Sendable {
    /// How long an authorization code can be redeemed.
    package static let codeLifetime: TimeInterval = 60
    /// How long a browser stays signed in to the authorization pages at most, however often it
    /// is used.
    package static let browserSessionLifetime: TimeInterval = 12 * 3600
    /// The most live browser sessions one account keeps by default
    /// (`LATCHKEY_MAX_BROWSER_SESSIONS_PER_ACCOUNT`): signing in once more ends the one started
    /// longest ago. Enough for every browser a person (or a household sharing an account) signs
    /// in with in a session's 12 hours; a bound on what one stolen password, signing in over and
    /// over, can store.
    package static let defaultBrowserSessionsPerAccount = 32

    private let store: any AuthorizationStore
    private let clock: any WallClock
    /// The key of the form-token HMAC.
    private let formTokenKey: HMACSHA256.Key
    /// The most live browser sessions one account keeps; one more ends the one started longest ago.
    private let browserSessionsPerAccount: Int
    /// How long a browser session lives unused: each use starts this time again, up to
    /// ``browserSessionLifetime`` after the sign-in.
    private let idleTimeout: TimeInterval

    /// Creates it from its dependencies; an account keeps at most `browserSessionsPerAccount`
    /// live browser sessions (at least one), and a browser session ends after `idleTimeout` unused.
    package init(
        store: any AuthorizationStore, clock: any WallClock, formTokenKey: Redacted<Data>, idleTimeout: TimeInterval,
        browserSessionsPerAccount: Int = Self.defaultBrowserSessionsPerAccount
    ) {
        self.store = store
        self.clock = clock
        self.formTokenKey = HMACSHA256.Key(formTokenKey.exposed)
        self.browserSessionsPerAccount = max(1, browserSessionsPerAccount)
        self.idleTimeout = min(idleTimeout, Self.browserSessionLifetime)
    }

    /// A new authorization code for `request`, for the browser session `session`, which the code
    /// and the login it starts remember: ending that login ends this session.
    package func issueCode(for request: AuthorizationRequest, session: BrowserSession) throws -> Redacted<String> {
        let account = session.account
        let code = SecureRandom.token()
        let now = clock.now()
        try store.createAuthorizationCode(AuthorizationCodeRecord(
            digest: OpaqueToken.digest(code), clientID: request.client.id, accountID: account.id,
            redirectURI: request.redirectURI, codeChallenge: request.codeChallenge, scope: request.scope, nonce: request.nonce,
            credentialVersion: account.credentialVersion, assurance: session.assurance, createdAt: now,
            expiresAt: now.addingTimeInterval(Self.codeLifetime), browserSessionDigest: session.cookieDigest))
        return code
    }

    /// Starts a browser session for the account that just signed in; the session and its
    /// cookie's value, or nil when the account changed meanwhile.
    package func startBrowserSession(for signedIn: SignInService.SignedIn) throws -> (BrowserSession, cookie: Redacted<String>)? {
        let cookie = SecureRandom.token()
        let digest = OpaqueToken.digest(cookie)
        let now = clock.now()
        let account = signedIn.account
        let stored = try store.createBrowserSession(
            digest: digest, accountID: account.id, credentialVersion: account.credentialVersion,
            assurance: signedIn.assurance, now: now, expiresAt: now.addingTimeInterval(idleTimeout),
            keeping: browserSessionsPerAccount)
        return stored ? (BrowserSession(account: account, assurance: signedIn.assurance, cookieDigest: digest), cookie) : nil
    }

    /// The live session the cookie value belongs to, if any: used within the inactivity
    /// timeout, and signed in at most ``browserSessionLifetime`` ago. Finding it is a use: its
    /// inactivity timeout starts again.
    package func browserSession(cookie: Redacted<String>?) throws -> BrowserSession? {
        guard let cookie, let digest = OpaqueToken.wellFormedDigest(cookie) else { return nil }
        let now = clock.now()
        guard let session = try store.browserSession(digest: digest, now: now) else { return nil }
        try store.touchBrowserSession(
            digest: digest, now: now, idleExpiresAt: now.addingTimeInterval(idleTimeout), absoluteLifetime: Self.browserSessionLifetime)
        return session
    }

    /// Signs the browser with this session cookie out: its session no longer counts, on any
    /// server. Nothing happens for a cookie that is absent, malformed or already signed out.
    package func endBrowserSession(cookie: Redacted<String>?) throws {
        guard let cookie, let digest = OpaqueToken.wellFormedDigest(cookie) else { return }
        _ = try store.endBrowserSession(digest: digest, now: clock.now())
    }

    /// The form token for the browser whose CSRF cookie holds `csrfCookie`.
    package func formToken(for csrfCookie: Redacted<String>) -> String {
        Base64URL.encode(formTokenKey.authenticationCode(forUTF8: csrfCookie.exposed))
    }

    /// Whether `formToken` was made for this browser's CSRF cookie (compared in constant time).
    package func isValidFormToken(_ formToken: String?, csrfCookie: Redacted<String>?) -> Bool {
        guard let formToken, let csrfCookie, OpaqueToken.wellFormedDigest(csrfCookie) != nil else { return false }
        return ConstantTime.equals(Data(formToken.utf8), Data(self.formToken(for: csrfCookie).utf8))
    }
}
