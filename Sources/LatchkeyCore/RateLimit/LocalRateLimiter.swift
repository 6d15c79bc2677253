package import Foundation
import Synchronization

/// A rate limiter in this process's memory: exact sliding windows per key, with
/// doubling penalties. Right for one instance; several instances need a shared limiter.
///
/// The keys are spread over ``shardCount`` shards by their hash, each with its own lock
/// and its share of the key bound, so threads deciding for different keys seldom wait for
/// each other. A key's decisions depend on that key's history alone, so sharding changes
/// none of them; only which idle keys a flood evicts first is decided per shard.
package final class LocalRateLimiter: RateLimiter {
    private struct KeyState {
        /// The instants of the counted events, oldest first, so each window's share is
        /// found by a binary search instead of a scan (a key may hold thousands).
        var events = EventLog()
        var blockedUntil: Date?
        var violations = 0
        /// The first wait of the current run of violations; later ones double it.
        var firstWait: TimeInterval = 0
        /// When the key holds nothing worth keeping: its events are out of every window
        /// and any block is over.
        var forgettableAfter = Date.distantPast
    }

    /// The keys of one shard, behind the shard's own lock.
    private final class Shard: Sendable {
        let states = Mutex<[String: KeyState]>([:])
        /// The most keys this shard tracks.
        let maximumKeys: Int

        init(maximumKeys: Int) {
            self.maximumKeys = maximumKeys
        }
    }

    /// How many shards the keys are spread over.
    package static let shardCount = 16

    private let shards: [Shard]

    /// Creates an empty limiter that tracks at most `maximumKeys` keys (each shard its
    /// share, at least one), forgetting the idlest ones beyond that so a flood of distinct
    /// keys cannot exhaust memory.
    package init(maximumKeys: Int = 100_000) {
        let share = maximumKeys / Self.shardCount
        let remainder = maximumKeys % Self.shardCount
        shards = (0..<Self.shardCount).map { index in
            Shard(maximumKeys: max(1, share + (index < remainder ? 1 : 0)))
        }
    }

    package func consume(_ key: String, policy: RateLimitPolicy, now: Date) -> RateLimitDecision {
        let shard = shard(for: key)
        return shard.states.withLock { states in
            let decision = Self.decide(&states[key, default: KeyState()], policy: policy, now: now)
            if states.count > shard.maximumKeys { Self.evictIdle(&states, now: now, keeping: key) }
            return decision
        }
    }

    package func check(_ key: String, policy: RateLimitPolicy, now: Date) -> RateLimitDecision {
        shard(for: key).states.withLock { states in
            guard let state = states[key] else { return .allowed }
            if let blockedUntil = state.blockedUntil, blockedUntil > now {
                return .limited(retryAfter: Self.retryAfter(blockedUntil.timeIntervalSince(now)))
            }
            return Self.fullWindowWait(state.events, policy: policy, now: now).map { .limited(retryAfter: Self.retryAfter($0)) }
                ?? .allowed
        }
    }

    package func refund(_ key: String, policy: RateLimitPolicy, now: Date) {
        shard(for: key).states.withLock { states in
            // Events are oldest first, so the latest at or before `now` is found from the end.
            states[key]?.events.removeLatest(notAfter: now)
        }
    }

    /// The shard that holds `key`: chosen by the key's hash, whose seed is random per
    /// process, so nobody can aim a flood of keys at one shard.
    private func shard(for key: String) -> Shard {
        shards[Int(UInt(bitPattern: key.hashValue) % UInt(Self.shardCount))]
    }

    /// How long until every window of `policy` has room again; nil when all have room now.
    /// `events` are oldest first.
    private static func fullWindowWait(_ events: EventLog, policy: RateLimitPolicy, now: Date) -> TimeInterval? {
        var longestWait: TimeInterval?
        for window in policy.windows {
            // The events in the window are a suffix; its first is the oldest of them.
            let first = events.firstIndex { now.timeIntervalSince($0) < window.seconds }
            guard events.count - first >= window.limit, first < events.count else { continue }
            let wait = window.seconds - now.timeIntervalSince(events[first])
            longestWait = max(longestWait ?? wait, wait)
        }
        return longestWait
    }

    private static func decide(_ state: inout KeyState, policy: RateLimitPolicy, now: Date) -> RateLimitDecision {
        let longest = policy.windows.lazy.map(\.seconds).max() ?? 0
        state.events.removeOldest(state.events.firstIndex { now.timeIntervalSince($0) < longest })

        let blocked = state.blockedUntil.map { $0 > now } ?? false
        let fullWindowWait = fullWindowWait(state.events, policy: policy, now: now)

        guard blocked || fullWindowWait != nil else {
            // Threads may bring their instants slightly out of order; the list stays sorted.
            state.events.insert(now)
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
            .sorted { ($0.value.events.latest ?? .distantPast) < ($1.value.events.latest ?? .distantPast) }
        for (key, _) in oldest.prefix(states.count / 10 + 1) { states.removeValue(forKey: key) }
    }
}
