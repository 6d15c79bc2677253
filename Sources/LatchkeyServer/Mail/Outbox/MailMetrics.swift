import Synchronization

/// Receives a count of every delivery outcome, for `/metrics`.
public protocol MailMetrics: Sendable {
    /// A message was delivered.
    func mailSent()
    /// A delivery attempt failed; `gaveUp` when the message will not be tried again.
    func mailFailed(gaveUp: Bool)
}

/// Thread-safe running totals of delivery outcomes since start.
public final class MailDeliveryCounters: MailMetrics {
    private let sentCount = Atomic<Int>(0)
    private let failedCount = Atomic<Int>(0)
    private let gaveUpCount = Atomic<Int>(0)

    /// Creates counters at zero.
    public init() {}

    /// Messages delivered.
    public var sent: Int { sentCount.load(ordering: .relaxed) }
    /// Failed delivery attempts, including those that gave up.
    public var failed: Int { failedCount.load(ordering: .relaxed) }
    /// Messages given up after their last failed attempt.
    public var gaveUp: Int { gaveUpCount.load(ordering: .relaxed) }

    public func mailSent() {
        sentCount.add(1, ordering: .relaxed)
    }

    public func mailFailed(gaveUp: Bool) {
        failedCount.add(1, ordering: .relaxed)
        if gaveUp { gaveUpCount.add(1, ordering: .relaxed) }
    }
}
