package import Foundation

/// Delivers the mail waiting in an ``OutboxStore``: leases what is due, sends it through a
/// ``MailTransport``, records success, and schedules failed messages again with
/// exponential backoff (``OutboxRetryPolicy``) until they are given up.
///
/// Delivery is at least once: a message is marked sent only after the transport accepted
/// it, and a worker that dies mid-send leaves the message to be leased again when its lease
/// runs out. Times all come from the injected clock. Logs name a message by its id and its
/// recipient only by `addressKey` (a keyed hash), never in clear.
package final class OutboxWorker: BackgroundJob {
    private let store: any OutboxStore
    private let transport: any MailTransport
    private let clock: any WallClock
    private let logger: Logger
    private let addressKey: @Sendable (String) -> String
    private let metrics: any MailMetrics
    private let retryPolicy: OutboxRetryPolicy
    private let lease: TimeInterval
    private let batchSize: Int
    /// How often the runner looks for due mail.
    package let schedule: JobSchedule
    /// `outbox_worker`.
    package let name = "outbox_worker"

    /// Creates a worker.
    ///
    /// - Parameters:
    ///   - addressKey: turns a recipient address into the pseudonym that goes into logs.
    ///   - metrics: counts sent, failed and retried deliveries.
    ///   - lease: how long a leased batch is reserved for this worker, in seconds; it
    ///     should exceed `batchSize` times the transport's timeout. A message whose lease
    ///     ran out before its turn is left for the next lease rather than sent.
    ///   - batchSize: how many messages one lease takes.
    package init(
        store: any OutboxStore, transport: any MailTransport, clock: any WallClock, logger: Logger,
        addressKey: @escaping @Sendable (String) -> String, metrics: any MailMetrics,
        retryPolicy: OutboxRetryPolicy = OutboxRetryPolicy(), lease: TimeInterval = 300, batchSize: Int = 10,
        pollInterval: TimeInterval = 0.5
    ) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.logger = logger
        self.addressKey = addressKey
        self.metrics = metrics
        self.retryPolicy = retryPolicy
        self.lease = lease
        self.batchSize = max(1, batchSize)
        self.schedule = JobSchedule(interval: pollInterval)
    }

    /// Delivers every message due now, batch by batch (ending between batches once
    /// `isStopping`). Failures are recorded in the store and logged, never thrown.
    package func run(isStopping: () -> Bool) {
        _ = deliverDue(isStopping: isStopping)
    }

    /// Delivers every message due now and returns how many were sent; tests call it with a
    /// manual clock.
    @discardableResult
    package func runOnce() -> Int {
        deliverDue { false }
    }

    private func deliverDue(isStopping: () -> Bool) -> Int {
        var sent = 0
        while !isStopping() {
            let leasedAt = clock.now()
            let batch: [OutboxEntry]
            do {
                batch = try store.leaseDueMail(now: leasedAt, lease: lease, limit: batchSize)
            } catch {
                logger.error("outbox_lease_failed", Self.errorFields(error))
                return sent
            }
            for entry in batch {
                // Past its lease another worker may hold the message; it will come due again.
                guard clock.now() < leasedAt.addingTimeInterval(lease) else { break }
                if deliver(entry) { sent += 1 }
            }
            if batch.count < batchSize { break }
        }
        return sent
    }

    /// Sends one message and records the outcome; true when it was delivered.
    private func deliver(_ entry: OutboxEntry) -> Bool {
        let message = entry.message
        let attempt = entry.attempts + 1
        if entry.attempts > 0 { metrics.mailRetried() }
        do {
            try transport.send(message)
        } catch {
            recordFailure(of: entry, error: error)
            return false
        }
        metrics.mailSent()
        logger.info("mail_sent", [
            "message_id": .string(message.id), "recipient_key": .string(addressKey(message.to)),
            "attempt": .int(attempt),
        ])
        do {
            try store.markSent(id: message.id, now: clock.now())
        } catch {
            // The message went out; if the store forgot that, it may be sent once more.
            logger.error("outbox_mark_sent_failed", ["message_id": .string(message.id)].merging(Self.errorFields(error)) { $1 })
        }
        return true
    }

    private func recordFailure(of entry: OutboxEntry, error: any Error) {
        let message = entry.message
        let now = clock.now()
        // A message the transport can never accept (an unsafe header) is not retried.
        let permanent = (error as? LatchkeyError)?.code == .invalidMailHeader
        let retryAt = permanent ? nil : retryPolicy.retryDate(previousFailures: entry.attempts, now: now)
        var fields = Self.errorFields(error)
        fields["message_id"] = .string(message.id)
        fields["recipient_key"] = .string(addressKey(message.to))
        fields["attempt"] = .int(entry.attempts + 1)
        if let retryAt {
            fields["retry_in_seconds"] = .int(Int(retryAt.timeIntervalSince(now).rounded()))
        } else {
            fields["gave_up"] = .bool(true)
        }
        metrics.mailFailed(gaveUp: retryAt == nil)
        logger.log(retryAt == nil ? .error : .warning, "mail_failed", fields)
        do {
            try store.markFailed(id: message.id, error: Self.summary(of: error), retryAt: retryAt, now: now)
        } catch let storeError {
            logger.error("outbox_mark_failed_failed", ["message_id": .string(message.id)].merging(Self.errorFields(storeError)) { $1 })
        }
    }

    /// A description safe to store and log: a ``LatchkeyError``'s code, message and detail,
    /// or just the type of any other error (whose text we cannot vouch for).
    private static func summary(of error: any Error) -> String {
        (error as? LatchkeyError)?.description ?? "unexpected \(type(of: error))"
    }

    private static func errorFields(_ error: any Error) -> [String: Logger.Value] {
        guard let error = error as? LatchkeyError else {
            return ["error_code": .string(LatchkeyError.Code.internalError.rawValue), "error": .string("\(type(of: error))")]
        }
        var fields: [String: Logger.Value] = ["error_code": .string(error.code.rawValue), "error": .string(error.message)]
        if let detail = error.detail { fields["detail"] = .string(detail) }
        return fields
    }
}
