import Foundation
import LatchkeyCrypto
import LatchkeyPasswordStrength
import LatchkeyTestSupport
import Synchronization
import Testing

@testable import LatchkeyCore
@testable import LatchkeyStorage

/// The second factor on every `Store` implementation in ``StoreFactory/all``: the store's single
/// winners (a time step, a recovery code, a challenge) under real concurrency, and the sign-in
/// method and enrolment over them as a person meets them.
@Suite struct SecondFactorTests {
    @Test("a time step is accepted once: of 16 racing threads one wins, and an earlier step never after", arguments: StoreFactory.all)
    func stepAdvancesOnce(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let account = try harness.enrolledAccount()
        let enrolled = try #require(try harness.store.secondFactor(accountID: account.id)).lastStep
        #expect(enrolled == OneTimePassword.step(at: harness.clock.now()) - 1, "the confirming code's step is spent")
        #expect(try !harness.store.advanceSecondFactorStep(accountID: account.id, to: enrolled))
        let wins = Atomic<Int>(0)
        runOnThreads(16) { _ in
            if (try? harness.store.advanceSecondFactorStep(accountID: account.id, to: enrolled + 2)) == true {
                wins.add(1, ordering: .relaxed)
            }
        }
        #expect(wins.load(ordering: .relaxed) == 1)
        #expect(try !harness.store.advanceSecondFactorStep(accountID: account.id, to: enrolled + 1))
        #expect(try harness.store.advanceSecondFactorStep(accountID: account.id, to: enrolled + 3))
        #expect(try harness.store.secondFactor(accountID: account.id)?.lastStep == enrolled + 3)
    }

