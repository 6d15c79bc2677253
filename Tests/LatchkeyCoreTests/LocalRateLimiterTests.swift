import Foundation
import LatchkeyCore
import Synchronization
import LatchkeyTestSupport
import Testing

/// What only the in-memory limiter has to promise: bounded memory under a key flood.
@Suite struct LocalRateLimiterTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a flood of short-lived keys does not evict a key that still limits")
    func floodKeepsLiveLimits() {
        let limiter = LocalRateLimiter(maximumKeys: 100)
        let policy = PasswordRecoveryService.perAddressPolicy
        for minute in 0..<5 {
            #expect(limiter.consume("victim", policy: policy, now: start.addingTimeInterval(Double(minute) * 61)) == .allowed)
        }
        let shortLived = RateLimitPolicy(windows: [.init(limit: 1, seconds: 1)])
        for i in 0..<300 {
            _ = limiter.consume("flood\(i)", policy: shortLived, now: start.addingTimeInterval(300 + Double(i)))
        }
        // The victim's five mails this hour still count: only keys that no longer limit were forgotten.
        #expect(limiter.consume("victim", policy: policy, now: start.addingTimeInterval(700)) != .allowed)
    }

    @Test("a flood of distinct keys does not grow memory without bound")
    func boundedKeys() {
        let limiter = LocalRateLimiter(maximumKeys: 100)
        let policy = RateLimitPolicy(windows: [.init(limit: 1, seconds: 60)])
        for i in 0..<1000 { _ = limiter.consume("k\(i)", policy: policy, now: start) }
        // Every key still limits, so a key the limiter remembers checks as limited and a
        // forgotten one as allowed: at most the bound are remembered, the newest among them.
        let remembered = (0..<1000).filter { limiter.check("k\($0)", policy: policy, now: start) != .allowed }
        #expect(remembered.count <= 100)
        #expect(remembered.count >= 80)
        #expect(remembered.contains(999))
        #expect(!remembered.contains(0))
    }

    @Test("a key hammered while blocked outlives a flood of other keys; keys nobody uses go first")
    func hammeredKeySurvivesFlood() {
        let limiter = LocalRateLimiter(maximumKeys: 100)
        let policy = PasswordRecoveryService.perAddressPolicy
        #expect(limiter.consume("victim", policy: policy, now: start) == .allowed)
        #expect(limiter.consume("idle", policy: policy, now: start) == .allowed)
        // An attacker floods fresh addresses and keeps retrying the victim's, hoping to push
        // the victim's key out and send another mail: every retry keeps it in use.
        for i in 0..<2000 {
            let now = start.addingTimeInterval(1 + Double(i) / 100)
            #expect(limiter.consume("flood\(i)", policy: policy, now: now) == .allowed)
            #expect(limiter.consume("victim", policy: policy, now: now) != .allowed)
        }
        #expect(limiter.check("victim", policy: policy, now: start.addingTimeInterval(30)) != .allowed)
        #expect(limiter.check("idle", policy: policy, now: start.addingTimeInterval(30)) == .allowed)
    }

    @Test("a key holding hundreds of events decides as a plain list of its events would, refunds and late instants included")
    func longEventLogStaysExact() {
        let limiter = LocalRateLimiter()
        let policy = RateLimitPolicy(windows: [.init(limit: 50, seconds: 1), .init(limit: 400, seconds: 10)])
        var reference = ReferenceWindows(policy: policy)
        var random = SplitMix64(seed: 10)
        var now = start
        var decisions: [RateLimitDecision] = []
        for step in 0..<30_000 {
            // Arrivals around 100 a second, in bursts and lulls; one in 20 read the clock a
            // little earlier than the one before (threads racing); one in 50 is refunded.
            now = now.addingTimeInterval(Double(random.next() % 20_000) / 1_000_000)
            let instant = random.next() % 20 == 0 ? now.addingTimeInterval(-Double(random.next() % 5_000) / 1_000_000) : now
            if step % 50 == 49 {
                limiter.refund("ip", policy: policy, now: instant)
                reference.refund(now: instant)
            } else {
                let decision = limiter.consume("ip", policy: policy, now: instant)
                #expect(decision == reference.consume(now: instant), "step \(step)")
                decisions.append(decision)
            }
        }
        // Both kinds of answer were exercised, many times over.
        #expect(decisions.count(where: { $0 == .allowed }) > 1_000)
        #expect(decisions.count(where: { $0 != .allowed }) > 1_000)
    }
}

/// What ``LocalRateLimiter`` promises for a policy without penalties, written as plainly as
/// possible: every counted instant in a list, each window counted by a scan.
private struct ReferenceWindows {
    let policy: RateLimitPolicy
    var events: [Date] = []

    mutating func consume(now: Date) -> RateLimitDecision {
        let longest = policy.windows.map(\.seconds).max() ?? 0
        events.removeAll { now.timeIntervalSince($0) >= longest }
        var wait: TimeInterval?
        for window in policy.windows {
            let inWindow = events.filter { now.timeIntervalSince($0) < window.seconds }
            if inWindow.count >= window.limit, let oldest = inWindow.min() {
                wait = max(wait ?? 0, window.seconds - now.timeIntervalSince(oldest))
            }
        }
        if let wait { return .limited(retryAfter: max(1, Int(wait.rounded(.up)))) }
        events.append(now)
        events.sort()
        return .allowed
    }

    mutating func refund(now: Date) {
        if let latest = events.indices.last(where: { events[$0] <= now }) { events.remove(at: latest) }
    }
}

/// The in-memory limiter on real threads: its shards keep every key's count exact.
@Suite struct LocalRateLimiterConcurrencyTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("threads racing on one key are allowed exactly its limit, while each thread's own key counts alone")
    func racingConsumersGetExactlyTheLimit() {
        let limiter = LocalRateLimiter()
        let policy = RateLimitPolicy(windows: [.init(limit: 100, seconds: 600)])
        let shared = Mutex(0)
        let own = Mutex<[Int]>([])
        runOnThreads(8) { thread in
            var allowedOwn = 0
            for attempt in 0..<50 {
                let now = start.addingTimeInterval(Double(attempt) / 100)
                if limiter.consume("shared", policy: policy, now: now) == .allowed { shared.withLock { $0 += 1 } }
                if limiter.consume("own:\(thread)", policy: policy, now: now) == .allowed { allowedOwn += 1 }
            }
            own.withLock { $0.append(allowedOwn) }
        }
        // 400 attempts on the shared key: the first 100 in, the rest limited.
        #expect(shared.withLock { $0 } == 100)
        #expect(own.withLock { $0 } == Array(repeating: 50, count: 8))
        #expect(limiter.check("shared", policy: policy, now: start.addingTimeInterval(1)) != .allowed)
    }
}
