import Foundation
@testable import LatchkeyCore
@testable import LatchkeyRedis
import LatchkeyCrypto
import Synchronization
import LatchkeyTestSupport
import Testing

/// What the Redis limiter promises beyond the shared contract: exact parity on long runs,
/// one limit across instances, key expiry, credentials, and outages.
@Suite struct RedisRateLimiterTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a long pseudo-random run of consumes and checks at fractional times decides exactly as the local limiter")
    func matchesLocalOnRandomRun() throws {
        let fixture = try RateLimiterFactory.redis.make()
        let limiter = fixture.limiter
        let reference = LocalRateLimiter()
        let policies = [
            RateLimitPolicy(windows: [.init(limit: 3, seconds: 10), .init(limit: 5, seconds: 60)], basePenalty: 7.5),
            RateLimitPolicy(windows: [.init(limit: 2, seconds: 4.5)]),
        ]
        var generator = SplitMix64(seed: 42)
        var now = start.addingTimeInterval(0.123_456_789)
        var limited = 0
        for _ in 0..<400 {
            now.addTimeInterval(Double(generator.next() % 4000) / 1000)
            let key = "k\(generator.next() % 3)"
            let policy = policies[Int(generator.next() % 2)]
            let consuming = generator.next() % 4 != 0
            let expected = consuming
                ? reference.consume(key, policy: policy, now: now) : reference.check(key, policy: policy, now: now)
            let actual = consuming
                ? try limiter.consume(key, policy: policy, now: now) : try limiter.check(key, policy: policy, now: now)
            #expect(actual == expected, "\(consuming ? "consume" : "check") \(key) at \(now.timeIntervalSince(start))")
            if expected != .allowed { limited += 1 }
        }
        // The run exercises limits, not only the allowed path.
        #expect(limited > 50)
    }

    @Test("two instances hammered from 50 threads never allow more than the limit in total")
    func sharedAcrossInstances() throws {
        let fixture = try RateLimiterFactory.redis.make()
        let makeAnother = try #require(fixture.another)
        let instances: [any RateLimiter] = [fixture.limiter, makeAnother()]
        let policy = RateLimitPolicy(windows: [.init(limit: 25, seconds: 60)], basePenalty: 60)
        let allowed = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let now = start
        runOnThreads(50) { index in
            for attempt in 0..<4 {
                do {
                    if try instances[(index + attempt) % 2].consume("shared", policy: policy, now: now) == .allowed {
                        allowed.add(1, ordering: .relaxed)
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(allowed.load(ordering: .relaxed) == 25)
        #expect(try instances[0].check("shared", policy: policy, now: now) != .allowed)
    }

    @Test("a key's state expires once it no longer limits: after the window, or after the block")
    func keysExpire() throws {
        let server = try RedisTestServer()
        let limiter = RedisRateLimiter(endpoint: server.endpoint)
        let inspector = RedisConnection(endpoint: server.endpoint, connectTimeout: 1, commandTimeout: 1)
        let keys = limiter.storageKeys("ip")
        #expect(keys.allSatisfy { $0.hasPrefix("latchkey:rl:{ip}:") })
        let policy = RateLimitPolicy(windows: [.init(limit: 1, seconds: 600)], basePenalty: 3000)

        #expect(try limiter.consume("ip", policy: policy, now: start) == .allowed)
        for key in keys {
            guard case .integer(let milliseconds) = try inspector.command(["PTTL", key]) else {
                Issue.record("no PTTL for \(key)")
                continue
            }
            #expect((599_000...601_000).contains(milliseconds))
        }
        #expect(try limiter.consume("ip", policy: policy, now: start) == .limited(retryAfter: 3000))
        for key in keys {
            guard case .integer(let milliseconds) = try inspector.command(["PTTL", key]) else {
                Issue.record("no PTTL for \(key)")
                continue
            }
            #expect((2_999_000...3_001_000).contains(milliseconds))
        }
        // Checking writes nothing, so it cannot create a key that never expires.
        #expect(try limiter.check("never-consumed", policy: policy, now: start) == .allowed)
        #expect(try inspector.command(["EXISTS"] + limiter.storageKeys("never-consumed")) == .integer(0))
        try server.stop()  // also keeps the server alive until here
    }

    @Test("AUTH and SELECT come from the URL; a wrong password fails without being repeated anywhere")
    func credentials() throws {
        let server = try RedisTestServer()
        let admin = RedisConnection(endpoint: server.endpoint, connectTimeout: 1, commandTimeout: 1)
        #expect(try admin.command(["CONFIG", "SET", "requirepass", "open-sesame-42"]) == .status("OK"))
        let policy = RateLimitPolicy(windows: [.init(limit: 1, seconds: 60)])

        for url in ["redis://127.0.0.1:\(server.port)/0", "redis://:wrong-guess-17@127.0.0.1:\(server.port)/0"] {
            let error = try #require(throws: LatchkeyError.self) {
                try RedisRateLimiter(endpoint: RedisEndpoint(url: url)).consume("k", policy: policy, now: start)
            }
            #expect(error.code == .rateLimiterUnavailable)
            #expect(!error.description.contains("wrong-guess-17"))
        }

        let endpoint = try RedisEndpoint(url: "redis://:open-sesame-42@127.0.0.1:\(server.port)/3")
        let limiter = RedisRateLimiter(endpoint: endpoint)
        try limiter.ping()
        #expect(try limiter.consume("k", policy: policy, now: start) == .allowed)
        let database3 = RedisConnection(endpoint: endpoint, connectTimeout: 1, commandTimeout: 1)
        #expect(try database3.command(["EXISTS"] + limiter.storageKeys("k")) == .integer(2))
        let database0 = RedisConnection(
            endpoint: RedisEndpoint(host: "127.0.0.1", port: server.port, password: Redacted("open-sesame-42")),
            connectTimeout: 1, commandTimeout: 1)
        #expect(try database0.command(["EXISTS"] + limiter.storageKeys("k")) == .integer(0))
        try server.stop()  // also keeps the server alive until here
    }

    @Test("with Redis stopped every call throws rate_limiter_unavailable; after a restart the same limiter works again")
    func reconnectsAfterRestart() throws {
        let server = try RedisTestServer()
        let limiter = RedisRateLimiter(endpoint: server.endpoint)
        let policy = RateLimitPolicy(windows: [.init(limit: 1, seconds: 60)], basePenalty: 60)
        #expect(try limiter.consume("a", policy: policy, now: start) == .allowed)

        try server.stop()
        for call in 0..<3 {
            let error = try #require(throws: LatchkeyError.self) {
                try limiter.consume("b\(call)", policy: policy, now: start)
            }
            #expect(error.code == .rateLimiterUnavailable)
            #expect(error.message.contains("127.0.0.1:\(server.port)"))
        }
        #expect(throws: LatchkeyError.self) { try limiter.check("a", policy: policy, now: start) }

        // Nothing is persisted, so the restarted Redis has neither the state nor the script.
        try server.restart()
        #expect(try limiter.consume("a", policy: policy, now: start) == .allowed)
        #expect(try limiter.consume("a", policy: policy, now: start) == .limited(retryAfter: 60))
    }

    @Test("an idle pooled connection that Redis closed is replaced without failing the call")
    func staleConnection() throws {
        let server = try RedisTestServer()
        let limiter = RedisRateLimiter(endpoint: server.endpoint)
        let policy = RateLimitPolicy(windows: [.init(limit: 10, seconds: 60)])
        #expect(try limiter.consume("a", policy: policy, now: start) == .allowed)
        let admin = RedisConnection(endpoint: server.endpoint, connectTimeout: 1, commandTimeout: 1)
        // Closes every client connection except this one: the limiter's pooled one goes stale.
        guard case .integer(let killed) = try admin.command(["CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"]) else {
            Issue.record("CLIENT KILL gave no count")
            return
        }
        #expect(killed >= 1)
        #expect(try limiter.consume("a", policy: policy, now: start) == .allowed)
        try server.stop()  // also keeps the server alive until here
    }
}
