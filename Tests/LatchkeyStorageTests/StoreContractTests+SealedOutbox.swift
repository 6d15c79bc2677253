import Foundation
import LatchkeyCore
import LatchkeyCrypto
import LatchkeyTestSupport
import Testing

/// The store contract's sealing of waiting mail: a copy of the database (or its WAL) alone
/// holds no live link.
extension StoreContractTests {
    func linkMail(_ token: String) throws -> MailMessage {
        try MailMessage(
            id: UUID().uuidString.lowercased(), to: "person@example.com", subject: "Reset your password",
            textBody: "Open https://app.example.com/reset#token=\(token) to choose a new password.",
            htmlBody: "<a href=\"https://app.example.com/reset#token=\(token)\">Choose a new password</a>", locale: "en")
    }

    @Test("waiting mail is sealed at rest: its rows hold neither the link nor the text; leasing gives it back whole", arguments: StoreFactory.all)
    func waitingMailIsSealed(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let message = try linkMail("Zx81LiveLinkToken")
        try store.enqueue(message, now: fixture.clock.now())
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM outbox WHERE sealed = 1") == 1)
        for needle in ["Zx81LiveLinkToken", "reset#token", "choose a new password", "Choose a new password"] {
            #expect(try fixture.integer(
                "SELECT COUNT(*) AS value FROM outbox WHERE text_body LIKE '%\(needle)%' OR html_body LIKE '%\(needle)%'") == 0)
        }
        // What is not secret stays readable for `latchkey outbox list`.
        #expect(try store.outboxListing(status: .pending, limit: 10).map(\.subject) == ["Reset your password"])
        // Another server with the same key file sends it.
        let leased = try fixture.openAnother().leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        #expect(leased.map(\.message) == [message])
    }

    @Test("a body copied into another mail's row is refused: that mail is given up with why, the others are sent", arguments: StoreFactory.all)
    func movedBodyIsRefused(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let victim = try linkMail("victimToken")
        let other = try linkMail("attackerToken")
        try store.enqueue(victim, now: fixture.clock.now())
        try store.enqueue(other, now: fixture.clock.now())
        try fixture.execute(
            "UPDATE outbox SET text_body = (SELECT text_body FROM outbox WHERE id = '\(victim.id)') WHERE id = '\(other.id)'")
        let leased = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        #expect(leased.map(\.message) == [victim])
        let gaveUp = try #require(try store.outboxListing(status: .failed, limit: 10).first)
        #expect(gaveUp.id == other.id)
        #expect(gaveUp.lastError?.contains("not sent") == true)
    }

    @Test("mail sealed under another key file is given up with why, never sent or retried", arguments: StoreFactory.all)
    func otherKeyIsRefused(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        try store.enqueue(try linkMail("someToken"), now: fixture.clock.now())
        let otherKey = try SecretBox(key: Redacted(SecureRandom.bytes(SecretBox.keyLength)))
        let elsewhere = try fixture.openSealing(otherKey)
        #expect(try elsewhere.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10).isEmpty)
        let listed = try #require(try store.outboxListing(status: nil, limit: 10).first)
        #expect(listed.status == .failed)
        #expect(listed.lastError?.contains("another key") == true)
        fixture.clock.advance(by: 3600)
        #expect(try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10).isEmpty)
    }

    @Test("a row an older build queued in clear is still sent as it is", arguments: StoreFactory.all)
    func clearRowsOfOlderBuildsAreSent(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let now = fixture.literal(fixture.clock.now())
        try fixture.execute(
            """
            INSERT INTO outbox (id, recipient, subject, text_body, html_body, locale, status, attempts, next_attempt_at, created_at)
            VALUES ('old-build-mail', 'person@example.com', 'Hello', 'Plain text', '<p>HTML</p>', 'en', 'pending', 0, \(now), \(now))
            """)
        let leased = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        #expect(leased.map(\.message.textBody) == ["Plain text"])
        #expect(leased.map(\.message.htmlBody) == ["<p>HTML</p>"])
    }
}
