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
    /// at `retryAt`, or is given up (kept as failed, with its bodies, so an operator can send
    /// it again with ``retryMail(id:now:)``, until it is dropped or purged) when `retryAt` is
    /// nil. A message that is no longer pending (another worker sent it) is left as it is.
    /// Throws `storage_error` when no message has this id.
    func markFailed(id: String, error: String, retryAt: Date?, now: Date) throws
    /// How many messages are waiting to be sent, leased or not (failed ones excluded).
    func pendingMailCount() throws -> Int
    /// The messages in the outbox with `status` (every status when nil), oldest first, at most
    /// `limit`: what the operator's `latchkey outbox list` shows, never a body.
    func outboxListing(status: OutboxListing.Status?, limit: Int) throws -> [OutboxListing]
    /// Makes the pending or failed (given-up) message `id` due at `now`: a failed one is pending
    /// again with its attempts counted so far (one more failure gives it up again); the lease
    /// of a message being sent stays. Nothing changes unless the outcome is `done`.
    func retryMail(id: String, now: Date) throws -> OutboxChange
    /// Deletes the pending or failed message `id`, unless a worker holds it at `now` (it is
    /// being sent). Nothing changes unless the outcome is `done`.
    func dropMail(id: String, now: Date) throws -> OutboxChange
}

/// One outbox message as the outbox commands list it: where it stands, never its bodies.
package struct OutboxListing: Sendable, Equatable {
    /// Where a message stands.
    package enum Status: String, Sendable, CaseIterable {
        /// Waiting to be sent, for the first time or again after a failure.
        case pending
        /// Delivered (its bodies erased).
        case sent
        /// Given up after its last attempt failed.
        case failed
    }

    /// The message id (the `.eml` file name under the file transport).
    package let id: String
    /// Where it stands.
    package let status: Status
    /// The recipient's address.
    package let recipient: String
    /// The subject.
    package let subject: String
    /// Failed delivery attempts so far.
    package let attempts: Int
    /// When it was queued.
    package let createdAt: Date
    /// When a pending message is (or was) due.
    package let nextAttemptAt: Date
    /// When it was last tried, if ever.
    package let lastAttemptAt: Date?
    /// Why the last attempt failed, if it did.
    package let lastError: String?

    /// Creates a listing value.
    package init(
        id: String, status: Status, recipient: String, subject: String, attempts: Int, createdAt: Date, nextAttemptAt: Date,
        lastAttemptAt: Date?, lastError: String?
    ) {
        self.id = id
        self.status = status
        self.recipient = recipient
        self.subject = subject
        self.attempts = attempts
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.lastAttemptAt = lastAttemptAt
        self.lastError = lastError
    }
}

/// What came of an operator's change to one outbox message.
package enum OutboxChange: Sendable, Equatable {
    /// Changed as asked.
    case done
    /// No message has this id.
    case noSuchMail
    /// It was delivered already.
    case alreadySent
    /// A worker is sending it right now (drop only).
    case beingSent
    /// Its bodies were erased when it was given up (by a version that did so): nothing left to send.
    case textErased
}
