import Foundation
import LatchkeyJOSE
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Testing

/// What every store keeps for signing out: a client's post-logout redirect URIs, and the link
/// from a login to the browser session that signed in for it — recorded by the code, kept by
/// every rotation, and followed when the login ends by revocation, reuse or a replayed code
/// (never when it is one too many of the account's).
@Suite struct SignOutStoreContractTests {
    /// An account with the client `notes`, a browser session signed in for it, and a code
    /// that browser session was issued, redeemed: the login's first refresh token.
    private struct SignedIn {
        let store: any Store
        let account: Account
        let browser: Data
        let code: AuthorizationCodeRecord
        let login: RefreshTokenRecord
    }

    private static func signIn(_ fixture: StoreFixture, familyLimit: Int = 10) throws -> SignedIn {
        let store = try fixture.migratedStore()
        let now = fixture.clock.now()
        let account = Account(
            id: UUID().uuidString.lowercased(), email: "leaving@example.com", passwordHash: "$argon2id$x", status: .active,
            credentialVersion: 0, locale: "en", createdAt: now)
        try store.createAccount(account)
        try store.createClient(OAuthClient(
            id: "notes", redirectURIs: [try RedirectURI("com.example.notes:/oauth")], isConfidential: false, secretDigest: nil,
            isFirstParty: true, scopes: [], createdAt: now, idTokenAlgorithm: .rs256))
        let browser = try Self.browserSession(store, account, now: now)
        let (code, login) = try Self.codeLogin(store, account, browser: browser, now: now, familyLimit: familyLimit)
        return SignedIn(store: store, account: account, browser: browser, code: code, login: login)
    }

