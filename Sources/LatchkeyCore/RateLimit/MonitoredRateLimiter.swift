package import Foundation

/// Wraps a limiter whose store may be unreachable (Redis) and decides what an outage
/// means: every `rate_limiter_unavailable` failure is logged (the kind of limit, never
/// the key) and counted in ``ServerMetrics/rateLimiterUnavailable``; then, failing closed
/// (the default), the error propagates and the request is answered 503 with `Retry-After`;
/// failing open, the event is let through as allowed.
package struct MonitoredRateLimiter: RateLimiter {
    private let limiter: any RateLimiter
    private let failOpen: Bool
    private let logger: Logger
    private let metrics: ServerMetrics

    /// Creates it from its dependencies.
    package init(limiter: any RateLimiter, failOpen: Bool, logger: Logger, metrics: ServerMetrics) {
        self.limiter = limiter
        self.failOpen = failOpen
        self.logger = logger
        self.metrics = metrics
    }

    package func consume(_ key: String, policy: RateLimitPolicy, now: Date) throws -> RateLimitDecision {
        try guarded(key) { try limiter.consume(key, policy: policy, now: now) }
    }

    package func check(_ key: String, policy: RateLimitPolicy, now: Date) throws -> RateLimitDecision {
        try guarded(key) { try limiter.check(key, policy: policy, now: now) }
    }

    package func refund(_ key: String, policy: RateLimitPolicy, now: Date) throws {
        _ = try guarded(key) {
            try limiter.refund(key, policy: policy, now: now)
            return .allowed
        }
    }

    private func guarded(_ key: String, _ decide: () throws -> RateLimitDecision) throws -> RateLimitDecision {
        do {
            return try decide()
        } catch let error as LatchkeyError where error.code == .rateLimiterUnavailable {
            metrics.rateLimiterUnavailable.increment()
            // Keys carry an IP or an address hash after the colon; only the kind is logged.
            let kind = key.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            logger.error("rate_limiter_unavailable", [
                "limit": .string(kind), "fail_open": .bool(failOpen), "error": .string(error.description),
            ])
            if failOpen { return .allowed }
            throw error
        }
    }
}
