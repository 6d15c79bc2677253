import Foundation
import LatchkeyCrypto
import LatchkeyTestSupport
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Synchronization
import Testing

@testable import LatchkeyCore
@testable import LatchkeyStorage

/// Passkeys on every `Store` implementation in ``StoreFactory/all``: the services as the server
/// wires them (registration, sign-in through ``SignInService``, list, rename, delete), the
/// challenges' single use and five minutes under a manual clock, and the store's single winners
/// under real concurrency.
@Suite struct PasskeyTests {
    @Test("a passkey registers and signs in, as hwk and user, without the second factor's code", arguments: StoreFactory.all)
    func ceremony(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        for algorithm in [SoftwareAuthenticator.Algorithm.es256, .edDSA] {
            let account = try harness.accountWithPassword(email: "\(algorithm)@example.com")
            let authenticator = try harness.register(for: account, algorithm: algorithm, name: "  Work phone ")
            let listed = try harness.management.passkeys(of: harness.recentOwner(account))
            #expect(listed.map(\.name) == ["Work phone"])
            #expect(listed.first?.credential.algorithm == authenticator.algorithm)
            #expect(listed.first?.lastUsedAt == nil)
            harness.clock.advance(by: 60)
            let signedIn = try harness.signIn.signIn(.passkey(try harness.assertion(authenticator)), clientIP: "192.0.2.1")
            #expect(signedIn.account.id == account.id)
            #expect(signedIn.assurance.methods.map(\.rawValue) == ["hwk", "user"])
            #expect(signedIn.assurance.includesSecondFactor)
            #expect(try harness.store.passkey(credentialID: authenticator.credentialID)?.lastUsedAt == harness.clock.now())
        }
        // An account with a second factor enrolled needs no code after a passkey.
        let account = try harness.accountWithPassword(email: "tfa@example.com")
        let authenticator = try harness.register(for: account, algorithm: .es256)
        try harness.enrolSecondFactor(account)
        #expect(try harness.signIn.requiresSecondFactor(account))
        let signedIn = try harness.signIn.signIn(.passkey(try harness.assertion(authenticator)), clientIP: "192.0.2.1")
        #expect(signedIn.account.id == account.id)
    }

    @Test("a challenge is accepted until five minutes have passed, then never", arguments: StoreFactory.all)
    func challengeExpires(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        let account = try harness.accountWithPassword()
        let authenticator = try harness.register(for: account, algorithm: .es256)
        let late = try harness.assertion(authenticator)
        harness.clock.advance(by: 300)
        #expect { try harness.signIn.signIn(.passkey(late), clientIP: "192.0.2.1") } throws: { ($0 as? LatchkeyError)?.code == .invalidCredentials }
        let inTime = try harness.assertion(authenticator)
        harness.clock.advance(by: 299)
        _ = try harness.signIn.signIn(.passkey(inTime), clientIP: "192.0.2.1")
        // A registration's challenge, too.
        let owner = try harness.recentOwner(account)
        let options = try harness.management.registrationOptions(owner, currentPassword: nil, code: nil, clientIP: "192.0.2.1")
        harness.clock.advance(by: 300)
        let second = SoftwareAuthenticator(algorithm: .edDSA, userHandle: options.userHandle)
        #expect { try harness.management.register(harness.recentOwner(account), response: second.register(.init(challenge: options.challenge)), name: nil, acceptLanguage: nil) }
            throws: { ($0 as? LatchkeyError)?.reasons == ["challenge_not_found"] }
    }

