import Foundation
import LatchkeyCrypto
import LatchkeyTestSupport
import Testing

@testable import LatchkeyCore
@testable import LatchkeyStorage

/// The account-wide cap on password failures and the recognised devices that pass it, through
/// ``SignInService`` on every `Store` in ``StoreFactory/all`` (a ManualClock, the local limiter).
@Suite struct AccountCapTests {
    private static let password = "correct horse battery staple"

    private struct Harness {
        let fixture: StoreFixture
        let store: any Store
        let signIn: SignInService
        let account: Account
        var clock: ManualClock { fixture.clock }

        init(_ factory: StoreFactory) throws {
            fixture = try factory.make()
            store = try fixture.migratedStore()
            let hasher = PasswordHasher(parameters: .owaspMinimum)
            let logger = Logger(sink: MemoryLogSink())
            let limiter = LocalRateLimiter()
            let key = Redacted(Data(repeating: 7, count: 32))
            let devices = RecognisedDevices(
                store: store, limiter: limiter, templates: MailTemplates(productName: "Example"),
                settings: .init(notices: true, resetPageURL: "https://auth.example.com/reset-password"), clock: fixture.clock,
                logger: logger)
            signIn = SignInService(
                methods: [
                    PasswordSignIn(
                        store: store, hasher: hasher, limiter: limiter, limits: .init(attemptsPerIP: .init(limit: 1000, seconds: 60)),
                        costs: VerificationCostProfile(hasher: hasher, key: key), addressKey: key, logger: logger,
                        metrics: ServerMetrics(version: "test"), devices: devices)
                ],
                devices: devices, clock: fixture.clock)
            account = Account(
                id: UUID().uuidString.lowercased(), email: "ana@example.com", passwordHash: try hasher.hash(Redacted(AccountCapTests.password)),
                status: .active, credentialVersion: 1, locale: nil, createdAt: fixture.clock.now())
            try store.createAccount(account)
        }

        /// One sign-in: the error's code and Retry-After, or nil for a success.
        func attempt(_ email: String, _ password: String, device: DeviceToken? = nil, ip: String) -> (LatchkeyError.Code, Int?)? {
            do {
                _ = try signIn.signIn(.password(email: email, password: Redacted(password), device: device), clientIP: ip)
                return nil
            } catch let error as LatchkeyError {
                return (error.code, error.retryAfter)
            } catch {
                return (.storage, nil)
            }
        }

        /// The owner's device, recognised after a sign-in from it.
        func ownersDevice() throws -> DeviceToken {
            let signedIn = try signIn.signIn(.password(email: account.email, password: Redacted(AccountCapTests.password)), clientIP: "192.0.2.1")
            return try #require(try signIn.recordDevice(signedIn, presented: nil, origin: LoginOrigin(clientIP: "192.0.2.1", userAgentHeader: nil)))
        }
    }

    @Test("20 failures from 20 addresses cap the account: a fresh address gets 429 even with the right password, a recognised device gets in", arguments: StoreFactory.all)
    func capAndRecognisedDevice(factory: StoreFactory) throws {
        let harness = try Harness(factory)
        let device = try harness.ownersDevice()
        for attacker in 0..<20 {
            #expect(harness.attempt("ana@example.com", "guess \(attacker)", ip: "198.51.100.\(attacker + 1)")?.0 == .invalidCredentials)
        }
        let capped = harness.attempt("ana@example.com", Self.password, ip: "203.0.113.9")
        #expect(capped?.0 == .rateLimited)
        #expect((1...900).contains(capped?.1 ?? 0))
        #expect(harness.attempt("ana@example.com", Self.password, device: device, ip: "203.0.113.9") == nil, "the owner's device passes")
        // A token the account does not know (another account's, a made-up one) is no device of it.
        #expect(harness.attempt("ana@example.com", Self.password, device: DeviceToken.generate(), ip: "203.0.113.9")?.0 == .rateLimited)
    }

    @Test("an address without an account is capped after the same failures with the same answer")
    func noEnumeration() throws {
        let harness = try Harness(.sqlite)
        for (email, offset) in [("ana@example.com", 0), ("nobody@example.com", 100)] {
            for attacker in 0..<20 {
                #expect(harness.attempt(email, "guess", ip: "198.51.100.\(attacker + 1 + offset)")?.0 == .invalidCredentials)
            }
            let capped = harness.attempt(email, "guess", ip: "203.0.113.\(offset + 1)")
            #expect(capped?.0 == .rateLimited)
            #expect(capped?.1 == 900)
        }
    }

    @Test("a recognised device's own failures are limited per device and do not count against the account")
    func deviceFailuresCountedPerDevice() throws {
        let harness = try Harness(.sqlite)
        let device = try harness.ownersDevice()
        for _ in 0..<10 {
            #expect(harness.attempt("ana@example.com", "typo", device: device, ip: "192.0.2.1")?.0 == .invalidCredentials)
        }
        #expect(harness.attempt("ana@example.com", Self.password, device: device, ip: "192.0.2.1")?.0 == .rateLimited)
        // The account's cap saw none of them: an unrecognised device with the right password is in.
        #expect(harness.attempt("ana@example.com", Self.password, ip: "203.0.113.50") == nil)
    }

    @Test("while capped, the owner's retries never lengthen the wait, and at the announced time the right password is in")
    func retriesNeverLengthenTheWait() throws {
        let harness = try Harness(.sqlite)
        for attacker in 0..<20 {
            _ = harness.attempt("ana@example.com", "guess", ip: "198.51.100.\(attacker + 1)")
        }
        var waits: [Int] = []
        for _ in 0..<5 {
            guard let (code, wait) = harness.attempt("ana@example.com", Self.password, ip: "203.0.113.9"), code == .rateLimited, let wait else {
                Issue.record("expected a wait")
                return
            }
            waits.append(wait)
            harness.clock.advance(by: Double(wait) / 3)
        }
        #expect(waits.first == 900)
        #expect(waits == waits.sorted(by: >) && Set(waits).count == waits.count)
        harness.clock.advance(by: Double(waits.last ?? 0))
        #expect(harness.attempt("ana@example.com", Self.password, ip: "203.0.113.9") == nil)
    }
}
