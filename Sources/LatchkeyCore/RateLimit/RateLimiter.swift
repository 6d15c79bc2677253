package import Foundation

/// How many events a key may have, over which windows, and how long a key over them waits.
///
/// A refused event is never counted and never lengthens the wait: a key over its limit is told
/// to wait until every window has room again (at least ``basePenalty``), further attempts
/// meanwhile are told the time that remains, and an attempt made once that time has passed
/// is allowed. So whoever waits as long as told gets in, and hammering while blocked gains and
/// costs nothing here (other limits, counting every attempt, bound it).
package struct RateLimitPolicy: Sendable, Equatable {
    /// At most `limit` events in any `seconds`-long sliding window.
    package struct Window: Sendable, Equatable {
        /// Events allowed in the window.
        package let limit: Int
        /// The window's length in seconds.
        package let seconds: TimeInterval

        /// Creates a window of `limit` events per `seconds`.
        package init(limit: Int, seconds: TimeInterval) {
            self.limit = limit
            self.seconds = seconds
        }
    }

    /// Every window must have room for the event to be allowed.
    package let windows: [Window]
    /// When set, a key over its limit is blocked until every window has room again but for
    /// at least this many seconds; attempts while blocked are refused with the time that
    /// remains, never more. Without it, a refusal waits only for a window to have room.
    package let basePenalty: TimeInterval?

    /// Creates a policy.
    package init(windows: [Window], basePenalty: TimeInterval? = nil) {
        self.windows = windows
        self.basePenalty = basePenalty
    }
}

/// The outcome of asking a limiter about one event.
package enum RateLimitDecision: Sendable, Equatable {
    /// The event is within the limits and was counted.
    case allowed
    /// The event is over the limit and was not counted; try again after this many seconds.
    case limited(retryAfter: Int)
}

/// Counts events per key (an IP, an email hash) against a policy. Implementations are
/// shared by every request thread; the Redis one is shared by every instance.
package protocol RateLimiter: Sendable {
    /// Records an event for `key` at `now` if the policy allows it, and tells the outcome.
    func consume(_ key: String, policy: RateLimitPolicy, now: Date) throws -> RateLimitDecision
    /// Whether an event for `key` at `now` would be allowed, without recording anything:
    /// for limits on failures, checked before the attempt and consumed only when it fails.
    func check(_ key: String, policy: RateLimitPolicy, now: Date) throws -> RateLimitDecision
    /// Takes back the latest event recorded for `key` at or before `now` (none: nothing
    /// happens): for limits counted before an attempt runs — so concurrency cannot exceed
    /// them — that do not apply to the attempt's outcome (a failure limit, when it succeeded).
    /// Penalties already given stay.
    func refund(_ key: String, policy: RateLimitPolicy, now: Date) throws
}