    @Test("an assertion is accepted once: of 16 racing uses of one challenge one signs in, here or on another server", arguments: StoreFactory.all)
    func singleUse(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        let account = try harness.accountWithPassword()
        let authenticator = try harness.register(for: account, algorithm: .edDSA)
        let assertion = try harness.assertion(authenticator)
        let other = harness.secondInstance()
        let wins = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        runOnThreads(16) { index in
            do {
                _ = try (index.isMultiple(of: 2) ? harness.signIn : other).signIn(.passkey(assertion), clientIP: "192.0.2.\(index + 1)")
                wins.add(1, ordering: .relaxed)
            } catch let error as LatchkeyError where error.code == .invalidCredentials {
                refused.add(1, ordering: .relaxed)
            } catch {}
        }
        #expect(wins.load(ordering: .relaxed) == 1)
        #expect(refused.load(ordering: .relaxed) == 15)
        #expect { try harness.signIn.signIn(.passkey(assertion), clientIP: "192.0.2.1") } throws: { ($0 as? LatchkeyError)?.code == .invalidCredentials }
    }

    @Test("every failed check is the one invalid_credentials; the reason is logged", arguments: StoreFactory.all)
    func failuresAlike(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        let account = try harness.accountWithPassword()
        let authenticator = try harness.register(for: account, algorithm: .es256)
        let cases: [(String, (inout SoftwareAuthenticator.Ceremony) -> Void)] = [
            ("origin_not_allowed", { $0.origin = "https://evil.example" }),
            ("rp_id_mismatch", { $0.rpID = "evil.example" }),
            ("user_not_verified", { $0.flags.remove(.userVerified) }),
            ("user_not_present", { $0.flags.remove(.userPresent) }),
            ("user_handle_mismatch", { $0.userHandle = SecureRandom.bytes(32) }),
        ]
        for (reason, change) in cases {
            var ceremony = SoftwareAuthenticator.Ceremony(challenge: try harness.signIn(options: "192.0.2.1"))
            change(&ceremony)
            #expect { try harness.signIn.signIn(.passkey(authenticator.authenticate(ceremony)), clientIP: "192.0.2.1") }
                throws: { ($0 as? LatchkeyError)?.code == .invalidCredentials }
            #expect(harness.logs.contains { $0.contains("passkey_sign_in_failed") && $0.contains(reason) }, "\(reason)")
        }
        // A tampered signature.
        let good = try harness.assertion(authenticator)
        var signature = good.signature
        signature[signature.count - 1] ^= 1
        let tampered = AuthenticationResponse(
            credentialID: good.credentialID, clientDataJSON: good.clientDataJSON, authenticatorData: good.authenticatorData,
            signature: signature, userHandle: good.userHandle)
        #expect { try harness.signIn.signIn(.passkey(tampered), clientIP: "192.0.2.1") } throws: { ($0 as? LatchkeyError)?.code == .invalidCredentials }
        // A credential no account has, and a registration's challenge used to sign in.
        let stranger = SoftwareAuthenticator(algorithm: .es256)
        #expect { try harness.signIn.signIn(.passkey(stranger.authenticate(.init(challenge: try harness.signIn(options: "192.0.2.1")))), clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .invalidCredentials }
        let registration = try harness.management.registrationOptions(harness.recentOwner(account), currentPassword: nil, code: nil, clientIP: "192.0.2.1")
        #expect { try harness.signIn.signIn(.passkey(authenticator.authenticate(.init(challenge: registration.challenge))), clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .invalidCredentials }
        #expect(harness.logs.contains { $0.contains("unknown_credential") })
    }

    @Test("a credential ID is registered once across all accounts; a registration challenge is its account's only", arguments: StoreFactory.all)
    func uniqueAcrossAccounts(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        let ana = try harness.accountWithPassword(email: "ana@example.com")
        let bea = try harness.accountWithPassword(email: "bea@example.com")
        let authenticator = try harness.register(for: ana, algorithm: .es256)
        let options = try harness.management.registrationOptions(harness.recentOwner(bea), currentPassword: nil, code: nil, clientIP: "192.0.2.1")
        let again = authenticator.register(.init(challenge: options.challenge))
        #expect { try harness.management.register(harness.recentOwner(bea), response: again, name: nil, acceptLanguage: nil) } throws: { ($0 as? LatchkeyError)?.code == .passkeyExists }
        // Bea's challenge does not register for Ana.
        let options2 = try harness.management.registrationOptions(harness.recentOwner(bea), currentPassword: nil, code: nil, clientIP: "192.0.2.1")
        let fresh = SoftwareAuthenticator(algorithm: .edDSA)
        #expect { try harness.management.register(harness.recentOwner(ana), response: fresh.register(.init(challenge: options2.challenge)), name: nil, acceptLanguage: nil) }
            throws: { ($0 as? LatchkeyError)?.reasons == ["challenge_not_found"] }
        #expect(try harness.store.passkeys(accountID: bea.id).isEmpty)
    }

