import Foundation
import LatchkeyJOSE
@testable import LatchkeyCore
@testable import LatchkeyStorage
import Synchronization
import LatchkeyTestSupport
import Testing

/// Authorization codes, browser sessions and family lookups every `Store` implementation
/// keeps, run against each one in ``StoreFactory/all``.
@Suite struct AuthorizationStoreContractTests {
    @Test("a code is redeemed once: of 50 racing redeemers exactly one gets tokens", arguments: StoreFactory.all)
    func singleRedemption(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try setUp(fixture)
        let code = try issueCode(in: fixture, for: account)
        let outcomes = Mutex<[String]>([])
        let now = fixture.clock.now()
        runOnThreads(50) { _ in
            let result = try? redeem(store, code.digest, now: now)
            let label =
                switch result {
                case .redeemed: "redeemed"
                case .replayed: "replayed"
                default: "other"
                }
            outcomes.withLock { $0.append(label) }
        }
        let labels = outcomes.withLock { $0 }
        #expect(labels.filter { $0 == "redeemed" }.count == 1)
        #expect(labels.filter { $0 == "replayed" }.count == 49)
    }

    @Test("redeeming returns the code's binding and starts a live family for its client", arguments: StoreFactory.all)
    func redemption(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try setUp(fixture)
        let code = try issueCode(in: fixture, for: account)
        let now = fixture.clock.now()
        let initial = initialToken(now: now)
        let result = try store.redeemAuthorizationCode(digest: code.digest, now: now, refreshToken: initial) { issued in
            issued.clientID == "ios-app" && issued.redirectURI == "com.example.app:/oauth"
        }
        guard case .redeemed(let redeemed, let owner, let token) = result else {
            Issue.record("expected a redemption, got \(result)")
            return
        }
        #expect(redeemed == code)
        #expect(owner == account)
        #expect(token.familyID == initial.familyID)
        #expect(token.clientID == "ios-app")
        #expect(token.scope == ["openid", "email"])
        #expect(try store.usableRefreshToken(digest: initial.digest, now: now)?.token == token)
        #expect(try store.usableRefreshToken(digest: initial.digest, now: now)?.account == account)
        #expect(try store.liveFamilyAccount(familyID: initial.familyID, now: now) == account)
    }

    @Test("a replayed code revokes the family it started", arguments: StoreFactory.all)
    func replayRevokes(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try setUp(fixture)
        let code = try issueCode(in: fixture, for: account)
        let now = fixture.clock.now()
        let initial = initialToken(now: now)
        _ = try redeem(store, code.digest, now: now, startingFamily: initial)

        let replay = try redeem(store, code.digest, now: now)
        #expect(replay == .replayed)
        #expect(try store.liveFamilyAccount(familyID: initial.familyID, now: now) == nil)
        #expect(try store.usableRefreshToken(digest: initial.digest, now: now) == nil)
    }

    @Test("a code presented with the wrong binding is spent without issuing anything", arguments: StoreFactory.all)
    func mismatchBurnsCode(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try setUp(fixture)
        let code = try issueCode(in: fixture, for: account)
        let now = fixture.clock.now()
        let wrong = initialToken(now: now)
        #expect(try store.redeemAuthorizationCode(digest: code.digest, now: now, refreshToken: wrong, accepts: { _ in false }) == .rejected)
        #expect(try !store.revokeFamily(containing: wrong.digest, now: now) { _ in true })  // no such token
        let retry = try redeem(store, code.digest, now: now)
        #expect(retry == .replayed)
    }

    @Test("an expired or unknown code is invalid; so is one whose account changed since", arguments: StoreFactory.all)
    func invalidCodes(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try setUp(fixture)
        let expiring = try issueCode(in: fixture, for: account)
        fixture.clock.advance(by: 61)
        let now = fixture.clock.now()
        #expect(try redeem(store, expiring.digest, now: now) == .invalid)
        #expect(try redeem(store, randomDigest(), now: now) == .invalid)

        let fresh = try issueCode(in: fixture, for: account)
        _ = try store.setStatus(.disabled, email: account.email)
        #expect(try redeem(store, fresh.digest, now: now) == .invalid)
    }

