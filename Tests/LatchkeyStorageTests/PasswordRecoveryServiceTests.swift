import Foundation
import LatchkeyCrypto
import LatchkeyPasswordStrength
@testable import LatchkeyCore
@testable import LatchkeyStorage
import Synchronization
import Testing
import LatchkeyTestSupport

/// The reset flow in process: a real SQLite store in a temporary directory, a manual clock.
struct RecoveryHarness {
    let directory: URL
    let store: SQLiteStore
    let clock = ManualClock()
    let limiter = LocalRateLimiter()
    let logs = MemoryLogSink()
    let service: PasswordRecoveryService
    let accounts: AccountAdministration
    let settings: PasswordRecoveryService.Settings

    init(ttl: TimeInterval = 1200, allowList: [String] = [], inboxLimit: Int = PasswordRecoveryService.Settings.defaultInboxLimit) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory.appendingPathComponent("db.sqlite3").path, mailBox: .forTests)
        try store.migrate()
        settings = .init(
            tokenTTL: ttl, defaultResetURL: "https://id.example.com/reset-password", resetURLAllowList: allowList,
            addressKey: Redacted(Data(repeating: 7, count: 32)), inboxLimit: inboxLimit)
        service = Self.service(store: store, clock: clock, limiter: limiter, settings: settings, logs: logs)
        accounts = AccountAdministration(
            store: store, hasher: PasswordHasher(parameters: .owaspMinimum), policy: PasswordPolicy(), templates: MailTemplates(), clock: clock)
    }

    /// Another instance on the same store, with its own limiter and logs `logs`.
    func anotherInstance(logs: MemoryLogSink) -> PasswordRecoveryService {
        Self.service(store: store, clock: clock, limiter: LocalRateLimiter(), settings: settings, logs: logs)
    }

    private static func service(
        store: SQLiteStore, clock: ManualClock, limiter: LocalRateLimiter, settings: PasswordRecoveryService.Settings, logs: MemoryLogSink
    ) -> PasswordRecoveryService {
        PasswordRecoveryService(
            store: store, clock: clock, limiter: limiter, hasher: PasswordHasher(parameters: .owaspMinimum), policy: PasswordPolicy(),
            templates: MailTemplates(), settings: settings, logger: Logger(sink: logs, minimumLevel: .debug), metrics: ServerMetrics(version: "test"))
    }

    /// Requests a reset for `email` from `clientIP`, processes the queue and returns the token mailed, if any.
    func requestToken(_ email: String, resetURL: String? = nil, clientIP: String = "192.0.2.1") throws -> Redacted<String>? {
        let before = try mailedLinks().count
        service.release(try service.requestResetStored(email: email, resetURL: resetURL, locale: nil, acceptLanguage: nil, clientIP: clientIP))
        service.processPendingRequests()
        let links = try mailedLinks()
        guard links.count > before, let link = links.last, let range = link.range(of: "#token=") else { return nil }
        return Redacted(String(link[range.upperBound...]))
    }

    /// The plain-text bodies of every mail in the outbox, oldest first (read without leasing).
    func outboxBodies() throws -> [String] {
        try store.database.withConnection { connection in
            try connection.query("SELECT id, text_body FROM outbox ORDER BY created_at, rowid").map {
                // A sent mail's body is erased, not sealed.
                let body = try $0.text("text_body")
                return body.isEmpty ? body : try SQLiteStore.openMailBody(body, part: "text", id: try $0.text("id"), box: store.mailBox)
            }
        }
    }

    /// The language of every mail in the outbox, oldest first.
    func outboxLocales() throws -> [String] {
        try store.database.withConnection { connection in
            try connection.query("SELECT locale FROM outbox ORDER BY created_at, rowid").map { try $0.text("locale") }
        }
    }

    /// The reset links in every queued mail, oldest first.
    func mailedLinks() throws -> [String] {
        try outboxBodies().compactMap { body in
            body.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.contains("#token=") }
        }
    }
}

