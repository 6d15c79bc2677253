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
        let policy = RateLimitPolicy(windows: [.init(limit: 2, seconds: 600)], basePenalty: 60)
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

    @Test("attempts while blocked are refused uncounted and never lengthen the wait", arguments: RateLimiterFactory.all)
    func attemptsWhileBlockedNeverLengthenTheWait(_ factory: RateLimiterFactory) throws {
        let limiter = try factory.make().limiter
        let policy = RateLimitPolicy(windows: [.init(limit: 2, seconds: 600)], basePenalty: 60)
        #expect(try limiter.consume("ip", policy: policy, now: start) == .allowed)
        #expect(try limiter.consume("ip", policy: policy, now: start) == .allowed)
        var waits: [Int] = []
        for second in 1...8 {
            if case .limited(let wait) = try limiter.consume("ip", policy: policy, now: start.addingTimeInterval(Double(second))) {
                waits.append(wait)
            }
        }
        // Each answer is the time that remains until the window has room, however often asked.
        #expect(waits == [599, 598, 597, 596, 595, 594, 593, 592])
        #expect(try limiter.check("ip", policy: policy, now: start.addingTimeInterval(300)) == .limited(retryAfter: 300))
        #expect(try limiter.consume("other", policy: policy, now: start.addingTimeInterval(1)) == .allowed)
        // At the announced time the key gets in: nothing asked meanwhile was counted.
        #expect(try limiter.consume("ip", policy: policy, now: start.addingTimeInterval(600)) == .allowed)
        #expect(try limiter.consume("ip", policy: policy, now: start.addingTimeInterval(600)) == .allowed)
        #expect(try limiter.consume("ip", policy: policy, now: start.addingTimeInterval(600)) == .limited(retryAfter: 600))
    }

    @Test("a block lasts at least the base penalty, even when the window has room sooner, and no longer", arguments: RateLimiterFactory.all)
    func basePenaltyIsTheShortestBlock(_ factory: RateLimiterFactory) throws {
        let limiter = try factory.make().limiter
        let policy = RateLimitPolicy(windows: [.init(limit: 1, seconds: 10)], basePenalty: 60)
        #expect(try limiter.consume("k", policy: policy, now: start) == .allowed)
        #expect(try limiter.consume("k", policy: policy, now: start.addingTimeInterval(5)) == .limited(retryAfter: 60))
        for second in stride(from: 10, through: 60, by: 10) {
            #expect(try limiter.consume("k", policy: policy, now: start.addingTimeInterval(Double(second))) == .limited(retryAfter: 65 - second))
        }
        #expect(try limiter.consume("k", policy: policy, now: start.addingTimeInterval(65)) == .allowed)
    }

    @Test("ten failures, then the right password retried at each announced Retry-After: the wait never grows", arguments: RateLimiterFactory.all)
    func ownerRetryingIsNeverPunished(_ factory: RateLimiterFactory) throws {
        let limiter = try factory.make().limiter
        let policy = PasswordSignIn.Limits(attemptsPerIP: .init(limit: 100, seconds: 60)).failuresPerAccountAndIP
        for attempt in 0..<10 {
            #expect(try limiter.consume("pair", policy: policy, now: start.addingTimeInterval(Double(attempt))) == .allowed)
        }
        // The owner retries too early a few times, each told the wait that remains…
        var now = start.addingTimeInterval(10)
        var waits: [Int] = []
        for _ in 0..<4 {
            guard case .limited(let wait) = try limiter.consume("pair", policy: policy, now: now) else {
                Issue.record("expected a wait")
                return
            }
            waits.append(wait)
            now.addTimeInterval(Double(wait) / 2)
        }
        #expect(waits.first == 890)
        #expect(waits == waits.sorted(by: >))
        // …and once the last announced wait has passed, the right password is counted and refunded.
        guard case .limited(let last) = try limiter.consume("pair", policy: policy, now: now) else {
            Issue.record("expected a wait")
            return
        }
        now.addTimeInterval(Double(last))
        #expect(now <= start.addingTimeInterval(901))
        #expect(try limiter.consume("pair", policy: policy, now: now) == .allowed)
        try limiter.refund("pair", policy: policy, now: now)
    }

    @Test("a client that obeys Retry-After gets in", arguments: RateLimiterFactory.all)
    func obeyingRetryAfter(_ factory: RateLimiterFactory) throws {
        let limiter = try factory.make().limiter
        let policy = RateLimitPolicy(windows: [.init(limit: 20, seconds: 600)], basePenalty: 60)
        for _ in 0..<20 { _ = try limiter.consume("ip", policy: policy, now: start) }
        guard case .limited(let wait) = try limiter.consume("ip", policy: policy, now: start.addingTimeInterval(1)) else {
            Issue.record("expected a limit")
            return
        }
        #expect(try limiter.consume("ip", policy: policy, now: start.addingTimeInterval(1 + Double(wait))) == .allowed)
    }
}
