import Foundation
import LatchkeyJOSE
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Testing

/// What a sign-in proved (its methods and time) is kept by every store: by the browser session,
/// by the authorization code, by the login the code starts and by each rotation of it.
@Suite struct AssuranceStoreContractTests {
    /// A second factor's reference, as a later sign-in method would record it.
    private static let secondFactor = AuthenticationMethodReference(rawValue: "otp")

    @Test("a browser session, its code, the login it starts and a rotation keep the sign-in's methods and time", arguments: StoreFactory.all)
    func keptThroughTheFlow(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try Self.account(in: fixture)
        let signedInAt = fixture.clock.now()
        let assurance = Assurance(methods: [.password, Self.secondFactor], authTime: signedInAt)
        let cookie = randomDigest()
        #expect(try store.createBrowserSession(
            digest: cookie, accountID: account.id, credentialVersion: 0, assurance: assurance, now: signedInAt,
            expiresAt: signedInAt.addingTimeInterval(3600), keeping: 32))

        fixture.clock.advance(by: 120)
        let now = fixture.clock.now()
        let session = try #require(try store.browserSession(digest: cookie, now: now))
        #expect(session.assurance == assurance)

        let code = AuthorizationCodeRecord(
            digest: randomDigest(), clientID: "ios-app", accountID: account.id, redirectURI: "com.example.app:/oauth",
            codeChallenge: String(repeating: "A", count: 43), scope: ["openid"], nonce: nil, credentialVersion: 0,
            assurance: session.assurance, createdAt: now, expiresAt: now.addingTimeInterval(60))
        try store.createAuthorizationCode(code)
        let first = InitialRefreshToken(
            digest: randomDigest(), familyID: UUID().uuidString.lowercased(), idleExpiresAt: now.addingTimeInterval(86400),
            absoluteExpiresAt: now.addingTimeInterval(30 * 86400), liveFamilyLimit: 10, origin: .test)
        guard case .redeemed(let redeemed, _, let token) = try store.redeemAuthorizationCode(
            digest: code.digest, now: now, refreshToken: first, accepts: { _ in true })
        else {
            Issue.record("the code was not redeemed")
            return
        }
        #expect(redeemed.assurance == assurance)
        #expect(token.assurance == assurance)

        fixture.clock.advance(by: 600)
        let rotation = try store.rotateRefreshToken(
            presentedDigest: first.digest, newDigest: randomDigest(), now: fixture.clock.now(), idleTTL: 86400, reuseGrace: 0,
            accepts: { _ in true })
        guard case .rotated(let successor, _) = rotation else {
            Issue.record("the token was not rotated: \(rotation)")
            return
        }
        #expect(successor.assurance == assurance)
        #expect(try store.liveFamily(familyID: successor.familyID, now: fixture.clock.now())?.assurance == assurance)
        #expect(try store.usableRefreshToken(digest: successor.digest, now: fixture.clock.now())?.token.assurance == assurance)
    }

    @Test("a first-party login keeps the methods and time it was started with", arguments: StoreFactory.all)
    func firstPartyLogin(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try Self.account(in: fixture)
        let assurance = Assurance(methods: [.password], authTime: fixture.clock.now())
        let digest = randomDigest()
        let created = try #require(try store.createRefreshToken(
            digest: digest, accountID: account.id, familyID: UUID().uuidString.lowercased(), clientID: nil, scope: [],
            credentialVersion: 0, assurance: assurance, origin: .test, now: fixture.clock.now(),
            idleExpiresAt: fixture.clock.now().addingTimeInterval(600),
            absoluteExpiresAt: fixture.clock.now().addingTimeInterval(3600), liveFamilyLimit: 10))
        #expect(created.assurance == assurance)
        #expect(try store.usableRefreshToken(digest: digest, now: fixture.clock.now())?.token.assurance == assurance)
    }

    @Test("rows written before methods were kept read as a password sign-in: a session at its start, a login long ago", arguments: StoreFactory.all)
    func rowsFromBefore(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try Self.account(in: fixture)
        let now = fixture.clock.now()
        let cookie = randomDigest()
        let refresh = randomDigest()
        try fixture.execute(
            """
            INSERT INTO sessions (id, account_id, kind, token_digest, created_at, expires_at, credential_version)
            VALUES ('\(UUID().uuidString.lowercased())', '\(account.id)', 'browser', '\(StorageEncoding.hex(cookie))',
                    \(fixture.literal(now)), \(fixture.literal(now.addingTimeInterval(3600))), 0)
            """)
        try fixture.execute(
            """
            INSERT INTO sessions (id, account_id, kind, token_digest, created_at, expires_at, family_id, scope,
                                  credential_version, absolute_expires_at)
            VALUES ('\(UUID().uuidString.lowercased())', '\(account.id)', 'refresh_family', '\(StorageEncoding.hex(refresh))',
                    \(fixture.literal(now)), \(fixture.literal(now.addingTimeInterval(600))), 'family-before', '',
                    0, \(fixture.literal(now.addingTimeInterval(3600))))
            """)
        let session = try #require(try store.browserSession(digest: cookie, now: now))
        #expect(session.assurance == Assurance(methods: [.password], authTime: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(now))))
        let login = try #require(try store.usableRefreshToken(digest: refresh, now: now))
        #expect(login.token.assurance == Assurance(methods: [.password], authTime: Date(timeIntervalSince1970: 0)))
    }

    private static func account(in fixture: StoreFixture) throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: "assured@example.com", passwordHash: "$argon2id$x", status: .active,
            credentialVersion: 0, locale: "en", createdAt: fixture.clock.now())
        try fixture.store.createAccount(account)
        try fixture.store.createClient(OAuthClient(
            id: "ios-app", redirectURIs: [try RedirectURI("com.example.app:/oauth")], isConfidential: false, secretDigest: nil,
            isFirstParty: true, scopes: [], createdAt: fixture.clock.now(), idTokenAlgorithm: .rs256))
        return account
    }
}
