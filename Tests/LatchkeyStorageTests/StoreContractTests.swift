import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Testing

/// The behaviour every `Store` implementation promises, run against each one in
/// ``StoreFactory/all``: migrations, accounts and housekeeping here; reset tokens and the
/// reset inbox, the outbox and the OAuth clients in the files named after them.
@Suite struct StoreContractTests {
    // MARK: Migrations

    @Test("migrating applies every migration once and records it", arguments: StoreFactory.all)
    func migrationsAreIdempotentAndRecorded(factory: StoreFactory) throws {
        let fixture = try factory.make()
        #expect(try fixture.store.migrate() == Migrations.all.map(\.version))
        #expect(try fixture.store.migrate() == [])
        #expect(try fixture.openAnother().migrate() == [])
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM schema_migrations") == Migrations.all.count)
        for migration in Migrations.all {
            let recorded = try fixture.integer(
                """
                SELECT COUNT(*) AS value FROM schema_migrations
                WHERE version = \(migration.version) AND name = '\(migration.name)'
                  AND applied_at = \(fixture.literal(fixture.clock.now()))
                """)
            #expect(recorded == 1, "migration \(migration.version)")
        }
    }

    @Test("a database written by a newer version is refused", arguments: StoreFactory.all)
    func newerDatabaseIsRefused(factory: StoreFactory) throws {
        let fixture = try factory.make()
        try fixture.store.migrate()
        try fixture.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)")
        let error = try #require(throws: LatchkeyError.self) { try fixture.openAnother().migrate() }
        #expect(error.code == .storage)
    }

    @Test("a database whose migration of some number is another change is refused, naming both", arguments: StoreFactory.all)
    func renumberedMigrationIsRefused(factory: StoreFactory) throws {
        let fixture = try factory.make()
        try fixture.store.migrate()
        let last = try #require(Migrations.all.last)
        try fixture.execute("UPDATE schema_migrations SET name = 'a_development_change' WHERE version = \(last.version)")
        let error = try #require(throws: LatchkeyError.self) { try fixture.openAnother().migrate() }
        #expect(error.code == .storage)
        #expect(error.detail?.contains("'a_development_change'") == true)
        #expect(error.detail?.contains("'\(last.name)'") == true)
    }

    @Test("a migrated store answers readiness", arguments: StoreFactory.all)
    func readiness(factory: StoreFactory) throws {
        let fixture = try factory.make()
        #expect(try fixture.migratedStore().isReady())
    }

    // MARK: Accounts

    @Test("an account is found by email and by id exactly as created", arguments: StoreFactory.all)
    func accountLookup(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture, locale: "ar")
        #expect(try store.account(email: account.email) == account)
        #expect(try store.account(id: account.id) == account)
        #expect(try store.account(email: "nobody@example.com") == nil)
        #expect(try store.account(id: UUID().uuidString.lowercased()) == nil)
    }

    @Test("an account without password or locale keeps them nil", arguments: StoreFactory.all)
    func accountOptionalFields(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = Account(
            id: UUID().uuidString.lowercased(), email: "bare@example.com", passwordHash: nil, status: .disabled,
            credentialVersion: 7, locale: nil, createdAt: fixture.clock.now())
        try store.createAccount(account)
        #expect(try store.account(id: account.id) == account)
    }

    @Test("a second account with a taken email is refused with account_exists", arguments: StoreFactory.all)
    func duplicateEmail(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let first = try createAccount(in: fixture, email: "taken@example.com")
        let error = try #require(throws: LatchkeyError.self) {
            try createAccount(in: fixture, email: "taken@example.com")
        }
        #expect(error.code == .accountExists)
        #expect(try store.allAccounts() == [first])
    }

    @Test("every account is listed, oldest first", arguments: StoreFactory.all)
    func listing(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        #expect(try store.allAccounts() == [])
        fixture.clock.advance(by: 10)
        let newer = try createAccount(in: fixture, email: "newer@example.com")
        let older = Account(
            id: UUID().uuidString.lowercased(), email: "older@example.com", passwordHash: nil, status: .active,
            credentialVersion: 0, locale: "en", createdAt: fixture.clock.now().addingTimeInterval(-5))
        try store.createAccount(older)
        #expect(try store.allAccounts() == [older, newer])
    }

    @Test("a status change is stored, and an unknown email reports false", arguments: StoreFactory.all)
    func status(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        #expect(try store.setStatus(.disabled, email: account.email))
        #expect(try store.account(id: account.id)?.status == .disabled)
        #expect(try store.setStatus(.active, email: account.email))
        #expect(try store.account(id: account.id)?.status == .active)
        #expect(try store.setStatus(.disabled, email: "nobody@example.com") == false)
    }

    @Test("a new address ends the account's sessions and queues the notice to the old one, or changes nothing",
          arguments: StoreFactory.all)
    func replaceEmail(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let other = try createAccount(in: fixture, email: "other@example.com")
        let session = try fixture.insertSession(accountID: account.id, expiresAt: fixture.clock.now().addingTimeInterval(3600))
        let notice = try mail(to: account.email, subject: "changed")

        let taken = #expect(throws: LatchkeyError.self) {
            try store.replaceEmail(current: account.email, new: other.email, now: fixture.clock.now()) { _ in notice }
        }
        #expect(taken?.code == .accountExists)
        #expect(try store.account(id: account.id)?.email == account.email && store.pendingMailCount() == 0)
        #expect(try store.replaceEmail(current: "nobody@example.com", new: "new@example.com", now: fixture.clock.now()) { _ in notice } == nil)

        let before = try #require(try store.replaceEmail(current: account.email, new: "moved@example.com", now: fixture.clock.now()) { old in
            #expect(old.email == account.email)
            return notice
        })
        #expect(before.email == account.email)
        let moved = try #require(try store.account(id: account.id))
        #expect(moved.email == "moved@example.com" && moved.credentialVersion == account.credentialVersion + 1)
        #expect(try store.account(email: account.email) == nil)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM sessions WHERE id = '\(session)' AND revoked_at IS NOT NULL") == 1)
        #expect(try store.outboxListing(status: .pending, limit: 10).map(\.recipient) == [account.email])
    }

    @Test("a rehash replaces the password hash only while it is unchanged", arguments: StoreFactory.all)
    func rehash(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        #expect(try !store.rehashPassword(accountID: account.id, currentHash: "$argon2id$other", newHash: "$argon2id$x", now: fixture.clock.now()))
        #expect(try store.account(id: account.id)?.passwordHash == "$argon2id$old")
        #expect(try store.rehashPassword(accountID: account.id, currentHash: "$argon2id$old", newHash: "$argon2id$new", now: fixture.clock.now()))
        let updated = try #require(try store.account(id: account.id))
        #expect(updated.passwordHash == "$argon2id$new")
        #expect(updated.credentialVersion == account.credentialVersion)
    }

    // MARK: Housekeeping

    @Test("purge removes dead rows older than the cutoff and keeps everything else", arguments: StoreFactory.all)
    func purge(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let cutoff = fixture.clock.now()
        let before = cutoff.addingTimeInterval(-1)
        let after = cutoff.addingTimeInterval(1)
        let future = cutoff.addingTimeInterval(3600)

        try fixture.insertResetToken(randomDigest(), accountID: account.id, expiresAt: before)
        try fixture.insertResetToken(randomDigest(), accountID: account.id, expiresAt: future, usedAt: before)
        try fixture.insertResetToken(randomDigest(), accountID: account.id, expiresAt: future, supersededAt: before)
        try fixture.insertResetToken(randomDigest(), accountID: account.id, expiresAt: future, usedAt: after)
        try fixture.insertResetToken(randomDigest(), accountID: account.id, expiresAt: future)
        try fixture.insertSession(accountID: account.id, expiresAt: before)
        try fixture.insertSession(accountID: account.id, expiresAt: future, revokedAt: before)
        try fixture.insertSession(accountID: account.id, expiresAt: future, revokedAt: after)
        try fixture.insertSession(accountID: account.id, expiresAt: future)

        let sentBefore = try mail(subject: "sent before")
        let sentAfter = try mail(subject: "sent after")
        let failed = try mail(subject: "failed")
        let failedAfter = try mail(subject: "failed after")
        let pending = try mail(subject: "pending")
        for message in [sentBefore, sentAfter, failed, failedAfter, pending] {
            try store.enqueue(message, now: before.addingTimeInterval(-60))
        }
        try store.markSent(id: sentBefore.id, now: before)
        try store.markSent(id: sentAfter.id, now: after)
        try store.markFailed(id: failed.id, error: "permanent", retryAt: nil, now: before)
        try store.markFailed(id: failedAfter.id, error: "permanent", retryAt: nil, now: after)
        let requestBefore = PendingResetRequest(
            email: "early@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, acceptedAt: before)
        let requestAtCutoff = PendingResetRequest(
            email: "late@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, acceptedAt: cutoff)
        for request in [requestAtCutoff, requestBefore] { try store.acceptResetRequest(request).wait().get() }

        #expect(try store.purge(before: cutoff) == 8)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM reset_tokens") == 2)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM sessions") == 2)
        #expect(
            try fixture.integer(
                "SELECT COUNT(*) AS value FROM outbox WHERE id IN ('\(sentAfter.id)', '\(failedAfter.id)', '\(pending.id)')")
                == 3)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM outbox") == 3)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM outbox WHERE text_body <> '' AND status = 'sent'") == 0)
        #expect(try store.pendingResetRequestIDs(acceptedBefore: future, limit: 10) == [requestAtCutoff.id])
        #expect(try store.purge(before: cutoff) == 0)
    }

    // MARK: Helpers

    /// Creates and stores an active account with a password.
    @discardableResult
    func createAccount(
        in fixture: StoreFixture, email: String = "person@example.com", locale: String? = "en"
    ) throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: "$argon2id$old", status: .active,
            credentialVersion: 0, locale: locale, createdAt: fixture.clock.now())
        try fixture.store.createAccount(account)
        return account
    }

    /// A message with a fresh id, as the outbox stores it.
    func mail(to recipient: String = "person@example.com", subject: String = "Hello") throws -> MailMessage {
        try MailMessage(
            id: UUID().uuidString.lowercased(), to: recipient, subject: subject, textBody: "Text of \(subject)",
            htmlBody: "<p>HTML of \(subject)</p>", locale: "en")
    }
}
