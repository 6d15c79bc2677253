package import Foundation

/// Wraps the server's limiter and counts every decision to count an event (``consume``) by
/// the kind of limit, the key's prefix before its first `:` (`login-ip`, `reset-ip`, …; never
/// the IP or address hash after it), as allowed or limited, for
/// `latchkey_rate_limit_decisions_total`. Checks and refunds pass through uncounted; a
/// decision that failed (Redis unreachable) is counted by ``MonitoredRateLimiter``.
package struct MeteredRateLimiter: RateLimiter {
    private let limiter: any RateLimiter
    private let metrics: any RateLimitMetrics

    /// Counts the decisions of `limiter` in `metrics`.
    package init(limiter: any RateLimiter, metrics: any RateLimitMetrics) {
        self.limiter = limiter
        self.metrics = metrics
    }

    package func consume(_ key: String, policy: RateLimitPolicy, now: Date) throws -> RateLimitDecision {
        let decision = try limiter.consume(key, policy: policy, now: now)
        let limited = if case .limited = decision { true } else { false }
        // Cut by bytes: going by characters segments graphemes.
        metrics.rateLimitDecision(limit: key[..<(key.utf8.firstIndex(of: UInt8(ascii: ":")) ?? key.endIndex)], limited: limited)
        return decision
    }

    package func check(_ key: String, policy: RateLimitPolicy, now: Date) throws -> RateLimitDecision {
        try limiter.check(key, policy: policy, now: now)
    }

    package func refund(_ key: String, policy: RateLimitPolicy, now: Date) throws {
        try limiter.refund(key, policy: policy, now: now)
    }
}
