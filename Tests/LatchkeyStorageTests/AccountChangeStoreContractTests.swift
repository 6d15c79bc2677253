import Foundation
import LatchkeyJOSE
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Testing

/// The changes a signed-in person makes to their own account — the list of live logins,
/// ending one, a new password, deleting the account — on every `Store` implementation in
/// ``StoreFactory/all``.
@Suite struct AccountChangeStoreContractTests {
    @Test("the live logins are listed most recently used first, with where they started, kept across rotations",
          arguments: StoreFactory.all)
    func liveLogins(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let store = harness.store
        let account = try harness.account("person@example.com")
        let other = try harness.account("other@example.com")
        let started = harness.now
        let phone = LoginOrigin(ip: "198.51.100.0", userAgent: "Safari on iOS")
        let first = try harness.login(for: account, origin: phone)
        harness.clock.advance(by: 60)
        let second = try harness.login(for: account, clientID: "ios-app", origin: .test)
        let revoked = try harness.login(for: account)
        try store.revokeFamily(id: revoked.familyID, now: harness.now)
        let expiring = try harness.login(for: account, idle: 10)
        let others = try harness.login(for: other)
        try harness.browserSession(for: account)
        harness.clock.advance(by: 60)
        let rotatedAt = harness.now
        guard case .rotated = try store.rotateRefreshToken(
            presentedDigest: first.digest, newDigest: randomDigest(), now: rotatedAt, idleTTL: 86400, reuseGrace: 0,
            accepts: { _ in true })
        else {
            Issue.record("the first login was not rotated")
            return
        }

        let logins = try store.liveLogins(accountID: account.id, now: harness.now)
        #expect(logins.map(\.id) == [first.familyID, second.familyID])
        #expect(logins.map(\.origin) == [phone, .test])
        #expect(logins.map(\.clientID) == [nil, "ios-app"])
        #expect(logins[0].signedInAt == AccountHarness.stored(started))
        #expect(logins[0].lastUsedAt == AccountHarness.stored(rotatedAt))
        #expect(logins[1].lastUsedAt == AccountHarness.stored(second.createdAt))
        #expect(!logins.map(\.id).contains(expiring.familyID))
        #expect(try store.liveLogins(accountID: other.id, now: harness.now).map(\.id) == [others.familyID])
    }

    @Test("a login started by redeeming a code keeps where it was redeemed from, and its client", arguments: StoreFactory.all)
    func redeemedCodeOrigin(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let store = harness.store
        let account = try harness.account("person@example.com")
        try store.createClient(OAuthClient(
            id: "ios-app", redirectURIs: [try RedirectURI("com.example.app:/oauth")], isConfidential: false, secretDigest: nil,
            isFirstParty: true, scopes: [], createdAt: harness.now, idTokenAlgorithm: .rs256))
        let code = AuthorizationCodeRecord(
            digest: randomDigest(), clientID: "ios-app", accountID: account.id, redirectURI: "com.example.app:/oauth",
            codeChallenge: String(repeating: "A", count: 43), scope: [], nonce: nil, credentialVersion: 0,
            assurance: .signedIn(at: harness.now), createdAt: harness.now, expiresAt: harness.now.addingTimeInterval(60))
        try store.createAuthorizationCode(code)
        let app = LoginOrigin(ip: "198.51.100.0", userAgent: "MyApp")
        let familyID = UUID().uuidString.lowercased()
        guard case .redeemed = try store.redeemAuthorizationCode(
            digest: code.digest, now: harness.now,
            refreshToken: InitialRefreshToken(
                digest: randomDigest(), familyID: familyID, idleExpiresAt: harness.now.addingTimeInterval(86400),
                absoluteExpiresAt: harness.now.addingTimeInterval(30 * 86400), liveFamilyLimit: 100, origin: app),
            accepts: { _ in true })
        else {
            Issue.record("the code was not redeemed")
            return
        }
        let logins = try store.liveLogins(accountID: account.id, now: harness.now)
        #expect(logins.map(\.id) == [familyID])
        #expect(logins.first?.origin == app)
        #expect(logins.first?.clientID == "ios-app")
    }

    @Test("ending a login ends that one only, and only if it is a live login of the account", arguments: StoreFactory.all)
    func endLogin(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let store = harness.store
        let account = try harness.account("person@example.com")
        let other = try harness.account("other@example.com")
        let kept = try harness.login(for: account)
        let ended = try harness.login(for: account)
        let others = try harness.login(for: other)

        #expect(try !store.endLogin(id: others.familyID, accountID: account.id, now: harness.now))
        #expect(try !store.endLogin(id: "no-such-login", accountID: account.id, now: harness.now))
        #expect(try store.endLogin(id: ended.familyID, accountID: account.id, now: harness.now))
        #expect(try !store.endLogin(id: ended.familyID, accountID: account.id, now: harness.now))
        #expect(try store.liveFamily(familyID: ended.familyID, now: harness.now) == nil)
        #expect(try store.liveFamily(familyID: kept.familyID, now: harness.now) != nil)
        #expect(try store.liveFamily(familyID: others.familyID, now: harness.now) != nil)
        #expect(try store.liveLogins(accountID: account.id, now: harness.now).map(\.id) == [kept.familyID])
    }

