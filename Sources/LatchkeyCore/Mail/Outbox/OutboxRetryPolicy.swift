package import Foundation

/// When a message whose delivery failed is tried again: exponential backoff with a cap,
/// and a number of attempts after which it is given up.
package struct OutboxRetryPolicy: Sendable, Equatable {
    /// The wait after the first failure, in seconds; it doubles after each further one.
    package let baseDelay: TimeInterval
    /// The longest wait between two attempts, in seconds.
    package let maximumDelay: TimeInterval
    /// How many failed attempts a message gets before it is given up.
    package let maximumAttempts: Int

    /// Creates a policy; the defaults wait 30 s, 1 min, 2 min, … up to 1 h between attempts
    /// and give up after the 10th failed attempt (about three hours after the first).
    package init(baseDelay: TimeInterval = 30, maximumDelay: TimeInterval = 3600, maximumAttempts: Int = 10) {
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(self.baseDelay, maximumDelay)
        self.maximumAttempts = max(1, maximumAttempts)
    }

    /// When to try again after the attempt that just failed, given the number of attempts
    /// that had failed before it; nil when the message is to be given up.
    package func retryDate(previousFailures: Int, now: Date) -> Date? {
        let failures = previousFailures + 1
        guard failures < maximumAttempts else { return nil }
        // Clamping the exponent keeps pow finite however many attempts a policy allows.
        let exponent = Double(min(failures - 1, 62))
        return now.addingTimeInterval(min(baseDelay * pow(2, exponent), maximumDelay))
    }
}