    @Test("a recovery code is spent once: of 16 racing uses one wins, and the owner gets one mail", arguments: StoreFactory.all)
    func recoveryCodeOnce(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let (account, codes) = try harness.enrolledAccountWithCodes()
        let wins = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        runOnThreads(16) { _ in
            do {
                try harness.codes.verify(
                    codes[3], account: account, acceptingRecoveryCode: true, clientIP: "198.51.100.7", now: harness.clock.now())
                wins.add(1, ordering: .relaxed)
            } catch {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(wins.load(ordering: .relaxed) == 1)
        #expect(try harness.store.recoveryCodeCount(accountID: account.id) == 9)
        let mails = try harness.mails().filter { $0.subject.contains("recovery code") }
        #expect(mails.count == 1)
        #expect(mails.first?.textBody.contains("You have 9 recovery codes left.") == true)
    }

    @Test("an authenticator code signs in once; the same code again, here or on another server, is refused", arguments: StoreFactory.all)
    func codeNotReplayed(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let account = try harness.enrolledAccount()
        harness.clock.advance(by: 60)
        let code = harness.currentCode()
        try harness.codes.verify(Redacted(code), account: account, acceptingRecoveryCode: true, clientIP: "198.51.100.7", now: harness.clock.now())
        #expect { try harness.codes.verify(Redacted(code), account: account, acceptingRecoveryCode: true, clientIP: "198.51.100.7", now: harness.clock.now()) }
            throws: { ($0 as? LatchkeyError)?.code == .invalidOTP }
        // A second service on the same database, as another instance would be.
        let other = harness.secondInstance()
        #expect { try other.verify(Redacted(code), account: account, acceptingRecoveryCode: true, clientIP: "198.51.100.8", now: harness.clock.now()) }
            throws: { ($0 as? LatchkeyError)?.code == .invalidOTP }
        // The next step's code works.
        harness.clock.advance(by: 30)
        try other.verify(Redacted(harness.currentCode()), account: account, acceptingRecoveryCode: true, clientIP: "198.51.100.8", now: harness.clock.now())
    }

    @Test("32 concurrent wrong codes count at most 5 in 15 minutes; the owner's right code then waits for the window, never longer",
          arguments: StoreFactory.all)
    func wrongCodesLimited(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let account = try harness.enrolledAccount()
        let right = harness.currentCode()
        let wrong = right == "000000" ? "000001" : "000000"
        let refusedAsWrong = Atomic<Int>(0)
        let limited = Atomic<Int>(0)
        runOnThreads(32) { _ in
            do {
                try harness.codes.verify(Redacted(wrong), account: account, acceptingRecoveryCode: true, clientIP: "203.0.113.9", now: harness.clock.now())
            } catch let error as LatchkeyError where error.code == .invalidOTP {
                refusedAsWrong.add(1, ordering: .relaxed)
            } catch let error as LatchkeyError where error.code == .rateLimited {
                limited.add(1, ordering: .relaxed)
            } catch {}
        }
        #expect(refusedAsWrong.load(ordering: .relaxed) == 5)
        #expect(limited.load(ordering: .relaxed) == 27)
        // Now even the right code and a recovery code wait: the same counter.
        #expect { try harness.codes.verify(Redacted(right), account: account, acceptingRecoveryCode: true, clientIP: "192.0.2.1", now: harness.clock.now()) }
            throws: { error in
                guard let error = error as? LatchkeyError, error.code == .rateLimited, let wait = error.retryAfter else { return false }
                return wait <= 900
            }
        harness.clock.advance(by: 901)
        try harness.codes.verify(Redacted(harness.currentCode()), account: account, acceptingRecoveryCode: true, clientIP: "192.0.2.1", now: harness.clock.now())
    }

    @Test("enrolment takes only the pending secret, spends its step, and a second enrolment is refused", arguments: StoreFactory.all)
    func enrolment(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let account = try harness.accountWithPassword()
        let generated = try harness.enrolment.generate(email: account.email, password: Redacted(SecondFactorHarness.password), clientIP: "192.0.2.1")
        let secret = try #require(Base32.decode(generated.secret.exposed))
        #expect(secret.count == 20)
        #expect(generated.provisioningURL.exposed.hasPrefix("otpauth://totp/Example:ana@example.com?secret=\(generated.secret.exposed)&issuer=Example"))
        // The stored secret is sealed: its bytes are nowhere in the row.
        let sealed = try #require(try harness.store.pendingSecondFactor(accountID: account.id, now: harness.clock.now()))
        #expect(!sealed.contains(generated.secret.exposed) && !sealed.contains(Base64URL.encode(secret)))
        let code = OneTimePassword.code(secret: secret, counter: UInt64(OneTimePassword.step(at: harness.clock.now())))
        // A secret of the client's own choosing is refused.
        #expect { try harness.enrolment.enable(.byPasswordStep(accountID: account.id, credentialVersion: account.credentialVersion), account: account, secret: Base32.encode(SecureRandom.bytes(20)), code: Redacted(code), clientIP: "192.0.2.1", acceptLanguage: nil) }
            throws: { ($0 as? LatchkeyError)?.code == .invalidRequest }
        let recovery = try harness.enrolment.enable(
            .byPasswordStep(accountID: account.id, credentialVersion: account.credentialVersion), account: account, secret: generated.secret.exposed.lowercased(), code: Redacted(code), clientIP: "192.0.2.1", acceptLanguage: nil)
        #expect(recovery.count == 10)
        #expect(try harness.store.recoveryCodeCount(accountID: account.id) == 10)
        #expect(try harness.mails().contains { $0.subject.contains("Two-step sign-in is on") })
        // The confirming code is spent.
        #expect { try harness.codes.verify(Redacted(code), account: account, acceptingRecoveryCode: true, clientIP: "192.0.2.1", now: harness.clock.now()) }
            throws: { ($0 as? LatchkeyError)?.code == .invalidOTP }
        #expect { try harness.enrolment.generate(email: account.email, password: Redacted(SecondFactorHarness.password), clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .invalidRequest }
        // Sign-in now needs the code, after the password; a wrong password answers as before.
        #expect { try harness.signIn.signIn(.password(email: account.email, password: Redacted(SecondFactorHarness.password)), clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .invalidOTP }
        #expect { try harness.signIn.signIn(.password(email: account.email, password: Redacted("wrong password here")), code: Redacted(code), clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .invalidCredentials }
        let signedIn = try harness.signIn.signIn(
            .password(email: account.email, password: Redacted(SecondFactorHarness.password)), code: recovery[0], clientIP: "192.0.2.1")
        #expect(signedIn.assurance.methods == [.password, .oneTimePassword])
    }

    @Test("a completed reset leaves the factor: the next sign-in still needs the code", arguments: StoreFactory.all)
    func resetKeepsFactor(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let account = try harness.enrolledAccount()
        #expect(try harness.store.replacePassword(email: account.email, newPasswordHash: try harness.hasher.hash(Redacted("a brand new passphrase")), now: harness.clock.now()))
        #expect { try harness.signIn.signIn(.password(email: account.email, password: Redacted("a brand new passphrase")), clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .invalidOTP }
        #expect(try harness.store.secondFactor(accountID: account.id) != nil)
    }

    @Test("the operator's tfa-reset removes the factor and codes and mails the owner; sign-in needs the password only", arguments: StoreFactory.all)
    func operatorReset(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let (account, _) = try harness.enrolledAccountWithCodes()
        let administration = AccountAdministration(
            store: harness.store, hasher: harness.hasher, policy: PasswordPolicy(), templates: MailTemplates(productName: "Example"), clock: harness.clock)
        try administration.resetSecondFactor(email: account.email)
        #expect(try harness.store.secondFactor(accountID: account.id) == nil)
        #expect(try harness.store.recoveryCodeCount(accountID: account.id) == 0)
        #expect(try harness.mails().contains { $0.subject.contains("Two-step sign-in is off") && $0.textBody.contains("support turned off") })
        #expect { try administration.resetSecondFactor(email: account.email) } throws: { ($0 as? LatchkeyError)?.code == .invalidRequest }
        let signedIn = try harness.signIn.signIn(.password(email: account.email, password: Redacted(SecondFactorHarness.password)), clientIP: "192.0.2.1")
        #expect(signedIn.assurance.methods == [.password])
    }

    @Test("a challenge is taken once, only before it expires, only for its kind, and not after a reset", arguments: StoreFactory.all)
    func challenges(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let account = try harness.enrolledAccount()
        let challenges = SignInChallenges(store: harness.store, clock: harness.clock)
        guard case .needsSecondFactor(let first) = try harness.signIn.begin(
            .password(email: account.email, password: Redacted(SecondFactorHarness.password)), clientIP: "192.0.2.1")
        else {
            Issue.record("the account's sign-in did not ask for the code")
            return
        }
        let token = try challenges.start(first, kind: .signIn)
        let taken = Atomic<Int>(0)
        runOnThreads(8) { _ in
            if (try? challenges.take(token, kind: .signIn)) != nil { taken.add(1, ordering: .relaxed) }
        }
        #expect(taken.load(ordering: .relaxed) == 1)
        let other = try challenges.start(first, kind: .signIn)
        #expect(try challenges.take(other, kind: .enrolment) == nil, "another kind takes it out and gets nothing")
        let late = try challenges.start(first, kind: .signIn)
        harness.clock.advance(by: 301)
        #expect(try challenges.take(late, kind: .signIn) == nil)
        let voided = try challenges.start(first, kind: .signIn)
        _ = try harness.store.replacePassword(email: account.email, newPasswordHash: "$argon2id$new", now: harness.clock.now())
        #expect(try challenges.take(voided, kind: .signIn) == nil)
        #expect(try challenges.take(Redacted("not a token"), kind: .signIn) == nil)
    }

    @Test("with a factor, a recent sign-in without it, or the password without the code, changes nothing", arguments: StoreFactory.all)
    func reauthentication(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let account = try harness.enrolledAccount()
        let rule = Reauthentication(signIn: harness.signIn, clock: harness.clock)
        let recentPasswordOnly = Assurance(methods: [.password], authTime: harness.clock.now())
        #expect { try rule.confirm(account: account, assurance: recentPasswordOnly, currentPassword: nil, clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .reauthenticationRequired }
        #expect { try rule.confirm(account: account, assurance: recentPasswordOnly, currentPassword: Redacted(SecondFactorHarness.password), clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .invalidOTP }
        try rule.confirm(account: account, assurance: Assurance(methods: [.password, .oneTimePassword], authTime: harness.clock.now()), currentPassword: nil, clientIP: "192.0.2.1")
        harness.clock.advance(by: 60)
        try rule.confirm(
            account: account, assurance: recentPasswordOnly, currentPassword: Redacted(SecondFactorHarness.password),
            code: Redacted(harness.currentCode()), clientIP: "192.0.2.1")
        harness.clock.advance(by: 301)
        #expect { try rule.confirm(account: account, assurance: Assurance(methods: [.password, .oneTimePassword], authTime: harness.clock.now().addingTimeInterval(-301)), currentPassword: nil, clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .reauthenticationRequired }
    }

    @Test("expired pending secrets and challenges are purged; deleting the account takes every row with it", arguments: StoreFactory.all)
    func purgeAndDeletion(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let (account, _) = try harness.enrolledAccountWithCodes()
        try harness.store.savePendingSecondFactor(accountID: account.id, sealedSecret: "v1.x.y", now: harness.clock.now(), expiresAt: harness.clock.now().addingTimeInterval(600))
        try harness.store.createSignInChallenge(SignInChallengeRecord(
            digest: String(repeating: "a", count: 64), kind: .signIn, accountID: account.id, credentialVersion: 1, createdAt: harness.clock.now(),
            expiresAt: harness.clock.now().addingTimeInterval(300)))
        #expect(try harness.store.purge(before: harness.clock.now().addingTimeInterval(601)) >= 2)
        #expect(try harness.store.pendingSecondFactor(accountID: account.id, now: harness.clock.now()) == nil)
        #expect(try harness.store.deleteAccount(email: account.email))
        #expect(try harness.store.secondFactor(accountID: account.id) == nil)
        #expect(try harness.store.recoveryCodeCount(accountID: account.id) == 0)
    }
}

/// A store with an account, a password sign-in and the one-time code method over it, as the
/// server wires them, timed by a manual clock.
final class SecondFactorHarness: Sendable {
    static let password = "correct horse battery staple"

    let fixture: StoreFixture
    let store: any Store
    let hasher = PasswordHasher(parameters: .owaspMinimum)
    let secretBox: SecretBox
    let limiter = LocalRateLimiter()
    let codes: OneTimeCodeSignIn
    let signIn: SignInService
    let enrolment: AuthenticatorEnrolment
    /// The secret of the account ``enrolledAccount()`` made.
    let secret = Mutex<Data>(Data())

    var clock: ManualClock { fixture.clock }

    init(_ factory: StoreFactory) throws {
        fixture = try factory.make()
        store = try fixture.migratedStore()
        secretBox = try SecretBox(key: Redacted(SecureRandom.bytes(32)))
        let logger = Logger(sink: MemoryLogSink())
        let templates = MailTemplates(productName: "Example")
        codes = OneTimeCodeSignIn(
            store: store, secretBox: secretBox, limiter: limiter, templates: templates, logger: logger, metrics: ServerMetrics(version: "test"))
        let key = Redacted(Data(repeating: 7, count: 32))
        signIn = SignInService(
            methods: [
                PasswordSignIn(
                    store: store, hasher: hasher, limiter: limiter, limits: .init(attemptsPerIP: .init(limit: 1000, seconds: 60)),
                    costs: VerificationCostProfile(hasher: hasher, key: key), addressKey: key, logger: logger,
                    metrics: ServerMetrics(version: "test"))
            ],
            secondFactors: [codes], clock: fixture.clock)
        enrolment = AuthenticatorEnrolment(
            store: store, signIn: signIn, codes: codes, secretBox: secretBox, templates: templates, issuer: "Example", clock: fixture.clock,
            logger: logger)
    }

    /// The same method on the same database with its own limiter: another server.
    func secondInstance() -> OneTimeCodeSignIn {
        OneTimeCodeSignIn(
            store: store, secretBox: secretBox, limiter: LocalRateLimiter(), templates: MailTemplates(), logger: Logger(sink: MemoryLogSink()),
            metrics: ServerMetrics(version: "test"))
    }

    /// An active account `ana@example.com` with ``password``.
    func accountWithPassword() throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: "ana@example.com", passwordHash: try hasher.hash(Redacted(Self.password)),
            status: .active, credentialVersion: 1, locale: nil, createdAt: clock.now())
        try store.createAccount(account)
        return account
    }