    @Test("a new password keeps the login that set it, ends every other login and browser session, supersedes reset tokens and queues the notice",
          arguments: StoreFactory.all)
    func changePassword(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let store = harness.store
        let account = try harness.account("person@example.com")
        let bystander = try harness.account("other@example.com")
        let kept = try harness.login(for: account)
        let other = try harness.login(for: account)
        let bystanders = try harness.login(for: bystander)
        let browser = try harness.browserSession(for: account)
        let resetToken = randomDigest()
        try harness.fixture.insertResetToken(resetToken, accountID: account.id, expiresAt: harness.now.addingTimeInterval(3600))

        let changed = try #require(try store.changePassword(
            login: harness.reference(kept), newPasswordHash: "$argon2id$new", now: harness.now,
            notification: { try noticeMail(to: $0.email) }))
        #expect(changed.passwordHash == "$argon2id$new")
        #expect(changed.credentialVersion == account.credentialVersion + 1)
        #expect(try store.liveFamily(familyID: kept.familyID, now: harness.now)?.account == changed)
        #expect(try store.liveFamily(familyID: other.familyID, now: harness.now) == nil)
        #expect(try store.browserSession(digest: browser, now: harness.now) == nil)
        #expect(try store.usableResetToken(digest: resetToken, now: harness.now) == nil)
        #expect(try store.liveFamily(familyID: bystanders.familyID, now: harness.now) != nil)
        #expect(try harness.mailCount(to: account.email) == 1)
        // The kept login refreshes on, in the new credential version.
        guard case .rotated(let successor, _) = try store.rotateRefreshToken(
            presentedDigest: kept.digest, newDigest: randomDigest(), now: harness.now, idleTTL: 86400, reuseGrace: 0,
            accepts: { _ in true })
        else {
            Issue.record("the kept login was not rotated")
            return
        }
        #expect(successor.credentialVersion == changed.credentialVersion)

        // A reference to the old credential version, or to an ended login, changes nothing.
        #expect(try store.changePassword(
            login: harness.reference(kept), newPasswordHash: "$argon2id$stale", now: harness.now,
            notification: { try noticeMail(to: $0.email) }) == nil)
        #expect(try store.changePassword(
            login: LoginReference(accountID: account.id, familyID: other.familyID, credentialVersion: changed.credentialVersion),
            newPasswordHash: "$argon2id$ended", now: harness.now, notification: { try noticeMail(to: $0.email) }) == nil)
        #expect(try store.account(id: account.id)?.passwordHash == "$argon2id$new")
        #expect(try harness.mailCount(to: account.email) == 1)
    }

    @Test("deleting an account removes every row holding its id or address, ends its tokens and queues only the confirmation",
          arguments: StoreFactory.all)
    func deleteAccount(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let store = harness.store
        let account = try harness.account("person@example.com")
        let bystander = try harness.account("other@example.com")
        let login = try harness.login(for: account)
        let second = try harness.login(for: account)
        let bystanders = try harness.login(for: bystander)
        try harness.browserSession(for: account)
        try harness.fixture.insertResetToken(randomDigest(), accountID: account.id, expiresAt: harness.now.addingTimeInterval(3600))
        try store.createClient(OAuthClient(
            id: "ios-app", redirectURIs: [try RedirectURI("com.example.app:/oauth")], isConfidential: false, secretDigest: nil,
            isFirstParty: true, scopes: [], createdAt: harness.now, idTokenAlgorithm: .rs256))
        try store.createAuthorizationCode(AuthorizationCodeRecord(
            digest: randomDigest(), clientID: "ios-app", accountID: account.id, redirectURI: "com.example.app:/oauth",
            codeChallenge: String(repeating: "A", count: 43), scope: [], nonce: nil, credentialVersion: 0,
            assurance: .signedIn(at: harness.now), createdAt: harness.now, expiresAt: harness.now.addingTimeInterval(60)))
        #expect(try store.requestEmailChange(
            login: harness.reference(login), confirmation: harness.confirmation(of: account, to: "new@example.com"),
            mail: try noticeMail(to: "new@example.com"), now: harness.now))
        let request = PendingResetRequest(email: account.email, resetURL: nil, locale: nil, acceptLanguage: nil, acceptedAt: harness.now)
        guard case .success = store.acceptResetRequest(request).wait() else {
            Issue.record("the reset request was not stored")
            return
        }
        try store.enqueue(try noticeMail(to: account.email), now: harness.now)

        let deleted = try #require(try store.deleteAccount(
            login: harness.reference(login), now: harness.now, notification: { try noticeMail(to: $0.email, subject: "Deleted") }))
        #expect(deleted == account)
        for table in ["sessions", "reset_tokens", "authorization_codes", "email_change_tokens"] {
            #expect(try harness.fixture.integer("SELECT COUNT(*) AS value FROM \(table) WHERE account_id = '\(account.id)'") == 0, "\(table)")
        }
        #expect(try harness.fixture.integer("SELECT COUNT(*) AS value FROM accounts WHERE id = '\(account.id)'") == 0)
        #expect(try harness.fixture.integer("SELECT COUNT(*) AS value FROM reset_requests WHERE email = '\(account.email)'") == 0)
        #expect(try harness.fixture.integer(
            "SELECT COUNT(*) AS value FROM outbox WHERE recipient = '\(account.email)' AND subject = 'Deleted'") == 1)
        #expect(try harness.mailCount(to: account.email) == 1)
        #expect(try store.liveFamily(familyID: second.familyID, now: harness.now) == nil)
        #expect(try store.liveFamily(familyID: bystanders.familyID, now: harness.now) != nil)
        #expect(try store.deleteAccount(login: harness.reference(login), now: harness.now, notification: { try noticeMail(to: $0.email) }) == nil)
        // The address is free again.
        _ = try harness.account("person@example.com")
    }

    @Test("a login that ended deletes nothing: not even the pending reset requests the deletion takes first", arguments: StoreFactory.all)
    func deleteNeedsALiveLogin(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let store = harness.store
        let account = try harness.account("person@example.com")
        let login = try harness.login(for: account)
        try store.revokeFamily(id: login.familyID, now: harness.now)
        let request = PendingResetRequest(email: account.email, resetURL: nil, locale: nil, acceptLanguage: nil, acceptedAt: harness.now)
        guard case .success = store.acceptResetRequest(request).wait() else {
            Issue.record("the reset request was not stored")
            return
        }

        #expect(try store.deleteAccount(login: harness.reference(login), now: harness.now, notification: { try noticeMail(to: $0.email) }) == nil)
        #expect(try store.account(id: account.id) == account)
        #expect(try harness.fixture.integer("SELECT COUNT(*) AS value FROM reset_requests WHERE email = '\(account.email)'") == 1)
        #expect(try harness.mailCount(to: account.email) == 0)
    }
}