    @Test("adding a passkey needs a recent sign-in, with the second factor when one is enrolled", arguments: StoreFactory.all)
    func registrationReauthenticates(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        let account = try harness.accountWithPassword()
        let old = AccountOwner(
            account: account, login: LoginReference(accountID: account.id, familyID: "f", credentialVersion: 1),
            assurance: Assurance(methods: [.password], authTime: harness.clock.now().addingTimeInterval(-301)))
        #expect { try harness.management.registrationOptions(old, currentPassword: nil, code: nil, clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .reauthenticationRequired }
        _ = try harness.management.registrationOptions(old, currentPassword: Redacted(PasskeyHarness.password), code: nil, clientIP: "192.0.2.1")
        try harness.enrolSecondFactor(account)
        #expect { try harness.management.registrationOptions(harness.recentOwner(account), currentPassword: nil, code: nil, clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .reauthenticationRequired }
        let afterPasskey = AccountOwner(
            account: account, login: LoginReference(accountID: account.id, familyID: "f", credentialVersion: 1),
            assurance: Assurance(methods: [.hardwareKey, .userVerification], authTime: harness.clock.now()))
        _ = try harness.management.registrationOptions(afterPasskey, currentPassword: nil, code: nil, clientIP: "192.0.2.1")
    }

    @Test("the last way to sign in cannot be deleted; rename and delete find only the account's own", arguments: StoreFactory.all)
    func lastWayIn(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        let account = try harness.accountWithPassword()
        let first = try harness.register(for: account, algorithm: .es256)
        harness.clock.advance(by: 1)
        let second = try harness.register(for: account, algorithm: .edDSA)
        let owner = try harness.recentOwner(account)
        #expect(try harness.management.passkeys(of: owner).map(\.credential.id) == [second.credentialID, first.credentialID])
        let renamed = try harness.management.rename(first.credentialID, of: owner, to: "Laptop")
        #expect(renamed.name == "Laptop")
        #expect { try harness.management.rename(first.credentialID, of: owner, to: "a\u{7}b") } throws: { ($0 as? LatchkeyError)?.code == .invalidRequest }
        // Another account cannot touch it.
        let other = try harness.accountWithPassword(email: "bea@example.com")
        #expect { try harness.management.rename(first.credentialID, of: harness.recentOwner(other), to: "Mine") }
            throws: { ($0 as? LatchkeyError)?.code == .passkeyNotFound }
        #expect { try harness.management.delete(first.credentialID, of: harness.recentOwner(other), currentPassword: nil, code: nil, clientIP: "192.0.2.1", acceptLanguage: nil) }
            throws: { ($0 as? LatchkeyError)?.code == .passkeyNotFound }
        // Without a password, the last passkey stays.
        try harness.fixture.execute("UPDATE accounts SET password_hash = NULL WHERE id = '\(account.id)'")
        let passwordless = try #require(try harness.store.account(id: account.id))
        try harness.management.delete(second.credentialID, of: harness.recentOwner(passwordless), currentPassword: nil, code: nil, clientIP: "192.0.2.1", acceptLanguage: nil)
        #expect { try harness.management.delete(first.credentialID, of: harness.recentOwner(passwordless), currentPassword: nil, code: nil, clientIP: "192.0.2.1", acceptLanguage: nil) }
            throws: { ($0 as? LatchkeyError)?.code == .lastSignInMethod }
        // A deleted passkey signs in no more; the account's deletion takes the rest.
        #expect { try harness.signIn.signIn(.passkey(try harness.assertion(second)), clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .invalidCredentials }
        #expect(try harness.store.deleteAccount(email: account.email))
        #expect(try harness.store.passkey(credentialID: first.credentialID) == nil)
        #expect(try harness.fixture.integer("SELECT COUNT(*) AS value FROM passkey_users") == 0)
    }

