import Foundation
@testable import LatchkeyCore
@testable import LatchkeyRedis
import LatchkeyTestSupport
import Testing

extension RedisTestServer {
    /// The endpoint of this server.
    var endpoint: RedisEndpoint { RedisEndpoint(host: "127.0.0.1", port: port) }
}

/// A limiter under test.
struct RateLimiterFixture: Sendable {
    let limiter: any RateLimiter
    /// Another limiter over the same state (another server instance); nil for local ones.
    let another: (@Sendable () -> any RateLimiter)?
}

/// A limiter that keeps its private Redis running for as long as the limiter is in use.
private struct ServerBoundLimiter: RateLimiter {
    let limiter: any RateLimiter
    let server: RedisTestServer?

    func consume(_ key: String, policy: RateLimitPolicy, now: Date) throws -> RateLimitDecision {
        try limiter.consume(key, policy: policy, now: now)
    }

    func check(_ key: String, policy: RateLimitPolicy, now: Date) throws -> RateLimitDecision {
        try limiter.check(key, policy: policy, now: now)
    }

    func refund(_ key: String, policy: RateLimitPolicy, now: Date) throws {
        try limiter.refund(key, policy: policy, now: now)
    }
}

/// Makes a fresh, empty limiter of one implementation. The contract suite runs against
/// every factory in ``all``.
struct RateLimiterFactory: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let make: @Sendable () throws -> RateLimiterFixture

    static let all: [RateLimiterFactory] = [.local, .redis]

    static let local = RateLimiterFactory(testDescription: "Local") {
        RateLimiterFixture(limiter: LocalRateLimiter(), another: nil)
    }

    /// The Redis named by `LATCHKEY_TEST_REDIS_URL` (scripts/with-redis.sh sets it), or a
    /// private one; a fresh key namespace keeps tests on one Redis apart.
    static let redis = RateLimiterFactory(testDescription: "Redis") {
        let server: RedisTestServer?
        let endpoint: RedisEndpoint
        if let url = ProcessInfo.processInfo.environment["LATCHKEY_TEST_REDIS_URL"], !url.isEmpty {
            server = nil
            endpoint = try RedisEndpoint(url: url)
        } else {
            let started = try RedisTestServer()
            server = started
            endpoint = started.endpoint
        }
        let namespace = "latchkey:test:\(UUID().uuidString.lowercased()):"
        return RateLimiterFixture(
            limiter: ServerBoundLimiter(limiter: RedisRateLimiter(endpoint: endpoint, namespace: namespace), server: server),
            another: { ServerBoundLimiter(limiter: RedisRateLimiter(endpoint: endpoint, namespace: namespace), server: server) })
    }
}