/// A migrated store with the accounts, logins and tokens the account contract tests start from.
struct AccountHarness {
    let fixture: StoreFixture
    let store: any Store

    init(_ factory: StoreFactory) throws {
        fixture = try factory.make()
        store = try fixture.migratedStore()
    }

    var clock: ManualClock { fixture.clock }
    var now: Date { fixture.clock.now() }

    /// `date` as a store gives it back (to the millisecond).
    static func stored(_ date: Date) -> Date {
        StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(date))
    }

    /// A new active account with the address `email`.
    func account(_ email: String) throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: "$argon2id$old", status: .active,
            credentialVersion: 0, locale: "en", createdAt: Self.stored(now))
        try store.createAccount(account)
        return account
    }

    /// A new login of `account`, now, from `origin`, its token valid `idle` seconds unless rotated.
    func login(for account: Account, clientID: String? = nil, origin: LoginOrigin = .test, idle: TimeInterval = 86400) throws
        -> RefreshTokenRecord
    {
        try createLogin(of: account.id, in: store, now: now, clientID: clientID, origin: origin, idle: idle)
    }

    /// A new browser session of `account`; returns its cookie's digest.
    @discardableResult
    func browserSession(for account: Account) throws -> Data {
        let digest = randomDigest()
        let current = try #require(try store.account(id: account.id))
        #expect(try store.createBrowserSession(
            digest: digest, accountID: account.id, credentialVersion: current.credentialVersion, assurance: .signedIn(at: now),
            now: now, expiresAt: now.addingTimeInterval(3600), keeping: 32))
        return digest
    }

    /// The reference of `login`, with its credential version.
    func reference(_ login: RefreshTokenRecord) -> LoginReference {
        LoginReference(accountID: login.accountID, familyID: login.familyID, credentialVersion: login.credentialVersion)
    }

    /// A confirmation token moving `account` from its current address to `newEmail`.
    func confirmation(of account: Account, to newEmail: String) throws -> EmailChangeToken {
        let current = try #require(try store.account(id: account.id))
        return EmailChangeToken(
            digest: randomDigest(), kind: .confirm, accountID: account.id, oldEmail: current.email, newEmail: newEmail,
            createdAt: now, expiresAt: now.addingTimeInterval(86400))
    }

    /// How many mails the outbox holds for `recipient`, with the subject `subject` when one is given.
    func mailCount(to recipient: String, subject: String? = nil) throws -> Int {
        try fixture.integer(
            "SELECT COUNT(*) AS value FROM outbox WHERE recipient = '\(recipient)'" + (subject.map { " AND subject = '\($0)'" } ?? ""))
    }
}

/// A mail to `recipient`.
func noticeMail(to recipient: String, subject: String = "Notice") throws -> MailMessage {
    try MailMessage(
        id: UUID().uuidString.lowercased(), to: recipient, subject: subject, textBody: "Text", htmlBody: "<p>HTML</p>", locale: "en")
}
