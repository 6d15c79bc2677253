import Foundation
import LatchkeyCore
import Testing

/// The behaviour every limiter promises, run against each implementation so the shared
/// (Redis) limiter is proven to decide exactly as the local one.
@Suite struct RateLimiterContractTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("one mail per minute and five per hour per address", arguments: RateLimiterFactory.all)
    func perAddressWindows(_ factory: RateLimiterFactory) throws {
        let limiter = try factory.make().limiter
        let policy = PasswordRecoveryService.perAddressPolicy
        #expect(try limiter.consume("a", policy: policy, now: start) == .allowed)
        #expect(try limiter.consume("a", policy: policy, now: start.addingTimeInterval(30)) == .limited(retryAfter: 30))
        #expect(try limiter.consume("b", policy: policy, now: start.addingTimeInterval(30)) == .allowed)
        for minute in 1...4 {
            #expect(try limiter.consume("a", policy: policy, now: start.addingTimeInterval(Double(minute) * 61)) == .allowed)
        }
        // Six minutes in: five mails this hour, so the sixth waits for the first to age out.
        #expect(try limiter.consume("a", policy: policy, now: start.addingTimeInterval(6 * 61)) == .limited(retryAfter: 3600 - 366))
        #expect(try limiter.consume("a", policy: policy, now: start.addingTimeInterval(3601)) == .allowed)
    }

    @Test("checking records nothing and reports a full window or a block without lengthening it", arguments: RateLimiterFactory.all)
    func checkDoesNotCount(_ factory: RateLimiterFactory) throws {
        let limiter = try factory.make().limiter
        let policy = RateLimitPolicy(windows: [.init(limit: 2, seconds: 600)], basePenalty: 60, maximumPenalty: 3600)
        for _ in 0..<5 { #expect(try limiter.check("key", policy: policy, now: start) == .allowed) }
        #expect(try limiter.consume("key", policy: policy, now: start) == .allowed)
        #expect(try limiter.consume("key", policy: policy, now: start) == .allowed)
        #expect(try limiter.check("key", policy: policy, now: start.addingTimeInterval(100)) == .limited(retryAfter: 500))
        #expect(try limiter.consume("key", policy: policy, now: start.addingTimeInterval(100)) == .limited(retryAfter: 500))
        #expect(try limiter.check("key", policy: policy, now: start.addingTimeInterval(200)) == .limited(retryAfter: 400))
        #expect(try limiter.check("key", policy: policy, now: start.addingTimeInterval(600)) == .allowed)
    }

    @Test("a refund takes back the latest event only; an empty key refunds nothing", arguments: RateLimiterFactory.all)
    func refundTakesBackTheLatestEvent(_ factory: RateLimiterFactory) throws {
        let limiter = try factory.make().limiter
        let policy = RateLimitPolicy(windows: [.init(limit: 2, seconds: 600)])
        try limiter.refund("key", policy: policy, now: start)
        #expect(try limiter.consume("key", policy: policy, now: start) == .allowed)
        #expect(try limiter.consume("key", policy: policy, now: start.addingTimeInterval(10)) == .allowed)
        #expect(try limiter.consume("key", policy: policy, now: start.addingTimeInterval(20)) == .limited(retryAfter: 580))
        try limiter.refund("key", policy: policy, now: start.addingTimeInterval(20))
        // The event at +10 s is gone; the one at +0 s still counts, so it sets the wait.
        #expect(try limiter.consume("key", policy: policy, now: start.addingTimeInterval(30)) == .allowed)
        #expect(try limiter.consume("key", policy: policy, now: start.addingTimeInterval(40)) == .limited(retryAfter: 560))
    }

    @Test("beyond the IP limit the wait doubles on each further attempt, up to an hour", arguments: RateLimiterFactory.all)
    func doublingPenalty(_ factory: RateLimiterFactory) throws {
        let limiter = try factory.make().limiter
        let policy = RateLimitPolicy(windows: [.init(limit: 2, seconds: 600)], basePenalty: 60, maximumPenalty: 3600)
        #expect(try limiter.consume("ip", policy: policy, now: start) == .allowed)
        #expect(try limiter.consume("ip", policy: policy, now: start) == .allowed)
        var waits: [Int] = []
        for _ in 0..<8 {
            if case .limited(let wait) = try limiter.consume("ip", policy: policy, now: start.addingTimeInterval(1)) { waits.append(wait) }
        }
        // The first wait lasts until the window has room (599 s), then doubles up to an hour.
        #expect(waits == [599, 1198, 2396, 3600, 3600, 3600, 3600, 3600])
        #expect(try limiter.consume("other", policy: policy, now: start.addingTimeInterval(1)) == .allowed)
        // Once the block and the window have passed, the key starts afresh.
        #expect(try limiter.consume("ip", policy: policy, now: start.addingTimeInterval(1 + 3600 + 600)) == .allowed)
    }

    @Test("a client that obeys Retry-After gets in", arguments: RateLimiterFactory.all)
    func obeyingRetryAfter(_ factory: RateLimiterFactory) throws {
        let limiter = try factory.make().limiter
        let policy = RateLimitPolicy(windows: [.init(limit: 20, seconds: 600)], basePenalty: 60, maximumPenalty: 3600)
        for _ in 0..<20 { _ = try limiter.consume("ip", policy: policy, now: start) }
        guard case .limited(let wait) = try limiter.consume("ip", policy: policy, now: start.addingTimeInterval(1)) else {
            Issue.record("expected a limit")
            return
        }
        #expect(try limiter.consume("ip", policy: policy, now: start.addingTimeInterval(1 + Double(wait))) == .allowed)
    }
}