@Suite struct PasswordRecoveryServiceTests {
    let password = Redacted("correct horse battery staple")
    let newPassword = Redacted("violet tractor quietly juggles mountains")

    @Test("no account work starts before the answer is sent: a request waits for its release, or for the orphan age")
    func accountWorkWaitsForTheAnswer() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "jane@example.com", password: password)
        try h.accounts.createAccount(email: "john@example.com", password: password)
        let released = try h.service.requestResetStored(email: "jane@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.1")
        let unreleased = try h.service.requestResetStored(email: "john@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.1")
        #expect(released.requestID != nil && unreleased.requestID != nil)
        // Answered but not yet sent: nothing is looked up, no token, no mail.
        #expect(h.service.processPendingRequests() == 0)
        #expect(try h.mailedLinks().isEmpty)
        // Sent: the next batch takes it.
        h.service.release(released)
        #expect(h.service.processPendingRequests() == 1)
        #expect(try h.mailedLinks().count == 1)
        // Never released (its instance died): taken once it is old enough, by any instance.
        h.clock.advance(by: PasswordRecoveryService.orphanAge - 1)
        #expect(h.service.processPendingRequests() == 0)
        h.clock.advance(by: 2)
        #expect(h.service.processPendingRequests() == 1)
        #expect(try h.mailedLinks().count == 2)
    }

    @Test("a full inbox refuses every address alike with server_busy, stores nothing, spends no address's budget; processing makes room")
    func fullInboxRefusesAlike() throws {
        let h = try RecoveryHarness(inboxLimit: 2)
        try h.accounts.createAccount(email: "jane@example.com", password: password)
        let request = { (email: String) in
            try h.service.requestResetStored(email: email, resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.1")
        }
        let accepted = [try request("nobody-1@example.com"), try request("nobody-2@example.com")]
        var refusals: [LatchkeyError] = []
        for email in ["jane@example.com", "nobody-3@example.com"] {
            #expect { try request(email) } throws: { error in
                guard let error = error as? LatchkeyError else { return false }
                refusals.append(error)
                return error.code == .serverBusy && error.retryAfter == 5
            }
        }
        #expect(refusals.count == 2 && refusals[0].message == refusals[1].message)
        #expect(try h.store.pendingResetRequestCount(upTo: 10) == 2)

        for receipt in accepted { h.service.release(receipt) }
        #expect(h.service.processPendingRequests() == 2)
        // Room again, and the refused request did not count against Jane's one mail a minute.
        #expect(try request("jane@example.com").requestID != nil)
    }

    @Test("an address's keyed hash, as every instance's limiter keys and logs write it: base64url of the first 16 bytes of its HMAC-SHA256")
    func addressKeyHash() {
        let key = AddressKey(Redacted(Data("Jefe".utf8)))
        #expect(key.hash("what do ya want for nothing?") == "W9zBRr9gdU5qBCQmCJV1xw")
        #expect(key.code(for: "what do ya want for nothing?")
            == HMACSHA256.authenticationCode(for: Data("what do ya want for nothing?".utf8), key: Data("Jefe".utf8)))
    }

    @Test("a backlog of orphans drains in one run of the job, with what is released meanwhile taken between its rounds; one round at a stop")
    func orphanBacklogDrains() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "jane@example.com", password: password)
        let backlog = 2 * PasswordRecoveryService.orphanBatch + 100
        for index in 0..<backlog {
            _ = try h.service.requestResetStored(
                email: "nobody-\(index)@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "198.51.100.\(index % 200)")
        }
        h.clock.advance(by: PasswordRecoveryService.orphanAge + 1)
        // As at a stop: one round.
        #expect(h.service.processPendingRequests() == PasswordRecoveryService.orphanBatch)
        // As the job runs: every round, and Jane's request, released during the first, in the next.
        var rounds = 0
        let processed = h.service.processPendingRequests(continuing: {
            rounds += 1
            if rounds == 1 {
                h.service.release(try! h.service.requestResetStored(
                    email: "jane@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.1"))
            }
            return true
        })
        #expect(processed == backlog - PasswordRecoveryService.orphanBatch + 1)
        #expect(rounds == 1)  // asked after the first, full round; the second found the rest
        #expect(try h.store.pendingResetRequestCount(upTo: 10) == 0)
        #expect(try h.mailedLinks().count == 1)
    }

    @Test("requests racing for the last places in the inbox: exactly as many are stored as there was room for")
    func inboxRoomIsNotOverbooked() throws {
        let h = try RecoveryHarness(inboxLimit: 5)
        let outcomes = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 48) { index in
            let stored = (try? h.service.requestResetStored(
                email: "racer-\(index)@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.1")) != nil
            outcomes.withLock { $0.append(stored) }
        }
        #expect(outcomes.withLock { $0.filter { $0 }.count } == 5)
        #expect(try h.store.pendingResetRequestCount(upTo: 100) == 5)
    }

    @Test("the inbox is counted in the store: what another instance accepted fills it too, and the count is logged when full")
    func inboxCountedAcrossInstances() throws {
        let h = try RecoveryHarness(inboxLimit: 2)
        let otherLogs = MemoryLogSink()
        let other = h.anotherInstance(logs: otherLogs)
        for index in 1...2 {
            _ = try h.service.requestResetStored(email: "nobody-\(index)@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.1")
        }
        // Not released to the other instance and not yet orphans: it takes nothing, but counts them.
        #expect(other.processPendingRequests() == 0)
        #expect(otherLogs.lines.contains { $0.contains(#""event":"reset_inbox_full""#) && $0.contains(#""pending":2"#) })
        #expect(throws: LatchkeyError.self) {
            try other.requestResetStored(email: "someone@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.9")
        }
        // Once they are processed (here as orphans), the next count makes room.
        h.clock.advance(by: PasswordRecoveryService.orphanAge + 1)
        #expect(other.processPendingRequests() == 2)
        #expect(try other.requestResetStored(email: "someone@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.9").requestID != nil)
    }

    @Test("a mailed token validates, resets once, and the new password replaces the old")
    func happyPath() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "jane@example.com", password: password)
        let token = try #require(try h.requestToken("Jane@Example.com"))
        let status = try h.service.validate(token: token, clientIP: "192.0.2.1")
        #expect(status.emailHint == "j***@example.com")
        #expect(status.expiresAt == h.clock.now().addingTimeInterval(1200))
        try h.service.resetPassword(token: token, newPassword: newPassword, clientIP: "192.0.2.1")
        #expect(try h.accounts.verifyPassword(email: "jane@example.com", password: newPassword))
        #expect(try !h.accounts.verifyPassword(email: "jane@example.com", password: password))
        #expect(try h.store.account(email: "jane@example.com")?.credentialVersion == 2)
        #expect(throws: LatchkeyError.self) { try h.service.resetPassword(token: token, newPassword: newPassword, clientIP: "192.0.2.1") }
        #expect(throws: LatchkeyError.self) { try h.service.validate(token: token, clientIP: "192.0.2.1") }
    }

    @Test("only the SHA-256 of a token is stored, and a sent mail no longer holds the link")
    func storesDigestOnly() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "d@example.com", password: password)
        let token = try #require(try h.requestToken("d@example.com"))
        let stored = try h.store.database.withConnection { connection in
            try connection.query("SELECT token_digest FROM reset_tokens").map { try $0.text("token_digest") }
        }
        let digest = SHA256.hash(Data(token.exposed.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(stored == [digest])
        for entry in try h.store.leaseDueMail(now: h.clock.now(), lease: 60, limit: 10) {
            try h.store.markSent(id: entry.message.id, now: h.clock.now())
        }
        #expect(try h.outboxBodies().allSatisfy { !$0.contains(token.exposed) })
    }

    @Test("a token expires after its lifetime (test clock, no sleeping)")
    func expiry() throws {
        let h = try RecoveryHarness(ttl: 300)
        try h.accounts.createAccount(email: "e@example.com", password: password)
        let token = try #require(try h.requestToken("e@example.com"))
        h.clock.advance(by: 299)
        #expect(throws: Never.self) { try h.service.validate(token: token, clientIP: "192.0.2.1") }
        h.clock.advance(by: 1)
        let error = #expect(throws: LatchkeyError.self) { try h.service.validate(token: token, clientIP: "192.0.2.1") }
        #expect(error?.code == .invalidToken)
        #expect(throws: LatchkeyError.self) { try h.service.resetPassword(token: token, newPassword: newPassword, clientIP: "192.0.2.1") }
    }

    @Test("a newer token supersedes the older one")
    func newestOnly() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "n@example.com", password: password)
        let first = try #require(try h.requestToken("n@example.com"))
        h.clock.advance(by: 61)
        let second = try #require(try h.requestToken("n@example.com"))
        #expect(throws: LatchkeyError.self) { try h.service.validate(token: first, clientIP: "192.0.2.1") }
        #expect(throws: Never.self) { try h.service.validate(token: second, clientIP: "192.0.2.1") }
    }

    @Test("per address: one mail a minute, five an hour; the mailed token keeps working")
    func perAddressLimit() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "l@example.com", password: password)
        let first = try #require(try h.requestToken("l@example.com"))
        #expect(try h.requestToken("l@example.com") == nil)
        #expect(throws: Never.self) { try h.service.validate(token: first, clientIP: "192.0.2.1") }
        for _ in 0..<4 {
            h.clock.advance(by: 61)
            #expect(try h.requestToken("l@example.com") != nil)
        }
        h.clock.advance(by: 61)
        #expect(try h.requestToken("l@example.com") == nil)
        #expect(try h.mailedLinks().count == 5)
    }

    @Test("requests for an address from many networks never spend the owner's: past the inbox cap the owner's network still gets a mail, at a slower rate")
    func othersCannotSpendTheOwnersResets() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "victim@example.com", password: password)
        // Thirty requests from thirty addresses of one /24, one every 20 s: the address's inbox
        // takes three a minute and ten an hour, then that /24's slow lane one more.
        var mailed = 0
        for index in 0..<30 {
            if try h.requestToken("victim@example.com", clientIP: "203.0.113.\(index)") != nil { mailed += 1 }
            h.clock.advance(by: 20)
        }
        #expect(mailed == 11)
        // The owner, on a network of their own, still gets a link…
        #expect(try h.requestToken("victim@example.com", clientIP: "192.0.2.10") != nil)
        // …one an hour while the cap stays spent; then the next.
        h.clock.advance(by: 61)
        #expect(try h.requestToken("victim@example.com", clientIP: "192.0.2.10") == nil)
        h.clock.advance(by: 3600)
        #expect(try h.requestToken("victim@example.com", clientIP: "192.0.2.10") != nil)
    }

    @Test("the address limits decide alike for an account's address and an unknown one")
    func addressLimitsIgnoreWhetherAnAccountExists() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "known@example.com", password: password)
        var stored: [String: [Bool]] = [:]
        for index in 0..<40 {
            for email in ["known@example.com", "unknown@example.com"] {
                let receipt = try h.service.requestResetStored(
                    email: email, resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "198.51.\(index % 3).\(index)")
                stored[email, default: []].append(receipt.requestID != nil)
            }
            h.clock.advance(by: 7)
        }
        #expect(stored["known@example.com"] == stored["unknown@example.com"])
        #expect(stored["known@example.com"]?.contains(false) == true)
    }

    @Test("unknown and disabled addresses get no token and no mail")
    func unknownAndDisabled() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "off@example.com", password: password)
        try h.accounts.disable(email: "off@example.com")
        #expect(try h.requestToken("off@example.com") == nil)
        #expect(try h.requestToken("nobody@example.com") == nil)
        #expect(try h.store.pendingMailCount() == 0)
    }

    @Test("a weak password is refused with reasons and does not use up the token")
    func weakPasswordKeepsToken() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "w@example.com", password: password)
        let token = try #require(try h.requestToken("w@example.com"))
        let error = #expect(throws: LatchkeyError.self) { try h.service.resetPassword(token: token, newPassword: Redacted("short"), clientIP: "192.0.2.1") }
        #expect(error?.code == .weakPassword)
        #expect(error?.reasons.contains("too_short") == true)
        #expect(throws: Never.self) { try h.service.validate(token: token, clientIP: "192.0.2.1") }
    }

    @Test("a reset queues a 'password changed' notice without a token")
    func changeNotice() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "c@example.com", password: password)
        let token = try #require(try h.requestToken("c@example.com"))
        try h.service.resetPassword(token: token, newPassword: newPassword, clientIP: "192.0.2.1")
        let bodies = try h.outboxBodies()
        #expect(bodies.count == 2)
        #expect(bodies.filter { $0.contains("#token=") }.count == 1)
    }

    @Test("the 'password changed' notice says when, in the reset's language: its locale, then the account's, then Accept-Language")
    func changeNoticeLanguage() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "es@example.com", password: password, locale: "es")
        try h.accounts.createAccount(email: "none@example.com", password: password)
        let cases: [(email: String, locale: String?, acceptLanguage: String?, expected: String)] = [
            ("es@example.com", "pt-BR", "ar", "pt"),  // the request's locale first
            ("es@example.com", nil, "ar", "es"),  // then the account's
            ("none@example.com", nil, "fr, ar;q=0.8", "ar"),  // then Accept-Language
            ("none@example.com", nil, nil, "en"),
        ]
        for item in cases {
            h.clock.advance(by: 3600)  // past the per-address limit
            let token = try #require(try h.requestToken(item.email))
            try h.service.resetPassword(
                token: token, newPassword: Redacted(newPassword.exposed + " \(item.expected)"), locale: item.locale,
                acceptLanguage: item.acceptLanguage, clientIP: "192.0.2.1")
            #expect(try h.outboxLocales().last == item.expected, "\(item)")
            let notice = try #require(try h.outboxBodies().last)
            #expect(notice.contains("/reset-password?lang=\(item.expected)\n"))
            let (date, time) = MailTemplates.utcDateAndTime(h.clock.now())
            let language = try #require(SupportedLanguage(tag: item.expected))
            #expect(notice.contains(language.isolated(date)) && notice.contains(language.isolated(time)))
        }
    }

    @Test("an Accept-Language header with a control character or non-ASCII text is not stored with the request, and the mail falls back to English")
    func acceptLanguageWithControlCharacterIsAbsent() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "jane@example.com", password: password)
        let cases: [(header: String, stored: String?, mailed: String)] = [
            ("pt-BR, es;q=0.5", "pt-BR, es;q=0.5", "pt"),
            ("pt-BR,\u{1}", nil, "en"),
            ("pt-BR\r\nX-Injected: 1", nil, "en"),
            ("pt-BR\u{0}", nil, "en"),
            ("pt-BR, é", nil, "en"),
        ]
        for item in cases {
            h.clock.advance(by: 3600)  // past the per-address limit
            let receipt = try h.service.requestResetStored(
                email: "jane@example.com", resetURL: nil, locale: nil, acceptLanguage: item.header, clientIP: "192.0.2.1")
            let stored = try h.store.database.withConnection { connection in
                try connection.query("SELECT accept_language FROM reset_requests WHERE id = ?", [.text(receipt.requestID)])
                    .map { try $0.optionalText("accept_language") }
            }
            #expect(stored == [item.stored], "\(item)")
            h.service.release(receipt)
            #expect(h.service.processPendingRequests() == 1)
            #expect(try h.outboxLocales().last == item.mailed, "\(item)")
        }
    }

    @Test("opening a link again and again never uses up the reset: link checks count against their own, larger budget")
    func linkChecksHaveTheirOwnBudget() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "v@example.com", password: password)
        let token = try #require(try h.requestToken("v@example.com"))
        for _ in 0..<50 {
            _ = try h.service.validate(token: token, clientIP: "192.0.2.1")
        }
        try h.service.resetPassword(token: token, newPassword: newPassword, clientIP: "192.0.2.1")
        #expect(try h.accounts.verifyPassword(email: "v@example.com", password: newPassword))
    }

    @Test("beyond a budget the error says how long to wait, in words and in Retry-After")
    func limitSaysHowLong() throws {
        let h = try RecoveryHarness()
        let token = SecureRandom.token()
        for _ in 0..<100 {
            #expect(throws: LatchkeyError.self) { try h.service.validate(token: token, clientIP: "192.0.2.9") }
        }
        let checks = try #require(throws: LatchkeyError.self) { try h.service.validate(token: token, clientIP: "192.0.2.9") }
        #expect(checks.code == .rateLimited && checks.retryAfter == 600)
        #expect(checks.message == "Too many attempts. Please try again in 10 minutes.")
        // The request budget (20 per 10 minutes) is a separate one, still whole.
        for _ in 0..<20 {
            _ = try h.service.requestResetStored(email: "w@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.9")
        }
        let requests = try #require(throws: LatchkeyError.self) {
            try h.service.requestResetStored(email: "w@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.9")
        }
        #expect(requests.code == .rateLimited && requests.retryAfter == 600)
        h.clock.advance(by: 600)
        _ = try h.service.requestResetStored(email: "w@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.9")
    }

    @Test("an allow-listed reset_url becomes the link base; others are refused before any lookup")
    func resetURL() throws {
        let h = try RecoveryHarness(allowList: ["com.example.app:/reset", "https://app.example.com/reset"])
        try h.accounts.createAccount(email: "u@example.com", password: password)
        _ = try #require(try h.requestToken("u@example.com", resetURL: "com.example.app:/reset"))
        #expect(try h.mailedLinks().last?.hasPrefix("com.example.app:/reset#token=") == true)
        for bad in ["https://app.example.com/reset2", "https://app.example.com:444/reset", "com.example.app:/RESET", "javascript:alert(1)"] {
            let error = #expect(throws: LatchkeyError.self) {
                _ = try h.service.requestResetStored(email: "nobody@example.com", resetURL: bad, locale: nil, acceptLanguage: nil, clientIP: "192.0.2.1")
            }
            #expect(error?.code == .resetURLNotAllowed)
        }
    }

    @Test("logs carry a keyed hash of the address, never the address or the token")
    func logsAreClean() throws {
        let h = try RecoveryHarness()
        try h.accounts.createAccount(email: "secret.person@example.com", password: password)
        let token = try #require(try h.requestToken("secret.person@example.com"))
        try h.service.resetPassword(token: token, newPassword: newPassword, clientIP: "192.0.2.1")
        #expect(try h.requestToken("nobody.here@example.com") == nil)
        let joined = h.logs.lines.joined(separator: "\n")
        #expect(joined.contains("reset_token_issued"))
        // The unmatched request is logged under its address's keyed hash, as it was requested.
        let unmatchedKey = h.service.addressKey(try EmailAddress("nobody.here@example.com"))
        let unmatched = h.logs.lines.filter { $0.contains("reset_request_unmatched") }
        #expect(unmatched.count == 1 && unmatched.allSatisfy { $0.contains(unmatchedKey) })
        #expect(!joined.contains("nobody.here"))
        #expect(!joined.contains("secret.person"))
        #expect(!joined.contains(token.exposed))
        #expect(!joined.contains(newPassword.exposed))
    }
}

extension PasswordRecoveryService {
    /// ``requestReset(email:resetURL:locale:acceptLanguage:clientIP:)`` as the route answers
    /// it: once the request's insert has settled.
    func requestResetStored(email: String, resetURL: String?, locale: String?, acceptLanguage: String?, clientIP: String) throws -> Receipt {
        let receipt = try requestReset(email: email, resetURL: resetURL, locale: locale, acceptLanguage: acceptLanguage, clientIP: clientIP)
        _ = receipt.write.wait()
        return receipt
    }
}
