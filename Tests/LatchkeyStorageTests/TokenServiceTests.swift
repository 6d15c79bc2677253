import Foundation
import LatchkeyCrypto
import LatchkeyJOSE
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyOAuthTestSupport
import Testing
import LatchkeyTestSupport

@Suite struct TokenServiceTests {
    static let issuer = "https://auth.example.com"

    /// A migrated SQLite store with one active account, a key ring and a service on a ManualClock.
    struct Setup {
        let fixture: StoreFixture
        let keyRing: SigningKeyRing
        let service: TokenService
        let account: Account

        init(reuseGrace: TimeInterval = 10) throws {
            fixture = try StoreFactory.sqlite.make()
            try fixture.store.migrate()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-keys-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            keyRing = try SigningKeyRing(
                file: directory.appendingPathComponent("keys.json"), maximumTokenLifetime: 600, now: fixture.clock.now())
            service = TokenService(
                store: fixture.store, keyRing: keyRing, clock: fixture.clock,
                settings: .init(issuer: TokenServiceTests.issuer, refreshReuseGrace: reuseGrace))
            account = Account(
                id: UUID().uuidString.lowercased(), email: "person@example.com", passwordHash: "$argon2id$x",
                status: .active, credentialVersion: 3, locale: "en", createdAt: fixture.clock.now())
            try fixture.store.createAccount(account)
        }

        /// The account signed in with its password now.
        var signedIn: SignInService.SignedIn {
            SignInService.SignedIn(account: account, assurance: .signedIn(at: fixture.clock.now()))
        }

        /// Verifies `token` against the published keys and returns its claims.
        func claims(of token: Redacted<String>) throws -> (header: JWSHeader, claims: TokenService.AccessTokenClaims) {
            let keys = try keyRing.servedKeySet(now: fixture.clock.now()).keys.map { try VerificationKey(jwk: $0) }
            let verified = try JWS.verify(compact: token.exposed, keys: keys)
            return (verified.header, try JSONDecoder().decode(TokenService.AccessTokenClaims.self, from: verified.payload))
        }
    }

    @Test("a login gets an ES256 at+jwt for the account that verifies against the published keys")
    func accessToken() throws {
        let setup = try Setup()
        let tokens = try setup.service.issue(for: setup.signedIn, clientID: "ios-app", scope: ["openid", "profile"], origin: .test)
        let (header, claims) = try setup.claims(of: tokens.accessToken)
        let now = Int64(setup.fixture.clock.now().timeIntervalSince1970)
        #expect(header.typ == "at+jwt")
        #expect(header.alg == .es256)
        #expect(header.kid == setup.keyRing.activeKey.kid)
        #expect(claims.iss == Self.issuer)
        #expect(claims.aud == Self.issuer)
        #expect(claims.sub == setup.account.id)
        #expect(claims.client_id == "ios-app")
        #expect(claims.scope == "openid profile")
        #expect(claims.cv == 3)
        #expect(claims.iat == now)
        #expect(claims.exp == now + 600)
        #expect(tokens.expiresIn == 600)
        #expect(tokens.refreshToken!.exposed.count == 43)
        let stored = try setup.fixture.integer(
            "SELECT COUNT(*) AS value FROM sessions WHERE token_digest = '\(StorageEncoding.hex(SHA256.hash(Data(tokens.refreshToken!.exposed.utf8))))'")
        #expect(stored == 1)
    }

    @Test("a refresh returns a new pair; replaying the old refresh token ends the login")
    func refreshRotates() throws {
        let setup = try Setup()
        let first = try setup.service.issue(for: setup.signedIn, clientID: nil, scope: [], origin: .test)
        setup.fixture.clock.advance(by: 3600)
        let second = try setup.service.refresh(first.refreshToken!, clientID: nil)
        #expect(second.refreshToken!.exposed != first.refreshToken!.exposed)
        let (_, claims) = try setup.claims(of: second.accessToken)
        #expect(claims.sub == setup.account.id)
        #expect(claims.client_id == nil)
        #expect(claims.iat == Int64(setup.fixture.clock.now().timeIntervalSince1970))

        // Past the reuse grace, presenting the old token again is reuse.
        setup.fixture.clock.advance(by: 11)
        #expect(throws: LatchkeyError.self) { try setup.service.refresh(first.refreshToken!, clientID: nil) }
        #expect(throws: LatchkeyError.self) { try setup.service.refresh(second.refreshToken!, clientID: nil) }
    }

