import Foundation

extension RateLimiter {
    /// Counts one event of a sign-in by `method` (``SignInMethod``) against `key`. Over
    /// `policy`, the refusal is counted in `metrics`, logged as `login_limited` (the limit's
    /// name, the address truncated, the wait) and thrown as `rate_limited` with its wait: the
    /// one way every sign-in method meets its limits.
    func consumeSignIn(
        _ key: String, _ policy: RateLimitPolicy, now: Date, clientIP: String, method: String, metrics: any SignInMetrics,
        logger: Logger
    ) throws {
        if case .limited(let retryAfter) = try consume(key, policy: policy, now: now) {
            metrics.signIn(method: method, outcome: .rateLimited)
            logger.info("login_limited", [
                "limit": .string(String(key.prefix { $0 != ":" })), "ip": .string(IPAddress.truncatedForLogs(clientIP)),
                "retry_after": .int(retryAfter),
            ])
            throw LatchkeyError.rateLimited(retryAfter: retryAfter)
        }
    }
}