    @Test("the sign count is kept at its highest; one that did not advance is logged and signs in", arguments: StoreFactory.all)
    func signCount(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        let account = try harness.accountWithPassword()
        var authenticator = try harness.register(for: account, algorithm: .es256)
        authenticator.signCount = 7
        _ = try harness.signIn.signIn(.passkey(try harness.assertion(authenticator)), clientIP: "192.0.2.1")
        #expect(try harness.store.passkey(credentialID: authenticator.credentialID)?.credential.signCount == 7)
        authenticator.signCount = 3
        _ = try harness.signIn.signIn(.passkey(try harness.assertion(authenticator)), clientIP: "192.0.2.1")
        #expect(try harness.store.passkey(credentialID: authenticator.credentialID)?.credential.signCount == 7)
        #expect(harness.logs.contains { $0.contains("passkey_sign_count_not_advanced") })
    }

    @Test("an account holds at most 20 passkeys, however many register at once", arguments: StoreFactory.all)
    func limit(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        let account = try harness.accountWithPassword()
        for _ in 0..<18 { _ = try harness.register(for: account, algorithm: .edDSA) }
        let owner = try harness.recentOwner(account)
        let responses = try (0..<4).map { _ in
            let options = try harness.management.registrationOptions(owner, currentPassword: nil, code: nil, clientIP: "192.0.2.1")
            return SoftwareAuthenticator(algorithm: .edDSA, userHandle: options.userHandle).register(.init(challenge: options.challenge))
        }
        let limited = Atomic<Int>(0)
        runOnThreads(4) { index in
            do {
                _ = try harness.management.register(owner, response: responses[index], name: nil, acceptLanguage: nil)
            } catch let error as LatchkeyError where error.code == .passkeyLimitReached {
                limited.add(1, ordering: .relaxed)
            } catch {}
        }
        #expect(limited.load(ordering: .relaxed) == 2)
        #expect(try harness.store.passkeys(accountID: account.id).count == 20)
        #expect { try harness.management.registrationOptions(owner, currentPassword: nil, code: nil, clientIP: "192.0.2.1") }
            throws: { ($0 as? LatchkeyError)?.code == .passkeyLimitReached }
    }

    @Test("options are limited per address: past the limit 429 with a wait", arguments: StoreFactory.all)
    func optionsLimited(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        for _ in 0..<30 { _ = try harness.signIn(options: "203.0.113.5") }
        #expect { try harness.signIn(options: "203.0.113.5") } throws: { ($0 as? LatchkeyError)?.code == .rateLimited && ($0 as? LatchkeyError)?.retryAfter != nil }
        _ = try harness.signIn(options: "203.0.113.6")
    }
}

/// A store with accounts and the passkey services over it, as the server wires them, timed by
/// a manual clock; the relying party is the software authenticator's (`example.com`).
final class PasskeyHarness: Sendable {
    static let password = "correct horse battery staple"
    static let relyingParty = RelyingParty(id: "example.com", origins: ["https://example.com"], algorithms: [.edDSA, .es256, .rs256])

    let fixture: StoreFixture
    let store: any Store
    let hasher = PasswordHasher(parameters: .owaspMinimum)
    let limiter = LocalRateLimiter()
    let sink = MemoryLogSink()
    let passkeys: PasskeySignIn
    let signIn: SignInService
    let management: PasskeyManagement

    var clock: ManualClock { fixture.clock }
    var logs: [String] { sink.lines }

    init(_ factory: StoreFactory) throws {
        fixture = try factory.make()
        store = try fixture.migratedStore()
        (passkeys, signIn, management) = Self.services(store: store, limiter: limiter, clock: fixture.clock, hasher: hasher, sink: sink)
    }