    @Test("a browser session lasts until it expires, and a password reset ends it", arguments: StoreFactory.all)
    func browserSessions(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try setUp(fixture)
        let now = fixture.clock.now()
        let cookie = randomDigest()
        #expect(try store.createBrowserSession(
            digest: cookie, accountID: account.id, credentialVersion: account.credentialVersion, assurance: .signedIn(at: now), now: now,
            expiresAt: now.addingTimeInterval(3600), keeping: 32))
        #expect(try store.browserSession(digest: cookie, now: now)?.account == account)
        #expect(try store.browserSession(digest: randomDigest(), now: now) == nil)
        #expect(try store.browserSession(digest: cookie, now: now.addingTimeInterval(3600)) == nil)
        #expect(try !store.createBrowserSession(
            digest: randomDigest(), accountID: account.id, credentialVersion: account.credentialVersion + 1, assurance: .signedIn(at: now), now: now,
            expiresAt: now.addingTimeInterval(3600), keeping: 32))

        let resetToken = randomDigest()
        try fixture.insertResetToken(resetToken, accountID: account.id, expiresAt: now.addingTimeInterval(600))
        _ = try store.completeReset(digest: resetToken, newPasswordHash: "$argon2id$new", now: now) { changed in
            try MailMessage(
                id: UUID().uuidString.lowercased(), to: changed.email, subject: "Changed", textBody: "Text", htmlBody: "<p>HTML</p>",
                locale: "en")
        }
        #expect(try store.browserSession(digest: cookie, now: now) == nil)
    }

    @Test("an account keeps its most recently started browser sessions up to the limit; one more ends the oldest, not another account's", arguments: StoreFactory.all)
    func browserSessionLimit(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try setUp(fixture)
        let other = Account(
            id: UUID().uuidString.lowercased(), email: "other@example.com", passwordHash: "$argon2id$old",
            status: .active, credentialVersion: 0, locale: "en", createdAt: fixture.clock.now())
        try store.createAccount(other)
        let start = fixture.clock.now()
        let expiresAt = start.addingTimeInterval(3600)
        let others = randomDigest()
        #expect(try store.createBrowserSession(
            digest: others, accountID: other.id, credentialVersion: 0, assurance: .signedIn(at: start), now: start,
            expiresAt: expiresAt, keeping: 3))
        let cookies = (0..<5).map { _ in randomDigest() }
        for (second, cookie) in cookies.enumerated() {
            #expect(try store.createBrowserSession(
                digest: cookie, accountID: account.id, credentialVersion: account.credentialVersion,
                assurance: .signedIn(at: start), now: start.addingTimeInterval(Double(second)), expiresAt: expiresAt, keeping: 3))
        }
        let now = start.addingTimeInterval(10)
        #expect(try cookies.map { try store.browserSession(digest: $0, now: now) != nil } == [false, false, true, true, true])
        #expect(try store.browserSession(digest: others, now: now)?.account == other)

        // Started in the same millisecond, the new session is the one kept.
        let sameInstant = (0..<3).map { _ in randomDigest() }
        for cookie in sameInstant {
            #expect(try store.createBrowserSession(
                digest: cookie, accountID: account.id, credentialVersion: account.credentialVersion,
                assurance: .signedIn(at: now), now: now, expiresAt: expiresAt, keeping: 1))
            #expect(try store.browserSession(digest: cookie, now: now)?.account == account)
        }
        #expect(try (cookies + sameInstant).filter { try store.browserSession(digest: $0, now: now) != nil } == [sameInstant[2]])
        #expect(try store.browserSession(digest: others, now: now)?.account == other)
    }

    @Test("browser sessions started at once for one account keep its limit: of 32 released together, five times, the limit stay live", arguments: StoreFactory.all)
    func browserSessionLimitUnderRace(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try setUp(fixture)
        let now = fixture.clock.now()
        var all: [Data] = []
        for round in 0..<5 {
            let cookies = (0..<32).map { _ in randomDigest() }
            all += cookies
            let created = Mutex(0)
            runOnThreads(cookies.count) { index in
                let stored = try? store.createBrowserSession(
                    digest: cookies[index], accountID: account.id, credentialVersion: account.credentialVersion, assurance: .signedIn(at: now), now: now,
                    expiresAt: now.addingTimeInterval(3600), keeping: 4)
                if stored == true { created.withLock { $0 += 1 } }
            }
            #expect(created.withLock { $0 } == cookies.count, "round \(round)")
            #expect(try all.filter { try store.browserSession(digest: $0, now: now) != nil }.count == 4, "round \(round)")
        }
    }

    @Test("signing a browser out ends its session on every connection, once, and no other browser's", arguments: StoreFactory.all)
    func endBrowserSession(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try setUp(fixture)
        let now = fixture.clock.now()
        let (leaving, staying) = (randomDigest(), randomDigest())
        for cookie in [leaving, staying] {
            #expect(try store.createBrowserSession(
                digest: cookie, accountID: account.id, credentialVersion: account.credentialVersion,
                assurance: .signedIn(at: now), now: now, expiresAt: now.addingTimeInterval(3600), keeping: 32))
        }
        #expect(try store.endBrowserSession(digest: leaving, now: now))
        #expect(try !store.endBrowserSession(digest: leaving, now: now))
        #expect(try !store.endBrowserSession(digest: randomDigest(), now: now))
        #expect(try fixture.openAnother().browserSession(digest: leaving, now: now) == nil)
        #expect(try store.browserSession(digest: staying, now: now)?.account == account)
    }

    @Test("a family is live until revoked, and not at all once its account is disabled", arguments: StoreFactory.all)
    func familyLiveness(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try setUp(fixture)
        let now = fixture.clock.now()
        let revoked = initialToken(now: now)
        _ = try redeem(store, try issueCode(in: fixture, for: account).digest, now: now, startingFamily: revoked)
        let other = initialToken(now: now)
        _ = try redeem(store, try issueCode(in: fixture, for: account).digest, now: now, startingFamily: other)

        try store.revokeFamily(id: revoked.familyID, now: now)
        #expect(try store.liveFamilyAccount(familyID: revoked.familyID, now: now) == nil)
        #expect(try store.liveFamilyAccount(familyID: other.familyID, now: now) == account)
        #expect(try store.liveFamilyAccount(familyID: other.familyID, now: other.absoluteExpiresAt) == nil)

        _ = try store.setStatus(.disabled, email: account.email)
        #expect(try store.liveFamilyAccount(familyID: other.familyID, now: now) == nil)
        #expect(try store.usableRefreshToken(digest: other.digest, now: now) == nil)
        var kept: RefreshTokenRecord?
        #expect(try !store.revokeFamily(containing: other.digest, now: now) { kept = $0; return false })
        #expect(kept?.familyID == other.familyID)
    }

    @Test("purge removes codes that expired before the cutoff", arguments: StoreFactory.all)
    func purge(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try setUp(fixture)
        _ = try issueCode(in: fixture, for: account)
        fixture.clock.advance(by: 3600)
        _ = try issueCode(in: fixture, for: account)
        #expect(try store.purge(before: fixture.clock.now()) == 1)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM authorization_codes") == 1)
    }

    // MARK: Fixtures

    private func setUp(_ fixture: StoreFixture) throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: "person@example.com", passwordHash: "$argon2id$old",
            status: .active, credentialVersion: 2, locale: "en", createdAt: fixture.clock.now())
        try fixture.store.createAccount(account)
        try fixture.store.createClient(OAuthClient(
            id: "ios-app", redirectURIs: [try RedirectURI("com.example.app:/oauth")], isConfidential: false, secretDigest: nil,
            isFirstParty: true, scopes: [], createdAt: fixture.clock.now(), idTokenAlgorithm: .rs256))
        return account
    }

    private func issueCode(in fixture: StoreFixture, for account: Account) throws -> AuthorizationCodeRecord {
        let now = fixture.clock.now()
        let code = AuthorizationCodeRecord(
            digest: randomDigest(), clientID: "ios-app", accountID: account.id, redirectURI: "com.example.app:/oauth",
            codeChallenge: String(repeating: "A", count: 43), scope: ["openid", "email"], nonce: "n-0S6_WzA2Mj",
            credentialVersion: account.credentialVersion,
            assurance: .signedIn(at: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(now))),
            createdAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(now)),
            expiresAt: StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(now.addingTimeInterval(60))))
        try fixture.store.createAuthorizationCode(code)
        return code
    }
}

/// Redeems `digest` at `now` for a request that matches it, starting the family
/// `refreshToken` (a fresh one unless given).
private func redeem(
    _ store: any Store, _ digest: Data, now: Date, startingFamily refreshToken: InitialRefreshToken? = nil
) throws -> AuthorizationCodeRedemption {
    try store.redeemAuthorizationCode(
        digest: digest, now: now, refreshToken: refreshToken ?? initialToken(now: now), accepts: { _ in true })
}

private func initialToken(now: Date) -> InitialRefreshToken {
    InitialRefreshToken(
        digest: randomDigest(), familyID: UUID().uuidString.lowercased(), idleExpiresAt: now.addingTimeInterval(7 * 86400),
        absoluteExpiresAt: now.addingTimeInterval(30 * 86400), liveFamilyLimit: 100, origin: .test)
}
