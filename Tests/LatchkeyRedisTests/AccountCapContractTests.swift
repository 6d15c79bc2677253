import Foundation
import LatchkeyCore
import Testing

/// The account-wide cap's policy (``PasswordSignIn/Limits/failuresPerAccount``: 20 failures in
/// 15 minutes, 100 in a day) on every limiter, so the shared (Redis) one caps an account
/// exactly as the local one.
@Suite struct AccountCapContractTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = PasswordSignIn.Limits(attemptsPerIP: .init(limit: 100, seconds: 60)).failuresPerAccount

    @Test("20 failures in 15 minutes, then a wait until the first ages out; refused attempts are not counted", arguments: RateLimiterFactory.all)
    func fifteenMinuteWindow(_ factory: RateLimiterFactory) throws {
        let limiter = try factory.make().limiter
        for second in 0..<20 {
            #expect(try limiter.consume("cap", policy: policy, now: start.addingTimeInterval(Double(second))) == .allowed)
        }
        #expect(try limiter.consume("cap", policy: policy, now: start.addingTimeInterval(20)) == .limited(retryAfter: 880))
        for second in stride(from: 100, through: 800, by: 100) {
            #expect(try limiter.consume("cap", policy: policy, now: start.addingTimeInterval(Double(second))) == .limited(retryAfter: 900 - second))
        }
        #expect(try limiter.consume("cap", policy: policy, now: start.addingTimeInterval(900)) == .allowed)
        #expect(try limiter.consume("other", policy: policy, now: start.addingTimeInterval(900)) == .allowed)
    }

    @Test("100 failures in a day from any number of addresses, then nothing until the day's first ages out", arguments: RateLimiterFactory.all)
    func dailyCap(_ factory: RateLimiterFactory) throws {
        let limiter = try factory.make().limiter
        var now = start
        for round in 0..<5 {
            for _ in 0..<20 { #expect(try limiter.consume("cap", policy: policy, now: now) == .allowed, "round \(round)") }
            now.addTimeInterval(900)
        }
        // Five windows of 20: the sixth is refused for the rest of the day, whatever the window.
        let elapsed = Int(now.timeIntervalSince(start))
        #expect(try limiter.consume("cap", policy: policy, now: now) == .limited(retryAfter: 86_400 - elapsed))
        #expect(try limiter.check("cap", policy: policy, now: start.addingTimeInterval(86_399)) == .limited(retryAfter: 1))
        #expect(try limiter.consume("cap", policy: policy, now: start.addingTimeInterval(86_400)) == .allowed)
    }
}
