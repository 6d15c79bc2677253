import Foundation
import LatchkeyCore
import Synchronization
import LatchkeyTestSupport
import Testing

/// The store contract's mail outbox: leases, retries, giving up, racing workers.
extension StoreContractTests {
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

    @Test("the listing shows where each message stands, oldest first, never a body", arguments: StoreFactory.all)
    func outboxListing(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let queuedAt = fixture.clock.now()
        let (waiting, sent, failed) = (try mail(subject: "waiting"), try mail(subject: "sent"), try mail(subject: "failed"))
        for message in [waiting, sent, failed] {
            try store.enqueue(message, now: fixture.clock.now())
            fixture.clock.advance(by: 1)
        }
        _ = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        try store.markSent(id: sent.id, now: fixture.clock.now())
        try store.markFailed(id: failed.id, error: "535 authentication failed", retryAt: nil, now: fixture.clock.now())
        try store.markFailed(id: waiting.id, error: "timeout", retryAt: fixture.clock.now().addingTimeInterval(30), now: fixture.clock.now())

        let all = try store.outboxListing(status: nil, limit: 10)
        #expect(all.map(\.subject) == ["waiting", "sent", "failed"])
        #expect(all.map(\.status) == [.pending, .sent, .failed])
        #expect(all[0] == OutboxListing(
            id: waiting.id, status: .pending, recipient: waiting.to, subject: "waiting", attempts: 1, createdAt: queuedAt,
            nextAttemptAt: fixture.clock.now().addingTimeInterval(30), lastAttemptAt: fixture.clock.now(), lastError: "timeout"))
        #expect(all[1].lastError == nil && all[1].attempts == 0)
        #expect(try store.outboxListing(status: .failed, limit: 10).map(\.id) == [failed.id])
        #expect(try store.outboxListing(status: .pending, limit: 10).map(\.id) == [waiting.id])
        #expect(try store.outboxListing(status: nil, limit: 2).count == 2)
    }

    @Test("retry makes a waiting or given-up message due now and keeps its attempts", arguments: StoreFactory.all)
    func retryOutboxMail(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let (waiting, givenUp, sent) = (try mail(subject: "waiting"), try mail(subject: "given up"), try mail(subject: "sent"))
        for message in [waiting, givenUp, sent] { try store.enqueue(message, now: fixture.clock.now()) }
        _ = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        try store.markFailed(id: waiting.id, error: "timeout", retryAt: fixture.clock.now().addingTimeInterval(3600), now: fixture.clock.now())
        try store.markFailed(id: givenUp.id, error: "permanent", retryAt: nil, now: fixture.clock.now())
        try store.markSent(id: sent.id, now: fixture.clock.now())
        fixture.clock.advance(by: 5)
        #expect(try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10) == [])

        #expect(try store.retryMail(id: waiting.id, now: fixture.clock.now()) == .done)
        #expect(try store.retryMail(id: givenUp.id, now: fixture.clock.now()) == .done)
        #expect(try store.retryMail(id: sent.id, now: fixture.clock.now()) == .alreadySent)
        #expect(try store.retryMail(id: UUID().uuidString.lowercased(), now: fixture.clock.now()) == .noSuchMail)
        let due = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        // The whole message comes back: a given-up message keeps its bodies for this.
        #expect(due.map(\.message).sorted { $0.subject < $1.subject } == [givenUp, waiting])
        #expect(due.map(\.attempts) == [1, 1])
        #expect(try store.pendingMailCount() == 2)

        // A message given up by a version that erased its bodies has nothing left to send.
        try store.markFailed(id: givenUp.id, error: "permanent", retryAt: nil, now: fixture.clock.now())
        try fixture.execute("UPDATE outbox SET text_body = '', html_body = '' WHERE id = '\(givenUp.id)'")
        #expect(try store.retryMail(id: givenUp.id, now: fixture.clock.now()) == .textErased)
        #expect(try store.outboxListing(status: .failed, limit: 10).map(\.id) == [givenUp.id])
    }

    @Test("drop deletes a waiting or given-up message, not one being sent or sent", arguments: StoreFactory.all)
    func dropOutboxMail(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let (leased, givenUp, sent) = (try mail(subject: "leased"), try mail(subject: "given up"), try mail(subject: "sent"))
        for message in [givenUp, sent] { try store.enqueue(message, now: fixture.clock.now()) }
        _ = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)
        try store.markFailed(id: givenUp.id, error: "permanent", retryAt: nil, now: fixture.clock.now())
        try store.markSent(id: sent.id, now: fixture.clock.now())
        try store.enqueue(leased, now: fixture.clock.now())
        _ = try store.leaseDueMail(now: fixture.clock.now(), lease: 60, limit: 10)

        #expect(try store.dropMail(id: leased.id, now: fixture.clock.now()) == .beingSent)
        #expect(try store.dropMail(id: sent.id, now: fixture.clock.now()) == .alreadySent)
        #expect(try store.dropMail(id: givenUp.id, now: fixture.clock.now()) == .done)
        #expect(try store.dropMail(id: givenUp.id, now: fixture.clock.now()) == .noSuchMail)
        fixture.clock.advance(by: 60)
        #expect(try store.dropMail(id: leased.id, now: fixture.clock.now()) == .done)
        #expect(try store.outboxListing(status: nil, limit: 10).map(\.id) == [sent.id])
        #expect(try store.pendingMailCount() == 0)
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
}
