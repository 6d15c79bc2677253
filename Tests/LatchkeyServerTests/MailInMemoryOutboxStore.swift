import Foundation
import LatchkeyServer
import Synchronization

/// A thread-safe in-memory ``OutboxStore`` following the protocol's contract: leased
/// messages are hidden until the lease ends, sent ones never come back, failed ones come
/// due at their retry date or are kept as given up.
final class InMemoryOutboxStore: OutboxStore {
    struct Row {
        var message: MailMessage
        var attempts: Int
        var createdAt: Date
        var dueAt: Date
        var leasedUntil: Date?
        var sentAt: Date?
        var gaveUp = false
        var lastError: String?
    }

    private let rows = Mutex<[Row]>([])

    func enqueue(_ message: MailMessage, now: Date) throws {
        try rows.withLock { rows in
            guard !rows.contains(where: { $0.message.id == message.id }) else {
                throw LatchkeyError(.storage, "A message with this id is already queued.")
            }
            rows.append(Row(message: message, attempts: 0, createdAt: now, dueAt: now))
        }
    }

    func leaseDueMail(now: Date, lease: TimeInterval, limit: Int) throws -> [OutboxEntry] {
        rows.withLock { rows in
            var leased: [OutboxEntry] = []
            for index in rows.indices where leased.count < limit {
                let row = rows[index]
                guard row.sentAt == nil, !row.gaveUp, row.dueAt <= now, (row.leasedUntil ?? .distantPast) <= now else { continue }
                rows[index].leasedUntil = now.addingTimeInterval(lease)
                leased.append(OutboxEntry(message: row.message, attempts: row.attempts, createdAt: row.createdAt))
            }
            return leased
        }
    }

    func markSent(id: String, now: Date) throws {
        try update(id) { row in
            row.sentAt = now
            row.leasedUntil = nil
        }
    }

    func markFailed(id: String, error: String, retryAt: Date?, now: Date) throws {
        try update(id) { row in
            row.attempts += 1
            row.lastError = error
            row.leasedUntil = nil
            if let retryAt { row.dueAt = retryAt } else { row.gaveUp = true }
        }
    }

    func pendingMailCount() throws -> Int {
        rows.withLock { $0.filter { $0.sentAt == nil && !$0.gaveUp }.count }
    }

    /// The stored state of message `id`, for assertions.
    func row(_ id: String) -> Row? {
        rows.withLock { $0.first { $0.message.id == id } }
    }

    private func update(_ id: String, _ change: (inout Row) -> Void) throws {
        try rows.withLock { rows in
            guard let index = rows.firstIndex(where: { $0.message.id == id }) else {
                throw LatchkeyError(.storage, "No queued message has this id.")
            }
            change(&rows[index])
        }
    }
}