    @Test("within the reuse grace a client that lost its new refresh token gets another; the lost one turning up later ends the login")
    func reuseGraceForALostSave() throws {
        let setup = try Setup()
        let first = try setup.service.issue(for: setup.signedIn, clientID: nil, scope: [], origin: .test)
        let lost = try setup.service.refresh(first.refreshToken!, clientID: nil)
        setup.fixture.clock.advance(by: 5)
        // The app never saved `lost` and presents the token it still has.
        let again = try setup.service.refresh(first.refreshToken!, clientID: nil)
        #expect(again.refreshToken!.exposed != lost.refreshToken!.exposed)
        // The lost token was not lost but stolen (or a second copy used it): reuse, the login ends.
        let error = #expect(throws: LatchkeyError.self) { try setup.service.refresh(lost.refreshToken!, clientID: nil) }
        #expect(error?.cause == .refreshTokenReused)
        #expect(throws: LatchkeyError.self) { try setup.service.refresh(again.refreshToken!, clientID: nil) }
    }

    @Test("the grace ends once the new token was used, after the grace, or when set to 0; then the old token is reuse")
    func reuseGraceLimits() throws {
        let used = try Setup()
        let first = try used.service.issue(for: used.signedIn, clientID: nil, scope: [], origin: .test)
        let second = try used.service.refresh(first.refreshToken!, clientID: nil)
        let third = try used.service.refresh(second.refreshToken!, clientID: nil)
        #expect(throws: LatchkeyError.self) { try used.service.refresh(first.refreshToken!, clientID: nil) }
        #expect(throws: LatchkeyError.self) { try used.service.refresh(third.refreshToken!, clientID: nil) }

        let late = try Setup()
        let start = try late.service.issue(for: late.signedIn, clientID: nil, scope: [], origin: .test)
        let next = try late.service.refresh(start.refreshToken!, clientID: nil)
        late.fixture.clock.advance(by: 10.5)
        #expect(throws: LatchkeyError.self) { try late.service.refresh(start.refreshToken!, clientID: nil) }
        #expect(throws: LatchkeyError.self) { try late.service.refresh(next.refreshToken!, clientID: nil) }

        let strict = try Setup(reuseGrace: 0)
        let begin = try strict.service.issue(for: strict.signedIn, clientID: nil, scope: [], origin: .test)
        _ = try strict.service.refresh(begin.refreshToken!, clientID: nil)
        #expect(throws: LatchkeyError.self) { try strict.service.refresh(begin.refreshToken!, clientID: nil) }
    }

    @Test("a refresh token expires after 7 idle days")
    func idleExpiry() throws {
        let setup = try Setup()
        let tokens = try setup.service.issue(for: setup.signedIn, clientID: nil, scope: [], origin: .test)
        setup.fixture.clock.advance(by: 7 * 86400)
        let error = try #require(throws: LatchkeyError.self) { try setup.service.refresh(tokens.refreshToken!, clientID: nil) }
        #expect(error.code == .invalidToken)
    }

    @Test("after logout, and for junk, a refresh is refused with invalid_token")
    func logoutAndJunk() throws {
        let setup = try Setup()
        let tokens = try setup.service.issue(for: setup.signedIn, clientID: nil, scope: [], origin: .test)
        try setup.service.revoke(tokens.refreshToken!, clientID: nil)
        try setup.service.revoke(tokens.refreshToken!, clientID: nil)
        for token in [tokens.refreshToken!, Redacted("junk"), Redacted(String(repeating: "A", count: 43))] {
            let error = try #require(throws: LatchkeyError.self) { try setup.service.refresh(token, clientID: nil) }
            #expect(error.code == .invalidToken)
        }
    }

    @Test("an account whose credentials changed after it was read gets no login")
    func staleAccount() throws {
        let setup = try Setup()
        let stale = Account(
            id: setup.account.id, email: setup.account.email, passwordHash: setup.account.passwordHash,
            status: .active, credentialVersion: 2, locale: "en", createdAt: setup.account.createdAt)
        let error = try #require(throws: LatchkeyError.self) {
            try setup.service.issue(
                for: SignInService.SignedIn(account: stale, assurance: .signedIn(at: setup.fixture.clock.now())), clientID: nil,
                scope: [], origin: .test)
        }
        #expect(error.code == .invalidToken)
    }
}
