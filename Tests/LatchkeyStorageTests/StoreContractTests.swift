import Foundation
import Dispatch
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyCrypto
import LatchkeyJOSE
import Synchronization
import LatchkeyTestSupport
import Testing

/// The behaviour every `Store` implementation promises, run against each one in
/// ``StoreFactory/all``.
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

    // MARK: Reset tokens

    @Test("issuing a token supersedes the account's older tokens and queues its mail", arguments: StoreFactory.all)
    func issueSupersedes(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let bystander = try createAccount(in: fixture, email: "bystander@example.com")
        let first = try issueToken(in: fixture, for: account)
        let other = try issueToken(in: fixture, for: bystander)
        fixture.clock.advance(by: 1)
        let second = try issueToken(in: fixture, for: account)

        let now = fixture.clock.now()
        #expect(try store.usableResetToken(digest: first, now: now) == nil)
        #expect(try store.usableResetToken(digest: second, now: now)?.account == account)
        #expect(try store.usableResetToken(digest: other, now: now)?.account == bystander)
        #expect(try store.pendingMailCount() == 3)
    }

    @Test("a token is usable, unchanged by looking, until the instant it expires", arguments: StoreFactory.all)
    func usableUntilExpiry(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let issuedAt = fixture.clock.now()
        let digest = try issueToken(in: fixture, for: account, lifetime: 3600)
        let expected = ResetTokenRecord(
            digest: digest, accountID: account.id, createdAt: issuedAt, expiresAt: issuedAt.addingTimeInterval(3600))

        for _ in 0..<2 {
            let usable = try #require(try store.usableResetToken(digest: digest, now: fixture.clock.now()))
            #expect(usable.token == expected)
            #expect(usable.account == account)
        }
        #expect(try store.usableResetToken(digest: digest, now: issuedAt.addingTimeInterval(3599.999)) != nil)
        fixture.clock.advance(by: 3600)
        #expect(try store.usableResetToken(digest: digest, now: fixture.clock.now()) == nil)
        #expect(try store.usableResetToken(digest: randomDigest(), now: issuedAt) == nil)
    }

    @Test("a used token is no longer usable", arguments: StoreFactory.all)
    func usedTokenIsNotUsable(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let digest = try issueToken(in: fixture, for: account)
        #expect(try completeReset(in: fixture, digest: digest) != nil)
        #expect(try store.usableResetToken(digest: digest, now: fixture.clock.now()) == nil)
    }

    @Test("a disabled account's token is neither usable nor consumable, nor again once it is enabled", arguments: StoreFactory.all)
    func disabledAccount(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let digest = try issueToken(in: fixture, for: account)
        #expect(try store.setStatus(.disabled, email: account.email))
        #expect(try store.usableResetToken(digest: digest, now: fixture.clock.now()) == nil)
        #expect(try completeReset(in: fixture, digest: digest) == nil)
        #expect(try store.setStatus(.active, email: account.email))
        #expect(try store.usableResetToken(digest: digest, now: fixture.clock.now()) == nil)
        #expect(try completeReset(in: fixture, digest: digest) == nil)
        // A reset requested after enabling works.
        let enabled = try #require(try store.account(email: account.email))
        let fresh = try issueToken(in: fixture, for: enabled)
        #expect(try store.usableResetToken(digest: fresh, now: fixture.clock.now()) != nil)
    }

    @Test("completing a reset consumes the token once and updates the account", arguments: StoreFactory.all)
    func completeResetOnce(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let digest = try issueToken(in: fixture, for: account)
        fixture.clock.advance(by: 60)

        let updated = try #require(try completeReset(in: fixture, digest: digest, newHash: "$argon2id$new"))
        #expect(updated.id == account.id)
        #expect(updated.passwordHash == "$argon2id$new")
        #expect(updated.credentialVersion == account.credentialVersion + 1)
        #expect(try store.account(id: account.id) == updated)
        #expect(try completeReset(in: fixture, digest: digest, newHash: "$argon2id$again") == nil)
        #expect(try store.account(id: account.id) == updated)
    }

    @Test("an expired or unknown token completes no reset and changes nothing", arguments: StoreFactory.all)
    func expiredTokenCompletesNothing(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let digest = try issueToken(in: fixture, for: account, lifetime: 60)
        let session = try fixture.insertSession(accountID: account.id, expiresAt: fixture.clock.now().addingTimeInterval(86400))
        fixture.clock.advance(by: 60)

        #expect(try completeReset(in: fixture, digest: digest) == nil)
        #expect(try completeReset(in: fixture, digest: randomDigest()) == nil)
        #expect(try store.account(id: account.id) == account)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM sessions WHERE id = '\(session)' AND revoked_at IS NULL") == 1)
        #expect(try store.pendingMailCount() == 1)
    }

    @Test("completing a reset revokes every live session of that account only", arguments: StoreFactory.all)
    func resetRevokesSessions(factory: StoreFactory) throws {
        let fixture = try factory.make()
        try fixture.store.migrate()
        let account = try createAccount(in: fixture)
        let bystander = try createAccount(in: fixture, email: "bystander@example.com")
        let later = fixture.clock.now().addingTimeInterval(86400)
        let earlier = fixture.clock.now().addingTimeInterval(-60)
        try fixture.insertSession(accountID: account.id, expiresAt: later)
        try fixture.insertSession(accountID: account.id, expiresAt: later)
        let alreadyRevoked = try fixture.insertSession(accountID: account.id, expiresAt: later, revokedAt: earlier)
        let untouched = try fixture.insertSession(accountID: bystander.id, expiresAt: later)
        let digest = try issueToken(in: fixture, for: account)
        fixture.clock.advance(by: 30)

        #expect(try completeReset(in: fixture, digest: digest) != nil)
        let now = fixture.literal(fixture.clock.now())
        #expect(
            try fixture.integer(
                "SELECT COUNT(*) AS value FROM sessions WHERE account_id = '\(account.id)' AND revoked_at = \(now)") == 2)
        #expect(
            try fixture.integer(
                """
                SELECT COUNT(*) AS value FROM sessions
                WHERE id = '\(alreadyRevoked)' AND revoked_at = \(fixture.literal(earlier))
                """) == 1)
        #expect(
            try fixture.integer("SELECT COUNT(*) AS value FROM sessions WHERE id = '\(untouched)' AND revoked_at IS NULL")
                == 1)
    }

    @Test("completing a reset supersedes the account's other outstanding tokens", arguments: StoreFactory.all)
    func resetSupersedesOtherTokens(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let digest = try issueToken(in: fixture, for: account)
        let sibling = randomDigest()
        try fixture.insertResetToken(sibling, accountID: account.id, expiresAt: fixture.clock.now().addingTimeInterval(600))
        #expect(try store.usableResetToken(digest: sibling, now: fixture.clock.now()) != nil)

        #expect(try completeReset(in: fixture, digest: digest) != nil)
        #expect(try store.usableResetToken(digest: sibling, now: fixture.clock.now()) == nil)
        #expect(try completeReset(in: fixture, digest: sibling) == nil)
    }

    @Test("the notification mail is built for the updated account and queued with the reset", arguments: StoreFactory.all)
    func resetQueuesNotification(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let digest = try issueToken(in: fixture, for: account)
        _ = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        fixture.clock.advance(by: 1)

        let notice = try mail(to: account.email, subject: "Your password was changed")
        let seen = Mutex<Account?>(nil)
        let updated = try store.completeReset(
            digest: digest, newPasswordHash: "$argon2id$new", now: fixture.clock.now(),
            notification: { account in
                seen.withLock { $0 = account }
                return notice
            })
        #expect(updated != nil)
        #expect(seen.withLock { $0 } == updated)
        let leased = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        #expect(leased.map(\.message) == [notice])
    }

    @Test("a failing notification rolls back the whole reset", arguments: StoreFactory.all)
    func failingNotificationRollsBack(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let digest = try issueToken(in: fixture, for: account)
        let sibling = randomDigest()
        try fixture.insertResetToken(sibling, accountID: account.id, expiresAt: fixture.clock.now().addingTimeInterval(600))
        let session = try fixture.insertSession(accountID: account.id, expiresAt: fixture.clock.now().addingTimeInterval(600))

        let error = try #require(throws: LatchkeyError.self) {
            try store.completeReset(
                digest: digest, newPasswordHash: "$argon2id$new", now: fixture.clock.now(),
                notification: { _ in throw LatchkeyError(.invalidMailHeader, "A mail header contains a control character.") })
        }
        #expect(error.code == .invalidMailHeader)
        #expect(try store.usableResetToken(digest: digest, now: fixture.clock.now()) != nil)
        #expect(try store.usableResetToken(digest: sibling, now: fixture.clock.now()) != nil)
        #expect(try store.account(id: account.id) == account)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM sessions WHERE id = '\(session)' AND revoked_at IS NULL") == 1)
        #expect(try store.pendingMailCount() == 1)
        #expect(try completeReset(in: fixture, digest: digest) != nil)
    }

    @Test("of 20 threads on two connections completing one reset, exactly one succeeds", arguments: StoreFactory.all)
    func concurrentResetHasOneWinner(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let stores = [try fixture.migratedStore(), try fixture.openAnother()]
        let account = try createAccount(in: fixture)
        let digest = try issueToken(in: fixture, for: account)
        let now = fixture.clock.now()
        let winners = Mutex<[Account]>([])
        let losers = Mutex(0)
        let failures = Mutex<[String]>([])

        runOnThreads(20) { index in
            do {
                let updated = try stores[index % stores.count].completeReset(
                    digest: digest, newPasswordHash: "$argon2id$thread\(index)", now: now,
                    notification: { try mail(to: $0.email, subject: "Changed by \(index)") })
                if let updated {
                    winners.withLock { $0.append(updated) }
                } else {
                    losers.withLock { $0 += 1 }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }

        #expect(failures.withLock { $0 } == [])
        #expect(losers.withLock { $0 } == 19)
        let winner = try #require(winners.withLock { $0.count == 1 ? $0.first : nil })
        #expect(try fixture.store.account(id: account.id)?.credentialVersion == account.credentialVersion + 1)
        #expect(try fixture.store.account(id: account.id) == winner)
        #expect(try fixture.store.pendingMailCount() == 2)
    }

    // MARK: Outbox

    @Test("leased mail is not leased again until its lease ends", arguments: StoreFactory.all)
    func leaseHoldsMail(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let first = try mail(subject: "first")
        try store.enqueue(first, now: fixture.clock.now())
        fixture.clock.advance(by: 1)
        let second = try mail(subject: "second")
        try store.enqueue(second, now: fixture.clock.now())
        let queuedAt = fixture.clock.now()

        let leased = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        #expect(leased == [
            OutboxEntry(message: first, attempts: 0, createdAt: queuedAt.addingTimeInterval(-1)),
            OutboxEntry(message: second, attempts: 0, createdAt: queuedAt),
        ])
        #expect(try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10) == [])
        #expect(try store.leaseDueMail(now: fixture.clock.now().addingTimeInterval(59.999), lease: 60, limit: 10) == [])
        fixture.clock.advance(by: 60)
        #expect(try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 1).map(\.message) == [first])
        #expect(try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 1).map(\.message) == [second])
        #expect(try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 0) == [])
        #expect(try store.pendingMailCount() == 2)
    }

    @Test("mail queued for the future is not due yet", arguments: StoreFactory.all)
    func notDueBeforeQueued(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        try store.enqueue(try mail(), now: fixture.clock.now().addingTimeInterval(10))
        #expect(try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10) == [])
        fixture.clock.advance(by: 10)
        #expect(try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10).count == 1)
    }

    @Test("sent mail is never leased again and leaves the pending count", arguments: StoreFactory.all)
    func sentMail(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let message = try mail()
        try store.enqueue(message, now: fixture.clock.now())
        #expect(try store.pendingMailCount() == 1)
        _ = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        try store.markSent(id: message.id, now: fixture.clock.now())
        #expect(try store.pendingMailCount() == 0)
        fixture.clock.advance(by: 3600)
        #expect(try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10) == [])
    }

    @Test("a failed attempt is counted and retried at retryAt", arguments: StoreFactory.all)
    func failedAttemptIsRetried(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let message = try mail()
        let queuedAt = fixture.clock.now()
        try store.enqueue(message, now: queuedAt)
        _ = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        try store.markFailed(
            id: message.id, error: "550 mailbox unavailable", retryAt: fixture.clock.now().addingTimeInterval(30),
            now: fixture.clock.now())
        #expect(try store.pendingMailCount() == 1)

        #expect(try store.leaseDueMail(now: fixture.clock.now().addingTimeInterval(29.999), lease: 60, limit: 10) == [])
        fixture.clock.advance(by: 30)
        let retried = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        #expect(retried == [OutboxEntry(message: message, attempts: 1, createdAt: queuedAt)])
        try store.markFailed(
            id: message.id, error: "timeout", retryAt: fixture.clock.now().addingTimeInterval(120), now: fixture.clock.now())
        fixture.clock.advance(by: 120)
        #expect(try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10).map(\.attempts) == [2])
    }

    @Test("a message given up is kept as failed and never leased again", arguments: StoreFactory.all)
    func givenUpMail(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let message = try mail()
        try store.enqueue(message, now: fixture.clock.now())
        _ = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        try store.markFailed(id: message.id, error: "permanent", retryAt: nil, now: fixture.clock.now())
        #expect(try store.pendingMailCount() == 0)
        fixture.clock.advance(by: 86400)
        #expect(try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10) == [])
        #expect(
            try fixture.integer(
                """
                SELECT COUNT(*) AS value FROM outbox
                WHERE id = '\(message.id)' AND status = 'failed' AND attempts = 1 AND last_error = 'permanent'
                """) == 1)
    }

    @Test("marking a message that does not exist is an error", arguments: StoreFactory.all)
    func unknownMessage(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let unknown = UUID().uuidString.lowercased()
        let sent = try #require(throws: LatchkeyError.self) { try store.markSent(id: unknown, now: fixture.clock.now()) }
        #expect(sent.code == .storage)
        let failed = try #require(throws: LatchkeyError.self) {
            try store.markFailed(id: unknown, error: "x", retryAt: nil, now: fixture.clock.now())
        }
        #expect(failed.code == .storage)
    }

    @Test("concurrent workers on two connections never lease the same message", arguments: StoreFactory.all)
    func concurrentLeases(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let stores = [try fixture.migratedStore(), try fixture.openAnother()]
        for index in 0..<40 {
            try stores[0].enqueue(try mail(subject: "message \(index)"), now: fixture.clock.now())
        }
        let now = fixture.clock.now()
        let leasedIDs = Mutex<[String]>([])
        let failures = Mutex<[String]>([])

        runOnThreads(8) { index in
            do {
                // Bounded, so a store that leases a message twice fails the test instead of hanging it.
                for _ in 0..<40 {
                    let batch = try stores[index % stores.count].leaseDueMail(now: now, lease: 300, limit: 3)
                    if batch.isEmpty { return }
                    leasedIDs.withLock { $0 += batch.map(\.message.id) }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }

        #expect(failures.withLock { $0 } == [])
        let ids = leasedIDs.withLock { $0 }
        #expect(ids.count == 40)
        #expect(Set(ids).count == 40)
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
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM outbox WHERE text_body <> '' AND status <> 'pending'") == 0)
        #expect(try store.pendingResetRequestIDs(acceptedBefore: future, limit: 10) == [requestAtCutoff.id])
        #expect(try store.purge(before: cutoff) == 0)
    }

    // MARK: OAuth clients

    @Test("a client is read back exactly as created, and listed oldest first", arguments: StoreFactory.all)
    func clientRoundTrip(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let confidential = try oauthClient(
            "server", ["https://app.example.com/cb", "http://127.0.0.1/cb"], secretDigest: StorageEncoding.hex(randomDigest()),
            firstParty: true, scopes: ["openid", "profile"], idTokenAlgorithm: .edDSA, createdAt: fixture.clock.now())
        fixture.clock.advance(by: 1)
        let publicClient = try oauthClient("ios-app", ["com.example.app:/oauth"], createdAt: fixture.clock.now())
        try store.createClient(confidential)
        try store.createClient(publicClient)
        #expect(try store.client(id: "server") == confidential)
        #expect(try fixture.openAnother().client(id: "ios-app") == publicClient)
        #expect(try store.client(id: "nobody") == nil)
        #expect(try store.allClients() == [confidential, publicClient])
    }

    @Test("a client's display name and scope descriptions (any script, quotes, emoji) are read back exactly",
          arguments: StoreFactory.all)
    func clientDisplayTexts(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let named = OAuthClient(
            id: "notes", redirectURIs: [try RedirectURI("https://notes.example/cb")], isConfidential: false, secretDigest: nil,
            isFirstParty: false, scopes: ["notes.read", "notes.write"], createdAt: fixture.clock.now(), idTokenAlgorithm: .rs256,
            displayName: "ملاحظات \"Acme\" 📝",
            scopeDescriptions: ["notes.read": "Read your notes", "notes.write": "Écrire « vos » notes", "email": "See it's you"])
        try store.createClient(named)
        #expect(try fixture.openAnother().client(id: "notes") == named)
        let plain = try oauthClient("plain", ["https://plain.example/cb"], createdAt: fixture.clock.now())
        try store.createClient(plain)
        let readBack = try #require(try store.client(id: "plain"))
        #expect(readBack.displayName == nil && readBack.scopeDescriptions.isEmpty && readBack.shownName == "plain")
    }

    @Test("a second client with a taken id is refused with client_exists", arguments: StoreFactory.all)
    func duplicateClient(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let first = try oauthClient("app", ["https://a.example/cb"], createdAt: fixture.clock.now())
        try store.createClient(first)
        let error = try #require(throws: LatchkeyError.self) {
            try store.createClient(try oauthClient("app", ["https://b.example/cb"], createdAt: fixture.clock.now()))
        }
        #expect(error.code == .clientExists)
        #expect(try store.allClients() == [first])
    }

    @Test("deleting a client removes only it and reports whether it existed", arguments: StoreFactory.all)
    func deleteClient(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let keep = try oauthClient("keep", ["https://a.example/cb"], createdAt: fixture.clock.now())
        try store.createClient(keep)
        try store.createClient(try oauthClient("gone", ["https://b.example/cb"], createdAt: fixture.clock.now()))
        #expect(try store.deleteClient(id: "gone"))
        #expect(try !store.deleteClient(id: "gone"))
        #expect(try store.client(id: "gone") == nil)
        #expect(try store.allClients() == [keep])
    }

    @Test("the schema refuses a confidential client without a secret digest", arguments: StoreFactory.all)
    func confidentialNeedsDigest(factory: StoreFactory) throws {
        let fixture = try factory.make()
        _ = try fixture.migratedStore()
        #expect(throws: (any Error).self) {
            try fixture.execute(
                """
                INSERT INTO oauth_clients (id, redirect_uris, confidential, secret_digest, first_party, scopes, created_at)
                VALUES ('x', '["https://a.example/cb"]', 1, NULL, 0, '', 0)
                """)
        }
    }

    @Test("a client row written without an ID token algorithm (registered before migration 8) reads as ES256; others are refused",
          arguments: StoreFactory.all)
    func clientIDTokenAlgorithm(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        try fixture.execute(
            """
            INSERT INTO oauth_clients (id, redirect_uris, confidential, secret_digest, first_party, scopes, created_at)
            VALUES ('old', '["https://a.example/cb"]', 0, NULL, 0, '', 0)
            """)
        #expect(try store.client(id: "old")?.idTokenAlgorithm == .es256)
        #expect(throws: (any Error).self) {
            try fixture.execute(
                """
                INSERT INTO oauth_clients (id, redirect_uris, confidential, secret_digest, first_party, scopes, created_at, id_token_alg)
                VALUES ('x', '["https://a.example/cb"]', 0, NULL, 0, '', 0, 'HS256')
                """)
        }
    }

    // MARK: Helpers

    /// A client value; confidential when it has a secret digest.
    private func oauthClient(
        _ id: String, _ redirectURIs: [String], secretDigest: String? = nil, firstParty: Bool = false,
        scopes: [String] = [], idTokenAlgorithm: JWSAlgorithm = .rs256, createdAt: Date
    ) throws -> OAuthClient {
        OAuthClient(
            id: id, redirectURIs: try redirectURIs.map(RedirectURI.init), isConfidential: secretDigest != nil,
            secretDigest: secretDigest, isFirstParty: firstParty, scopes: scopes, createdAt: createdAt,
            idTokenAlgorithm: idTokenAlgorithm)
    }

    @Test("pending reset requests are counted no further than the limit asked, and a taken one no longer counts", arguments: StoreFactory.all)
    func pendingRequestsCounted(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let now = fixture.clock.now()
        #expect(try store.pendingResetRequestCount(upTo: 10) == 0)
        let requests = (1...3).map { index in
            PendingResetRequest(
                email: "nobody-\(index)@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, acceptedAt: now)
        }
        for request in requests { try store.acceptResetRequest(request).wait().get() }
        #expect(try store.pendingResetRequestCount(upTo: 10) == 3)
        #expect(try store.pendingResetRequestCount(upTo: 2) == 2)
        #expect(try store.processResetRequest(id: requests[1].id, now: now) { _, _ in nil })
        #expect(try store.pendingResetRequestCount(upTo: 10) == 2)
    }

    @Test("a pending reset request is taken exactly once by workers racing on two connections, with one token and one mail", arguments: StoreFactory.all)
    func pendingRequestTakenOnce(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let another = try fixture.openAnother()
        let account = try createAccount(in: fixture)
        let now = fixture.clock.now()
        let request = PendingResetRequest(
            email: account.email, resetURL: nil, locale: "pt", acceptLanguage: nil, acceptedAt: now)
        try store.acceptResetRequest(request).wait().get()
        #expect(try store.pendingResetRequestIDs(acceptedBefore: now, limit: 10).isEmpty)
        #expect(try store.pendingResetRequestIDs(acceptedBefore: now.addingTimeInterval(1), limit: 10) == [request.id])

        let taken = Recorded<PendingResetRequest>()
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            do {
                _ = try (index.isMultiple(of: 2) ? store : another).processResetRequest(id: request.id, now: now) { pending, owner in
                    taken.append(pending)
                    #expect(owner == account)
                    return IssuedResetToken(
                        token: ResetTokenRecord(digest: randomDigest(), accountID: account.id, createdAt: now, expiresAt: now.addingTimeInterval(600)),
                        mail: try mail(to: account.email))
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(taken.all == [request])
        #expect(try store.pendingMailCount() == 1)
        #expect(try !store.processResetRequest(id: request.id, now: now) { _, _ in nil })
    }

    @Test("a pending request for an address without an active account is taken with no token and no mail", arguments: StoreFactory.all)
    func pendingRequestWithoutAccount(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let now = fixture.clock.now()
        let request = PendingResetRequest(
            email: "nobody@example.com", resetURL: nil, locale: nil, acceptLanguage: nil, acceptedAt: now)
        try store.acceptResetRequest(request).wait().get()
        let asked = Recorded<Account?>()
        #expect(try store.processResetRequest(id: request.id, now: now) { _, account in
            asked.append(account)
            return nil
        })
        #expect(asked.all == [nil])
        #expect(try store.pendingMailCount() == 0)
        #expect(try store.pendingResetRequestIDs(acceptedBefore: now.addingTimeInterval(60), limit: 10).isEmpty)
    }

    @Test("pending requests accepted before an instant are found to the millisecond, oldest first, however they were inserted", arguments: StoreFactory.all)
    func pendingRequestsOldestFirst(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let start = fixture.clock.now()
        // Accepted in the middle of the 0th, 1st, ..., 5th millisecond after the start (so no
        // rounding lands on the one before), inserted in another order.
        let requests = (0..<6).map { offset in
            PendingResetRequest(
                email: "nobody-\(offset)@example.com", resetURL: nil, locale: nil, acceptLanguage: nil,
                acceptedAt: start.addingTimeInterval((Double(offset) + 0.5) / 1000))
        }
        for index in [3, 0, 5, 1, 4, 2] { try store.acceptResetRequest(requests[index]).wait().get() }
        #expect(try store.pendingResetRequestIDs(acceptedBefore: start, limit: 10).isEmpty)
        #expect(try store.pendingResetRequestIDs(acceptedBefore: requests[3].acceptedAt, limit: 10) == requests[0..<3].map(\.id))
        #expect(try store.pendingResetRequestIDs(acceptedBefore: start.addingTimeInterval(1), limit: 4) == requests[0..<4].map(\.id))
    }

    @Test("a request left pending by a build whose request ids were random is, after the upgrade, an orphan of its time, taken with what it asked for", arguments: StoreFactory.all)
    func randomIdRequestAfterUpgrade(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let sqlStore = try #require(fixture.store as? any SQLStore)
        try sqlStore.migrate(through: 10)
        let accepted = fixture.clock.now().addingTimeInterval(-60)
        let older = accepted.addingTimeInterval(-5)
        for (id, email, time) in [
            ("0d4e6f1a-9b2c-4d3e-8f4a-5b6c7d8e9f0a", "random@example.com", accepted),
            ("0a0b0c0d-0e0f-4a1b-9c2d-3e4f5a6b7c8d", "random-older@example.com", older),
        ] {
            try fixture.execute(
                """
                INSERT INTO reset_requests (id, email, reset_url, locale, accept_language, accepted_at)
                VALUES ('\(id)', '\(email)', NULL, 'fr', NULL, \(fixture.literal(time)))
                """)
        }
        let ordered = SecureRandom.identifier(orderedAt: accepted.addingTimeInterval(-1))
        try fixture.execute(
            """
            INSERT INTO reset_requests (id, email, reset_url, locale, accept_language, accepted_at)
            VALUES ('\(ordered)', 'ordered@example.com', NULL, NULL, NULL, \(fixture.literal(accepted.addingTimeInterval(-1))))
            """)
        #expect(try fixture.store.migrate() == Migrations.all.map(\.version).filter { $0 > 10 })

        let store = fixture.store
        #expect(try store.pendingResetRequestIDs(acceptedBefore: older, limit: 10).isEmpty)
        let ids = try store.pendingResetRequestIDs(acceptedBefore: fixture.clock.now(), limit: 10)
        try #require(ids.count == 3)
        #expect(ids[1] == ordered)
        #expect(ids[0].hasPrefix(SecureRandom.identifierTimePrefix(older)))
        #expect(ids[2].hasPrefix(SecureRandom.identifierTimePrefix(accepted)))
        let taken = Recorded<PendingResetRequest>()
        for id in ids {
            #expect(try store.processResetRequest(id: id, now: fixture.clock.now()) { request, _ in
                taken.append(request)
                return nil
            })
        }
        #expect(taken.all.map(\.email) == ["random-older@example.com", "ordered@example.com", "random@example.com"])
        #expect(taken.all[2].locale == "fr")
        #expect(taken.all[2].acceptedAt == StorageEncoding.date(milliseconds: StorageEncoding.milliseconds(accepted)))
        #expect(try store.pendingResetRequestCount(upTo: 10) == 0)
    }

    /// Creates and stores an active account with a password.
    @discardableResult
    private func createAccount(
        in fixture: StoreFixture, email: String = "person@example.com", locale: String? = "en"
    ) throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: "$argon2id$old", status: .active,
            credentialVersion: 0, locale: locale, createdAt: fixture.clock.now())
        try fixture.store.createAccount(account)
        return account
    }

    /// Issues a reset token for `account` at the fixture's now, with its reset mail; returns its digest.
    private func issueToken(in fixture: StoreFixture, for account: Account, lifetime: TimeInterval = 3600) throws -> Data {
        let digest = randomDigest()
        let now = fixture.clock.now()
        try fixture.store.issueResetToken(
            ResetTokenRecord(digest: digest, accountID: account.id, createdAt: now, expiresAt: now.addingTimeInterval(lifetime)),
            mail: try mail(to: account.email, subject: "Reset your password"), now: now)
        return digest
    }

    /// Completes a reset at the fixture's now with a plain notification.
    private func completeReset(in fixture: StoreFixture, digest: Data, newHash: String = "$argon2id$new") throws -> Account? {
        try fixture.store.completeReset(
            digest: digest, newPasswordHash: newHash, now: fixture.clock.now(),
            notification: { try mail(to: $0.email, subject: "Your password was changed") })
    }
}

/// A message with a fresh id, as the outbox stores it.
private func mail(to recipient: String = "person@example.com", subject: String = "Hello") throws -> MailMessage {
    try MailMessage(
        id: UUID().uuidString.lowercased(), to: recipient, subject: subject, textBody: "Text of \(subject)",
        htmlBody: "<p>HTML of \(subject)</p>", locale: "en")
}
