import Foundation
import Dispatch
import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyCrypto
import Synchronization
import LatchkeyTestSupport
import Testing

/// The store contract's reset tokens and its reset inbox (the pending requests a worker takes).
extension StoreContractTests {
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

    // MARK: Pending reset requests

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

    // MARK: Helpers

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
