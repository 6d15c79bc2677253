import Foundation
import LatchkeyCrypto
import LatchkeyPasswordStrength
@testable import LatchkeyCore
@testable import LatchkeyStorage
import Testing
import LatchkeyTestSupport

/// Sign-up in process: a real SQLite store, a manual clock, the real password method.
struct RegistrationHarness {
    let directory: URL
    let store: SQLiteStore
    let clock = ManualClock()
    let limiter = LocalRateLimiter()
    let logs = MemoryLogSink()
    let service: RegistrationService
    let accounts: AccountAdministration
    let signIn: SignInService

    init(open: Bool = true, allowList: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory.appendingPathComponent("db.sqlite3").path, mailBox: .forTests)
        try store.migrate()
        let hasher = PasswordHasher(parameters: .owaspMinimum)
        let key = Redacted(Data(repeating: 7, count: 32))
        service = RegistrationService(
            store: store, clock: clock, limiter: limiter, hasher: hasher, policy: PasswordPolicy(), templates: MailTemplates(),
            settings: .init(
                isOpen: open, defaultVerificationURL: "https://id.example.com/verify-email",
                resetPageURL: "https://id.example.com/reset-password", verificationURLAllowList: allowList, addressKey: key),
            logger: Logger(sink: logs, minimumLevel: .debug))
        accounts = AccountAdministration(store: store, hasher: hasher, policy: PasswordPolicy(), templates: MailTemplates(), clock: clock)
        signIn = SignInService(
            methods: [
                PasswordSignIn(
                    store: store, hasher: hasher, limiter: LocalRateLimiter(), limits: .init(attemptsPerIP: .init(limit: 1000, seconds: 60)),
                    costs: VerificationCostProfile(hasher: hasher, key: key), addressKey: key, logger: Logger(sink: logs),
                    metrics: ServerMetrics(version: "test"))
            ],
            clock: clock)
    }

    /// Signs `email` up with `password` from `clientIP`, then lets the job process it.
    func register(_ email: String, _ password: String, clientIP: String = "192.0.2.1", verificationURL: String? = nil) throws {
        try service.register(
            email: email, password: Redacted(password), verificationURL: verificationURL, locale: nil, acceptLanguage: nil,
            clientIP: clientIP)
        clock.advance(by: RegistrationService.processingDelay + 0.001)
        service.processPendingRequests()
    }

    /// Every queued mail: recipient, subject and plain text, oldest first.
    func mails() throws -> [(to: String, subject: String, text: String)] {
        try store.database.withConnection { connection in
            try connection.query("SELECT id, recipient, subject, text_body FROM outbox ORDER BY created_at, rowid").map {
                (try $0.text("recipient"), try $0.text("subject"),
                    try SQLiteStore.openMailBody(try $0.text("text_body"), part: "text", id: try $0.text("id"), box: store.mailBox))
            }
        }
    }

    /// The token of the last confirmation link mailed to `email`.
    func mailedToken(to email: String) throws -> Redacted<String>? {
        let link = try mails().filter { $0.to == email }.flatMap { $0.text.split(whereSeparator: \.isWhitespace) }
            .last { $0.contains("#token=") }
        return link.map { Redacted(String($0[$0.range(of: "#token=")!.upperBound...])) }
    }

    /// Whether `email` signs in with `password`.
    func signsIn(_ email: String, _ password: String) -> Bool {
        (try? signIn.signIn(.password(email: email, password: Redacted(password)), clientIP: "198.51.100.7")) != nil
    }
}

@Suite struct RegistrationServiceTests {
    static let password = "correct horse battery staple"

    @Test("a sign-up becomes an account only when its link is used; before, the address signs in like an unknown one")
    func accountOnlyAfterConfirmation() throws {
        let harness = try RegistrationHarness()
        try harness.register("new@example.com", Self.password)
        #expect(try harness.store.account(email: "new@example.com") == nil)
        #expect(!harness.signsIn("new@example.com", Self.password))
        let mails = try harness.mails()
        #expect(mails.count == 1 && mails[0].to == "new@example.com")
        let token = try #require(try harness.mailedToken(to: "new@example.com"))
        #expect(mails[0].text.contains("https://id.example.com/verify-email#token=" + token.exposed))

        let account = try harness.service.verify(token: token, clientIP: "192.0.2.1")
        #expect(account.email == "new@example.com" && account.status == .active)
        #expect(harness.signsIn("new@example.com", Self.password))
        // The link works once.
        let again = #expect(throws: LatchkeyError.self) { try harness.service.verify(token: token, clientIP: "192.0.2.1") }
        #expect(again?.code == .invalidToken)
    }