    private static func services(store: any Store, limiter: LocalRateLimiter, clock: ManualClock, hasher: PasswordHasher, sink: MemoryLogSink)
        -> (PasskeySignIn, SignInService, PasskeyManagement)
    {
        let logger = Logger(sink: sink)
        let key = Redacted(Data(repeating: 7, count: 32))
        let limits = PasswordSignIn.Limits(attemptsPerIP: .init(limit: 1000, seconds: 60))
        let challenges = PasskeyChallenges(
            store: store, limiter: limiter, policy: RateLimitPolicy(windows: [.init(limit: 30, seconds: 60)]), clock: clock, logger: logger)
        let passkeys = PasskeySignIn(
            store: store, challenges: challenges, relyingParty: relyingParty, limiter: limiter, limits: limits, logger: logger,
            metrics: ServerMetrics(version: "test"))
        let signIn = SignInService(
            methods: [
                PasswordSignIn(
                    store: store, hasher: hasher, limiter: limiter, limits: limits, costs: VerificationCostProfile(hasher: hasher, key: key),
                    addressKey: key, logger: logger, metrics: ServerMetrics(version: "test")),
                passkeys,
            ],
            secondFactors: [
                OneTimeCodeSignIn(
                    store: store, secretBox: .forTests, limiter: limiter, templates: MailTemplates(), logger: logger,
                    metrics: ServerMetrics(version: "test"))
            ], clock: clock)
        let management = PasskeyManagement(
            store: store, challenges: challenges, reauthentication: Reauthentication(signIn: signIn, clock: clock),
            relyingParty: relyingParty, relyingPartyName: "Example", templates: MailTemplates(productName: "Example"), clock: clock, logger: logger)
        return (passkeys, signIn, management)
    }

    /// The same services on the same database with their own limiter: another server.
    func secondInstance() -> SignInService {
        Self.services(store: store, limiter: LocalRateLimiter(), clock: clock, hasher: hasher, sink: sink).1
    }

    /// An active account with ``password``.
    func accountWithPassword(email: String = "ana@example.com") throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: try hasher.hash(Redacted(Self.password)),
            status: .active, credentialVersion: 1, locale: nil, createdAt: clock.now())
        try store.createAccount(account)
        return account
    }

    /// `account`'s owner, signed in with its password just now.
    func recentOwner(_ account: Account) throws -> AccountOwner {
        AccountOwner(
            account: account, login: try liveLogin(of: account.id, in: store, now: clock.now()),
            assurance: Assurance(methods: [.password], authTime: clock.now()))
    }

    /// A new credential of `algorithm`, registered to `account` through the options and verify calls.
    func register(for account: Account, algorithm: SoftwareAuthenticator.Algorithm, name: String? = nil) throws -> SoftwareAuthenticator {
        let options = try management.registrationOptions(recentOwner(account), currentPassword: nil, code: nil, clientIP: "192.0.2.200")
        #expect(options.excluded.count == (try store.passkeys(accountID: account.id).count))
        let authenticator = SoftwareAuthenticator(algorithm: algorithm, userHandle: options.userHandle)
        _ = try management.register(recentOwner(account), response: authenticator.register(.init(challenge: options.challenge)), name: name, acceptLanguage: nil)
        return authenticator
    }

    /// Enrols an authenticator for `account` directly in the database.
    func enrolSecondFactor(_ account: Account) throws {
        try fixture.execute(
            "INSERT INTO second_factors (account_id, sealed_secret, last_step, enabled_at) VALUES ('\(account.id)', 'sealed', 0, 0)")
    }

    /// A new sign-in challenge, asked for from `clientIP`.
    func signIn(options clientIP: String) throws -> Data {
        try passkeys.options(clientIP: clientIP).challenge
    }

    /// `authenticator`'s assertion for a new sign-in challenge.
    func assertion(_ authenticator: SoftwareAuthenticator) throws -> AuthenticationResponse {
        authenticator.authenticate(.init(challenge: try signIn(options: "192.0.2.201")))
    }
}

