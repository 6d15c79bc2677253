package import Foundation

/// A rate limiter in this process's memory: exact sliding windows per key, with a block of
/// at least the policy's ``RateLimitPolicy/basePenalty`` that attempts while blocked never
/// lengthen. Right for one instance; several instances need a shared limiter.
///
/// The keys are spread over ``shardCount`` shards by their hash, each with its own lock
/// and its share of the key bound, so threads deciding for different keys seldom wait for
/// each other. A key's decisions depend on that key's history alone, so sharding changes
/// none of them; only which idle keys a flood evicts first is decided per shard.
///
/// Past its bound a shard forgets every key that limits nothing any more, then the least
/// recently consumed ones, down to nine tenths of the bound. A key is "used" by every
/// decision about it, refused attempts included, so a key that is being hammered while
/// blocked is the last a flood of other keys can push out. Each eviction frees a tenth of
/// the bound and costs time linear in it, so a flood of distinct keys costs O(1) per key
/// amortised, never a sort of the shard under its lock.
package final class LocalRateLimiter: RateLimiter {
    private struct KeyState {
        /// The instants of the counted events, oldest first, so each window's share is
        /// found by a binary search instead of a scan (a key may hold thousands).
        var events = EventLog()
        /// The end of the current block: set by the first refusal, never moved by later ones.
        var blockedUntil: Date?
        /// When the key holds nothing worth keeping: its events are out of every window
        /// and any block is over.
        var forgettableAfter = Date.distantPast
        /// The shard's use counter at the key's latest decision.
        var lastUse: UInt64 = 0
    }

    /// A key and its hash, computed once: the shard is chosen by it and each table operation
    /// reuses it, where a `String` key is hashed again at every lookup, insertion and
    /// removal (a reset request's address key is some 60 bytes, hashed several times a request).
    /// The hash is Swift's, seeded per process, so nobody can aim keys at one bucket.
    private struct Key: Hashable {
        let text: String
        let hash: Int

        init(_ text: String) {
            self.text = text
            hash = text.hashValue
        }

        static func == (left: Key, right: Key) -> Bool {
            left.hash == right.hash && left.text == right.text
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }
    }

    /// One key's decision in the order of uses: current while `stamp` is still the key's
    /// ``KeyState/lastUse``, stale (left for the next compaction) once it was used again.
    private struct Use {
        let key: Key
        let stamp: UInt64
    }

    /// The keys of one shard and the order they were used in.
    private struct ShardState: Sendable {
        var states: [Key: KeyState] = [:]
        /// Uses, oldest first: the least recently used key is the first whose use is
        /// current. Compacted to one use per key once stale ones outnumber the keys, so it
        /// holds at most about twice as many uses as keys.
        var uses = FrontDroppingArray<Use>()
        var useCounter: UInt64 = 0
        /// At or before every key's ``KeyState/forgettableAfter``: until then no key is
        /// forgettable, and an eviction need not look for one.
        var noneForgettableBefore = Date.distantFuture

        func isCurrent(_ use: Use) -> Bool {
            states[use.key]?.lastUse == use.stamp
        }

        /// Keeps only the current use of each key, in order.
        mutating func compactUses() {
            var current = FrontDroppingArray<Use>()
            for index in 0..<uses.count where isCurrent(uses[index]) { current.append(uses[index]) }
            uses = current
        }
    }

    /// The keys of one shard, behind the shard's own lock.
    private final class Shard: Sendable {
        let state = SleepingLock(ShardState())
        /// The most keys this shard tracks.
        let maximumKeys: Int
        /// How many keys an eviction leaves: nine tenths of the bound, so the next one is a
        /// tenth of the bound of new keys away.
        let keysAfterEviction: Int

        init(maximumKeys: Int) {
            self.maximumKeys = maximumKeys
            keysAfterEviction = maximumKeys - max(1, maximumKeys / 10)
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

    package func consume(_ text: String, policy: RateLimitPolicy, now: Date) -> RateLimitDecision {
        let key = Key(text)
        let shard = shard(for: key)
        return shard.state.withLock { held in
            held.useCounter += 1
            let stamp = held.useCounter
            let decision = Self.decide(
                &held.states[key, default: KeyState()], use: stamp, policy: policy, now: now,
                noneForgettableBefore: &held.noneForgettableBefore)
            held.uses.append(Use(key: key, stamp: stamp))
            if held.states.count > shard.maximumKeys {
                Self.evict(&held, now: now, keeping: key, down: shard.keysAfterEviction)
            } else if held.uses.count > 2 * held.states.count + 64 {
                held.compactUses()
            }
            return decision
        }
    }

    package func check(_ text: String, policy: RateLimitPolicy, now: Date) -> RateLimitDecision {
        let key = Key(text)
        return shard(for: key).state.withLock { held in
            guard let state = held.states[key] else { return .allowed }
            if let blockedUntil = state.blockedUntil, blockedUntil > now {
                return .limited(retryAfter: Self.retryAfter(blockedUntil.timeIntervalSince(now)))
            }
            return Self.fullWindowWait(state.events, policy: policy, now: now).map { .limited(retryAfter: Self.retryAfter($0)) }
                ?? .allowed
        }
    }

    package func refund(_ text: String, policy: RateLimitPolicy, now: Date) {
        let key = Key(text)
        shard(for: key).state.withLock { held in
            // Events are oldest first, so the latest at or before `now` is found from the end.
            held.states[key]?.events.removeLatest(notAfter: now)
        }
    }

    /// The shard that holds `key`: chosen by the key's hash, whose seed is random per
    /// process, so nobody can aim a flood of keys at one shard.
    private func shard(for key: Key) -> Shard {
        shards[Int(UInt(bitPattern: key.hash) % UInt(Self.shardCount))]
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

    /// Decides for the key of `state`, and keeps `noneForgettableBefore` at or before the
    /// key's ``KeyState/forgettableAfter`` as it leaves it.
    private static func decide(
        _ state: inout KeyState, use: UInt64, policy: RateLimitPolicy, now: Date, noneForgettableBefore: inout Date
    ) -> RateLimitDecision {
        defer { noneForgettableBefore = min(noneForgettableBefore, state.forgettableAfter) }
        state.lastUse = use
        let longest = policy.windows.lazy.map(\.seconds).max() ?? 0
        state.events.removeOldest(state.events.firstIndex { now.timeIntervalSince($0) < longest })

        let blocked = state.blockedUntil.map { $0 > now } ?? false
        let fullWindowWait = fullWindowWait(state.events, policy: policy, now: now)

        guard blocked || fullWindowWait != nil else {
            // Threads may bring their instants slightly out of order; the list stays sorted.
            state.events.insert(now)
            state.blockedUntil = nil
            state.forgettableAfter = now.addingTimeInterval(longest)
            return .allowed
        }
        guard let base = policy.basePenalty else {
            return .limited(retryAfter: retryAfter(fullWindowWait ?? 1))
        }
        // A block runs until every window has room again, at least `base`; an attempt while
        // blocked is told what remains and changes nothing, so the wait never grows.
        if let blockedUntil = state.blockedUntil, blocked {
            return .limited(retryAfter: retryAfter(blockedUntil.timeIntervalSince(now)))
        }
        let wait = max(base, fullWindowWait ?? 0)
        let blockedUntil = now.addingTimeInterval(wait)
        state.blockedUntil = blockedUntil
        state.forgettableAfter = max(state.forgettableAfter, blockedUntil)
        return .limited(retryAfter: retryAfter(wait))
    }

    private static func retryAfter(_ seconds: TimeInterval) -> Int {
        max(1, Int(seconds.rounded(.up)))
    }

    /// Forgets every key that no longer limits anything, then the least recently used ones
    /// until `keys` remain; `current` (the key just decided) stays. Linear in the shard, and
    /// only the keys forgotten are hashed: they are removed in place (a filtered copy of the
    /// table hashed every key kept, some 6 000 a shard, and grew its table back afterwards).
    /// The shard is searched for forgettable keys only once one may be
    /// (``ShardState/noneForgettableBefore``): a flood of fresh addresses, each kept for the
    /// address limit's hour, made every eviction look through the whole shard and find none
    /// (measured: docs/performance.md, "Rate limiter eviction"). The stale uses left behind are
    /// compacted by ``consume(_:policy:now:)`` once they outnumber the keys, as any others.
    private static func evict(_ shard: inout ShardState, now: Date, keeping current: Key, down keys: Int) {
        if shard.noneForgettableBefore <= now {
            var forgettable: [Key] = []
            var earliestKept = Date.distantFuture
            for (key, state) in shard.states {
                if key != current && state.forgettableAfter <= now {
                    forgettable.append(key)
                } else {
                    earliestKept = min(earliestKept, state.forgettableAfter)
                }
            }
            for key in forgettable { shard.states.removeValue(forKey: key) }
            shard.noneForgettableBefore = earliestKept
        }
        while shard.states.count > keys, let oldest = shard.uses.first {
            let isCurrent = shard.isCurrent(oldest)
            if isCurrent && oldest.key == current { break }
            shard.uses.removeFirst(1)
            if isCurrent { shard.states.removeValue(forKey: oldest.key) }
        }
    }
}