    /// ``accountWithPassword()`` with an authenticator enrolled a minute ago (its step spent).
    func enrolledAccount() throws -> Account {
        try enrolledAccountWithCodes().account
    }

    /// ``enrolledAccount()`` and its recovery codes.
    func enrolledAccountWithCodes() throws -> (account: Account, codes: [Redacted<String>]) {
        let account = try accountWithPassword()
        let generated = try enrolment.generate(email: account.email, password: Redacted(Self.password), clientIP: "192.0.2.1")
        secret.withLock { $0 = Base32.decode(generated.secret.exposed) ?? Data() }
        let codes = try enrolment.enable(
            .byPasswordStep(accountID: account.id, credentialVersion: account.credentialVersion), account: account, secret: nil, code: Redacted(currentCode()), clientIP: "192.0.2.1", acceptLanguage: nil)
        clock.advance(by: 30)
        return (try store.account(id: account.id) ?? account, codes)
    }

    /// The enrolled authenticator's code now.
    func currentCode() -> String {
        OneTimePassword.code(secret: secret.withLock { $0 }, counter: UInt64(OneTimePassword.step(at: clock.now())))
    }

    /// Every queued mail.
    func mails() throws -> [MailMessage] {
        try store.leaseDueMail(now: clock.now().addingTimeInterval(3600), lease: 1, limit: 100).map(\.message)
    }
}
