import Foundation
import LatchkeyServer
import Testing

@Suite struct LocalRateLimiterTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("one mail per minute and five per hour per address")
    func perAddressWindows() {
        let limiter = LocalRateLimiter()
        let policy = PasswordRecoveryService.perAddressPolicy
        #expect(limiter.consume("a", policy: policy, now: start) == .allowed)
        #expect(limiter.consume("a", policy: policy, now: start.addingTimeInterval(30)) == .limited(retryAfter: 30))
        #expect(limiter.consume("b", policy: policy, now: start.addingTimeInterval(30)) == .allowed)
        for minute in 1...4 {
            #expect(limiter.consume("a", policy: policy, now: start.addingTimeInterval(Double(minute) * 61)) == .allowed)
        }
        // Six minutes in: five mails this hour, so the sixth waits for the first to age out.
        #expect(limiter.consume("a", policy: policy, now: start.addingTimeInterval(6 * 61)) == .limited(retryAfter: 3600 - 366))
        #expect(limiter.consume("a", policy: policy, now: start.addingTimeInterval(3601)) == .allowed)
    }

    @Test("checking records nothing and reports a full window or a block without lengthening it")
    func checkDoesNotCount() {
        let limiter = LocalRateLimiter()
        let policy = RateLimitPolicy(windows: [.init(limit: 2, seconds: 600)], basePenalty: 60, maximumPenalty: 3600)
        for _ in 0..<5 { #expect(limiter.check("key", policy: policy, now: start) == .allowed) }
        #expect(limiter.consume("key", policy: policy, now: start) == .allowed)
        #expect(limiter.consume("key", policy: policy, now: start) == .allowed)
        #expect(limiter.check("key", policy: policy, now: start.addingTimeInterval(100)) == .limited(retryAfter: 500))
        #expect(limiter.consume("key", policy: policy, now: start.addingTimeInterval(100)) == .limited(retryAfter: 500))
        #expect(limiter.check("key", policy: policy, now: start.addingTimeInterval(200)) == .limited(retryAfter: 400))
        #expect(limiter.check("key", policy: policy, now: start.addingTimeInterval(600)) == .allowed)
    }

    @Test("beyond the IP limit the wait doubles on each further attempt, up to an hour")
    func doublingPenalty() {
        let limiter = LocalRateLimiter()
        let policy = RateLimitPolicy(windows: [.init(limit: 2, seconds: 600)], basePenalty: 60, maximumPenalty: 3600)
        #expect(limiter.consume("ip", policy: policy, now: start) == .allowed)
        #expect(limiter.consume("ip", policy: policy, now: start) == .allowed)
        var waits: [Int] = []
        for _ in 0..<8 {
            if case .limited(let wait) = limiter.consume("ip", policy: policy, now: start.addingTimeInterval(1)) { waits.append(wait) }
        }
        // The first wait lasts until the window has room (599 s), then doubles up to an hour.
        #expect(waits == [599, 1198, 2396, 3600, 3600, 3600, 3600, 3600])
        #expect(limiter.consume("other", policy: policy, now: start.addingTimeInterval(1)) == .allowed)
        // Once the block and the window have passed, the key starts afresh.
        #expect(limiter.consume("ip", policy: policy, now: start.addingTimeInterval(1 + 3600 + 600)) == .allowed)
    }

    @Test("a client that obeys Retry-After gets in")
    func obeyingRetryAfter() {
        let limiter = LocalRateLimiter()
        let policy = RateLimitPolicy(windows: [.init(limit: 20, seconds: 600)], basePenalty: 60, maximumPenalty: 3600)
        for _ in 0..<20 { _ = limiter.consume("ip", policy: policy, now: start) }
        guard case .limited(let wait) = limiter.consume("ip", policy: policy, now: start.addingTimeInterval(1)) else {
            Issue.record("expected a limit")
            return
        }
        #expect(limiter.consume("ip", policy: policy, now: start.addingTimeInterval(1 + Double(wait))) == .allowed)
    }

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
        // The newest key is still tracked (limited), so eviction removed old keys only.
        #expect(limiter.consume("k999", policy: policy, now: start) != .allowed)
    }
}