    @Test("an address with an account gets the same answer and a mail saying it has one; nothing changes")
    func existingAccount() throws {
        let harness = try RegistrationHarness()
        try harness.accounts.createAccount(email: "known@example.com", password: Redacted(Self.password))
        try harness.register("known@example.com", "another quite long passphrase")
        let mails = try harness.mails()
        #expect(mails.count == 1 && mails[0].subject == "You already have a Latchkey account")
        #expect(mails[0].text.contains("https://id.example.com/reset-password?lang=en"))
        #expect(!mails[0].text.contains("#token="))
        #expect(harness.signsIn("known@example.com", Self.password))
        #expect(!harness.signsIn("known@example.com", "another quite long passphrase"))
    }

    @Test("the password that counts is the one chosen with the link used: an earlier sign-up of the address gains nothing")
    func preHijacking() throws {
        let harness = try RegistrationHarness()
        try harness.register("victim@example.com", "attacker chosen passphrase", clientIP: "203.0.113.9")
        let attackers = try #require(try harness.mailedToken(to: "victim@example.com"))
        harness.clock.advance(by: 61)
        try harness.register("victim@example.com", Self.password)
        let owners = try #require(try harness.mailedToken(to: "victim@example.com"))
        #expect(owners.exposed != attackers.exposed)
        // The first link is superseded by the second sign-up.
        #expect(throws: LatchkeyError.self) { try harness.service.verify(token: attackers, clientIP: "192.0.2.1") }
        try harness.service.verify(token: owners, clientIP: "192.0.2.1")
        #expect(harness.signsIn("victim@example.com", Self.password))
        #expect(!harness.signsIn("victim@example.com", "attacker chosen passphrase"))
    }

    @Test("refusals come before anything is looked up: closed, malformed address, weak password, unlisted link base")
    func refusals() throws {
        let closed = try RegistrationHarness(open: false)
        let forbidden = #expect(throws: LatchkeyError.self) { try closed.register("a@example.com", Self.password) }
        #expect(forbidden?.code == .forbidden)

        let harness = try RegistrationHarness(allowList: ["https://app.example.com/verify"])
        #expect((#expect(throws: LatchkeyError.self) { try harness.register("not an address", Self.password) })?.code == .invalidEmail)
        let weak = #expect(throws: LatchkeyError.self) { try harness.register("weak@example.com", "short") }
        #expect(weak?.code == .weakPassword && weak?.reasons.contains("too_short") == true)
        let link = #expect(throws: LatchkeyError.self) {
            try harness.register("link@example.com", Self.password, verificationURL: "https://evil.example.com/verify")
        }
        #expect(link?.code == .resetURLNotAllowed)
        #expect(try harness.mails().isEmpty)

        try harness.register("app@example.com", Self.password, verificationURL: "https://app.example.com/verify")
        #expect(try harness.mails().last?.text.contains("https://app.example.com/verify#token=") == true)
    }

    @Test("one mail a minute to an address, silently; the client's budget answers rate_limited")
    func limits() throws {
        let harness = try RegistrationHarness()
        try harness.register("busy@example.com", Self.password)
        try harness.register("busy@example.com", Self.password)
        #expect(try harness.mails().count == 1)
        harness.clock.advance(by: 61)
        try harness.register("busy@example.com", Self.password)
        #expect(try harness.mails().count == 2)

        var limited: LatchkeyError?
        for index in 0..<30 where limited == nil {
            do {
                try harness.service.register(
                    email: "spray\(index)@example.com", password: Redacted(Self.password), verificationURL: nil, locale: nil,
                    acceptLanguage: nil, clientIP: "198.51.100.200")
            } catch let error as LatchkeyError {
                limited = error
            }
        }
        #expect(limited?.code == .rateLimited && (limited?.retryAfter ?? 0) > 0)
    }

    @Test("a confirmation link expires after 24 hours")
    func expiry() throws {
        let harness = try RegistrationHarness()
        try harness.register("late@example.com", Self.password)
        let token = try #require(try harness.mailedToken(to: "late@example.com"))
        harness.clock.advance(by: 24 * 3600)
        #expect(throws: LatchkeyError.self) { try harness.service.verify(token: token, clientIP: "192.0.2.1") }
        #expect(try harness.store.account(email: "late@example.com") == nil)
    }

    @Test("the logs name addresses only by their keyed hash")
    func logsHoldNoAddress() throws {
        let harness = try RegistrationHarness()
        try harness.register("private.person@example.com", Self.password)
        try harness.service.verify(token: try #require(try harness.mailedToken(to: "private.person@example.com")), clientIP: "192.0.2.1")
        let lines = harness.logs.lines.joined(separator: "\n")
        #expect(lines.contains("registration_completed"))
        #expect(!lines.contains("private.person"))
        #expect(!lines.contains(Self.password))
    }
}