    private static func browserSession(_ store: any Store, _ account: Account, now: Date) throws -> Data {
        let cookie = randomDigest()
        #expect(try store.createBrowserSession(
            digest: cookie, accountID: account.id, credentialVersion: 0, assurance: .signedIn(at: now), now: now,
            expiresAt: now.addingTimeInterval(12 * 3600), keeping: 32))
        return cookie
    }

    /// A code issued to the browser session `browser` (nil: a code from before codes kept one),
    /// redeemed at `now`.
    private static func codeLogin(
        _ store: any Store, _ account: Account, browser: Data?, now: Date, familyLimit: Int = 10
    ) throws -> (AuthorizationCodeRecord, RefreshTokenRecord) {
        let code = AuthorizationCodeRecord(
            digest: randomDigest(), clientID: "notes", accountID: account.id, redirectURI: "com.example.notes:/oauth",
            codeChallenge: String(repeating: "A", count: 43), scope: ["openid"], nonce: nil, credentialVersion: 0,
            assurance: .signedIn(at: now), createdAt: now, expiresAt: now.addingTimeInterval(60), browserSessionDigest: browser)
        try store.createAuthorizationCode(code)
        let first = InitialRefreshToken(
            digest: randomDigest(), familyID: UUID().uuidString.lowercased(), idleExpiresAt: now.addingTimeInterval(86400),
            absoluteExpiresAt: now.addingTimeInterval(30 * 86400), liveFamilyLimit: familyLimit, origin: .test)
        guard case .redeemed(let redeemed, _, let token) = try store.redeemAuthorizationCode(
            digest: code.digest, now: now, refreshToken: first, accepts: { _ in true })
        else {
            Issue.record("the code was not redeemed")
            throw LatchkeyError(.invalidGrant, "not redeemed")
        }
        #expect(redeemed.browserSessionDigest == browser)
        return (code, token)
    }

    private static func isSignedIn(_ signedIn: SignedIn, _ fixture: StoreFixture) throws -> Bool {
        try signedIn.store.browserSession(digest: signedIn.browser, now: fixture.clock.now()) != nil
    }

    @Test("a code keeps the browser session it was signed in with, and the login it starts keeps it through every rotation",
          arguments: StoreFactory.all)
    func linkIsKept(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let signedIn = try Self.signIn(fixture)
        #expect(signedIn.login.browserSessionDigest == signedIn.browser)
        #expect(try signedIn.store.browserSession(digest: signedIn.browser, now: fixture.clock.now())?.cookieDigest == signedIn.browser)

        fixture.clock.advance(by: 60)
        guard case .rotated(let successor, _) = try signedIn.store.rotateRefreshToken(
            presentedDigest: signedIn.login.digest, newDigest: randomDigest(), now: fixture.clock.now(), idleTTL: 86400,
            reuseGrace: 0, accepts: { _ in true })
        else {
            Issue.record("the token was not rotated")
            return
        }
        #expect(successor.browserSessionDigest == signedIn.browser)
        let stored = try #require(try signedIn.store.usableRefreshToken(digest: successor.digest, now: fixture.clock.now()))
        #expect(stored.token.browserSessionDigest == signedIn.browser)
        #expect(try Self.isSignedIn(signedIn, fixture))

        // Revoking the rotated login (its client signing out) ends the browser session.
        #expect(try signedIn.store.revokeFamily(containing: successor.digest, now: fixture.clock.now()) { _ in true })
        #expect(try !Self.isSignedIn(signedIn, fixture))
        #expect(try fixture.openAnother().browserSession(digest: signedIn.browser, now: fixture.clock.now()) == nil)
    }

    @Test("revoking a login ends its browser session and no other; a refused revocation ends nothing", arguments: StoreFactory.all)
    func revocation(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let signedIn = try Self.signIn(fixture)
        let now = fixture.clock.now()
        let otherBrowser = try Self.browserSession(signedIn.store, signedIn.account, now: now)
        let (_, otherLogin) = try Self.codeLogin(signedIn.store, signedIn.account, browser: otherBrowser, now: now)

        #expect(try !signedIn.store.revokeFamily(containing: signedIn.login.digest, now: now) { _ in false })
        #expect(try Self.isSignedIn(signedIn, fixture))

        #expect(try signedIn.store.revokeFamily(containing: signedIn.login.digest, now: now) { _ in true })
        #expect(try !Self.isSignedIn(signedIn, fixture))
        #expect(try signedIn.store.browserSession(digest: otherBrowser, now: now) != nil)
        #expect(try signedIn.store.usableRefreshToken(digest: otherLogin.digest, now: now) != nil)

        // By the family's id (an access token's sid), as /oauth/revoke does for an access token.
        try signedIn.store.revokeFamily(id: otherLogin.familyID, now: now)
        #expect(try signedIn.store.browserSession(digest: otherBrowser, now: now) == nil)
    }

    @Test("the browser session ends with its login when a used refresh token is presented again, or a used code", arguments: StoreFactory.all)
    func theft(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let reused = try Self.signIn(fixture)
        fixture.clock.advance(by: 60)
        let rotate = {
            try reused.store.rotateRefreshToken(
                presentedDigest: reused.login.digest, newDigest: randomDigest(), now: fixture.clock.now(), idleTTL: 86400,
                reuseGrace: 0, accepts: { _ in true })
        }
        guard case .rotated = try rotate() else {
            Issue.record("the token was not rotated")
            return
        }
        #expect(try Self.isSignedIn(reused, fixture))
        #expect(try rotate() == .reused)
        #expect(try !Self.isSignedIn(reused, fixture))

        let now = fixture.clock.now()
        let browser = try Self.browserSession(reused.store, reused.account, now: now)
        let (code, _) = try Self.codeLogin(reused.store, reused.account, browser: browser, now: now)
        #expect(try reused.store.redeemAuthorizationCode(
            digest: code.digest, now: now, refreshToken: InitialRefreshToken(
                digest: randomDigest(), familyID: UUID().uuidString.lowercased(), idleExpiresAt: now.addingTimeInterval(600),
                absoluteExpiresAt: now.addingTimeInterval(3600), liveFamilyLimit: 10, origin: .test),
            accepts: { _ in true }) == .replayed)
        #expect(try reused.store.browserSession(digest: browser, now: now) == nil)
    }

    @Test("a login ended for being one too many of the account's leaves its browser session; a login without one ends none",
          arguments: StoreFactory.all)
    func evictionAndLoginsWithoutABrowser(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let signedIn = try Self.signIn(fixture, familyLimit: 1)
        fixture.clock.advance(by: 1)
        let now = fixture.clock.now()
        // A first-party login (no browser) and a code from before codes kept their browser session.
        let firstParty = try #require(try signedIn.store.createRefreshToken(
            digest: randomDigest(), accountID: signedIn.account.id, familyID: UUID().uuidString.lowercased(), clientID: nil,
            scope: ["openid", "email"], credentialVersion: 0, assurance: .signedIn(at: now), origin: .test, now: now,
            idleExpiresAt: now.addingTimeInterval(600), absoluteExpiresAt: now.addingTimeInterval(3600), liveFamilyLimit: 1))
        #expect(firstParty.browserSessionDigest == nil)
        #expect(try signedIn.store.usableRefreshToken(digest: signedIn.login.digest, now: now) == nil)
        #expect(try Self.isSignedIn(signedIn, fixture))

        #expect(try signedIn.store.revokeFamily(containing: firstParty.digest, now: now) { _ in true })
        let (_, unlinked) = try Self.codeLogin(signedIn.store, signedIn.account, browser: nil, now: now)
        #expect(unlinked.browserSessionDigest == nil)
        #expect(try signedIn.store.revokeFamily(containing: unlinked.digest, now: now) { _ in true })
        #expect(try Self.isSignedIn(signedIn, fixture))
    }

    @Test("a client's post-logout redirect URIs are kept in order, and a client registered without any has none",
          arguments: StoreFactory.all)
    func postLogoutRedirectURIs(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let registry = ClientRegistry(store: store)
        _ = try registry.create(
            id: "web", redirectURIs: ["https://rp.example/cb"], confidential: false, firstParty: true, scopes: [],
            postLogoutRedirectURIs: ["https://rp.example/bye", "com.example.rp:/bye", "https://rp.example/bye"],
            now: fixture.clock.now())
        _ = try registry.create(
            id: "bare", redirectURIs: ["https://bare.example/cb"], confidential: false, firstParty: true, scopes: [], now: fixture.clock.now())
        let web = try #require(try fixture.openAnother().client(id: "web"))
        #expect(web.postLogoutRedirectURIs.map(\.value) == ["https://rp.example/bye", "com.example.rp:/bye"])
        #expect(web.postLogoutRedirectURI(matching: "https://rp.example/bye") != nil)
        #expect(web.postLogoutRedirectURI(matching: "https://rp.example/cb") == nil)
        #expect(try store.client(id: "bare")?.postLogoutRedirectURIs == [])
        #expect(throws: LatchkeyError.self) {
            try registry.create(
                id: "bad", redirectURIs: ["https://bad.example/cb"], confidential: false, firstParty: true, scopes: [],
                postLogoutRedirectURIs: ["http://evil.example/bye"], now: fixture.clock.now())
        }
        #expect(try store.client(id: "bad") == nil)
    }
}
