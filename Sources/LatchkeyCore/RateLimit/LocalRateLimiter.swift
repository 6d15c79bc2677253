package import Foundation
import Synchronization

/// A rate limiter in this process's memory: exact sliding windows per key, with
/// doubling penalties. Right for one instance; several instances need a shared limiter.
package final class LocalRateLimiter: RateLimiter {
    private struct KeyState {
        var events: [Date] = []
        var blockedUntil: Date?
        var violations = 0
        /// The first wait of the current run of violations; later ones double it.
        var firstWait: TimeInterval = 0
        /// When the key holds nothing worth keeping: its events are out of every window
        /// and any block is over.
        var forgettableAfter = Date.distantPast
    }

    private let states = Mutex<[String: KeyState]>([:])
    private let maximumKeys: Int

    /// Creates an empty limiter that tracks at most `maximumKeys` keys, forgetting the
    /// idlest ones beyond that so a flood of distinct keys cannot exhaust memory.
    package init(maximumKeys: Int = 100_000) {
        self.maximumKeys = maximumKeys
    }

    package func consume(_ key: String, policy: RateLimitPolicy, now: Date) -> RateLimitDecision {
        states.withLock { states in
            var state = states[key] ?? KeyState()
            let decision = Self.decide(&state, policy: policy, now: now)
            states[key] = state
            if states.count > maximumKeys { Self.evictIdle(&states, now: now, keeping: key) }
            return decision
        }
    }

    package func check(_ key: String, policy: RateLimitPolicy, now: Date) -> RateLimitDecision {
        states.withLock { states in
            guard let state = states[key] else { return .allowed }
            if let blockedUntil = state.blockedUntil, blockedUntil > now {
                return .limited(retryAfter: Self.retryAfter(blockedUntil.timeIntervalSince(now)))
            }
            return Self.fullWindowWait(state.events, policy: policy, now: now).map { .limited(retryAfter: Self.retryAfter($0)) }
                ?? .allowed
        }
    }

    package func refund(_ key: String, policy: RateLimitPolicy, now: Date) {
        states.withLock { states in
            guard var state = states[key], let latest = state.events.lastIndex(where: { $0 <= now }) else { return }
            state.events.remove(at: latest)
            states[key] = state
        }
    }

    /// How long until every window of `policy` has room again; nil when all have room now.
    private static func fullWindowWait(_ events: [Date], policy: RateLimitPolicy, now: Date) -> TimeInterval? {
        policy.windows.compactMap { window -> TimeInterval? in
            let recent = events.filter { now.timeIntervalSince($0) < window.seconds }
            guard recent.count >= window.limit, let oldest = recent.min() else { return nil }
            return window.seconds - now.timeIntervalSince(oldest)
        }.max()
    }

    private static func decide(_ state: inout KeyState, policy: RateLimitPolicy, now: Date) -> RateLimitDecision {
        let longest = policy.windows.map(\.seconds).max() ?? 0
        state.events.removeAll { now.timeIntervalSince($0) >= longest }

        let blocked = state.blockedUntil.map { $0 > now } ?? false
        let fullWindowWait = fullWindowWait(state.events, policy: policy, now: now)

        guard blocked || fullWindowWait != nil else {
            state.events.append(now)
            state.violations = 0
            state.blockedUntil = nil
            state.forgettableAfter = now.addingTimeInterval(longest)
            return .allowed
        }
        guard let base = policy.basePenalty else {
            return .limited(retryAfter: retryAfter(fullWindowWait ?? 1))
        }
        // The first wait is long enough for the window to have room again, so a client
        // that obeys Retry-After gets in; each further attempt while blocked doubles it.
        if state.violations == 0 { state.firstWait = max(base, fullWindowWait ?? 0) }
        state.violations += 1
        let wait = min(state.firstWait * pow(2, Double(min(state.violations - 1, 30))), policy.maximumPenalty)
        let blockedUntil = now.addingTimeInterval(wait)
        state.blockedUntil = blockedUntil
        state.forgettableAfter = max(state.forgettableAfter, blockedUntil)
        return .limited(retryAfter: retryAfter(wait))
    }

    private static func retryAfter(_ seconds: TimeInterval) -> Int {
        max(1, Int(seconds.rounded(.up)))
    }

    /// Forgets keys that no longer limit anything; only if none qualify (a flood of distinct
    /// keys), the least recently used ones — memory stays bounded either way.
    private static func evictIdle(_ states: inout [String: KeyState], now: Date, keeping current: String) {
        let forgettable = states.filter { $0.key != current && $0.value.forgettableAfter <= now }.map(\.key)
        guard forgettable.isEmpty else {
            for key in forgettable { states.removeValue(forKey: key) }
            return
        }
        let oldest = states.filter { $0.key != current }
            .sorted { ($0.value.events.last ?? .distantPast) < ($1.value.events.last ?? .distantPast) }
        for (key, _) in oldest.prefix(states.count / 10 + 1) { states.removeValue(forKey: key) }
    }
}
