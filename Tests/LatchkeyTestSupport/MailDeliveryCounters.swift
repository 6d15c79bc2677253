import LatchkeyCore
import Synchronization

/// Running totals of delivery outcomes, for tests of the outbox worker.
package final class MailDeliveryCounters: MailMetrics {
    private let sentCount = Atomic<Int>(0)
    private let failedCount = Atomic<Int>(0)
    private let gaveUpCount = Atomic<Int>(0)
    private let retriedCount = Atomic<Int>(0)

    /// Creates counters at zero.
    package init() {}

    /// Messages delivered.
    package var sent: Int { sentCount.load(ordering: .relaxed) }
    /// Failed delivery attempts, including those that gave up.
    package var failed: Int { failedCount.load(ordering: .relaxed) }
    /// Messages given up after their last failed attempt.
    package var gaveUp: Int { gaveUpCount.load(ordering: .relaxed) }
    /// Attempts at messages whose earlier attempt had failed.
    package var retried: Int { retriedCount.load(ordering: .relaxed) }

    /// Counts a delivered message.
    package func mailSent() {
        sentCount.add(1, ordering: .relaxed)
    }

    /// Counts a failed attempt, and a given-up message when `gaveUp`.
    package func mailFailed(gaveUp: Bool) {
        failedCount.add(1, ordering: .relaxed)
        if gaveUp { gaveUpCount.add(1, ordering: .relaxed) }
    }

    /// Counts an attempt at a message that failed before.
    package func mailRetried() {
        retriedCount.add(1, ordering: .relaxed)
    }
}
