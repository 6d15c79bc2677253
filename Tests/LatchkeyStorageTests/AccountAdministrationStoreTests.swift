import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Testing

/// What the account commands (`users set-password`, `users delete`) and the check every
/// administration command makes before it touches a database (`schemaVersions`) promise,
/// run against every store in ``StoreFactory/all``.
@Suite struct AccountAdministrationStoreTests {
    @Test("an empty database is at schema version 0, a migrated one at the latest", arguments: StoreFactory.all)
    func schemaVersions(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let latest = Migrations.all.map(\.version).max() ?? 0
        #expect(try fixture.store.schemaVersions() == (applied: 0, latest: latest))
        try fixture.store.migrate()
        #expect(try fixture.store.schemaVersions() == (applied: latest, latest: latest))
        try fixture.execute("DELETE FROM schema_migrations WHERE version = \(latest)")
        // Versions may leave gaps (one taken on another branch), so the one before is looked up.
        let previous = Migrations.all.map(\.version).filter { $0 < latest }.max() ?? 0
        #expect(try fixture.store.schemaVersions() == (applied: previous, latest: latest))
    }

    @Test("replacing a password bumps the credential version, ends every session and voids the reset tokens, of that account only",
          arguments: StoreFactory.all)
    func replacePassword(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture, email: "person@example.com")
        let bystander = try createAccount(in: fixture, email: "bystander@example.com")
        let later = fixture.clock.now().addingTimeInterval(86_400)
        try fixture.insertSession(accountID: account.id, expiresAt: later)
        let untouched = try fixture.insertSession(accountID: bystander.id, expiresAt: later)
        let digest = randomDigest()
        try fixture.insertResetToken(digest, accountID: account.id, expiresAt: later)
        fixture.clock.advance(by: 30)

        #expect(try store.replacePassword(email: account.email, newPasswordHash: "$argon2id$set", now: fixture.clock.now()))
        let updated = try #require(try store.account(id: account.id))
        #expect(updated.passwordHash == "$argon2id$set")
        #expect(updated.credentialVersion == account.credentialVersion + 1)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM sessions WHERE account_id = '\(account.id)' AND revoked_at IS NULL") == 0)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM sessions WHERE id = '\(untouched)' AND revoked_at IS NULL") == 1)
        #expect(try store.usableResetToken(digest: digest, now: fixture.clock.now()) == nil)
        #expect(try store.account(id: bystander.id) == bystander)
        #expect(try !store.replacePassword(email: "nobody@example.com", newPasswordHash: "$argon2id$x", now: fixture.clock.now()))
    }

    @Test("deleting an account removes it with its tokens, sessions and unsent mail, and nothing of another account",
          arguments: StoreFactory.all)
    func deleteAccount(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture, email: "person@example.com")
        let bystander = try createAccount(in: fixture, email: "bystander@example.com")
        let later = fixture.clock.now().addingTimeInterval(86_400)
        for owner in [account, bystander] {
            try fixture.insertSession(accountID: owner.id, expiresAt: later)
            try store.issueResetToken(
                ResetTokenRecord(digest: randomDigest(), accountID: owner.id, createdAt: fixture.clock.now(), expiresAt: later),
                mail: try MailMessage(
                    id: UUID().uuidString.lowercased(), to: owner.email, subject: "Reset", textBody: "link", htmlBody: "<p>link</p>",
                    locale: "en"),
                now: fixture.clock.now())
        }

        #expect(try store.deleteAccount(email: account.email))
        #expect(try store.account(id: account.id) == nil)
        #expect(try store.allAccounts() == [bystander])
        for (table, column) in [("sessions", "account_id"), ("reset_tokens", "account_id")] {
            #expect(try fixture.integer("SELECT COUNT(*) AS value FROM \(table) WHERE \(column) = '\(account.id)'") == 0)
            #expect(try fixture.integer("SELECT COUNT(*) AS value FROM \(table) WHERE \(column) = '\(bystander.id)'") == 1)
        }
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM outbox WHERE recipient = '\(account.email)'") == 0)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM outbox WHERE recipient = '\(bystander.email)'") == 1)
        #expect(try !store.deleteAccount(email: account.email))
    }

    private func createAccount(in fixture: StoreFixture, email: String) throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: "$argon2id$old", status: .active,
            credentialVersion: 0, locale: "en", createdAt: fixture.clock.now())
        try fixture.store.createAccount(account)
        return account
    }
}
