package import Foundation

/// The mail outbox: messages queued inside business transactions, delivered later.
package protocol OutboxStore: Sendable {
    /// Queues a message on its own (outside any other change).
    func enqueue(_ message: MailMessage, now: Date) throws
    /// Leases up to `limit` messages due at `now` for `lease` seconds, so no other worker
    /// takes them meanwhile. A worker that dies leaves them to be leased again later.
    func leaseDueMail(now: Date, lease: TimeInterval, limit: Int) throws -> [OutboxEntry]
    /// Records that the message was delivered and erases its bodies (which may hold a reset
    /// link); it is never sent again. Throws
    /// `storage_error` when no message has this id.
    func markSent(id: String, now: Date) throws
    /// Records a failed attempt at `now` and ends the lease; the message becomes due again
    /// at `retryAt`, or is given up (kept as failed, its bodies erased) when `retryAt` is nil. A message
    /// that is no longer pending (another worker sent it) is left as it is. Throws
    /// `storage_error` when no message has this id.
    func markFailed(id: String, error: String, retryAt: Date?, now: Date) throws
    /// How many messages are waiting to be sent, leased or not (failed ones excluded).
    func pendingMailCount() throws -> Int
}
