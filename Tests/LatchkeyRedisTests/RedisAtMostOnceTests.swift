import Foundation
@testable import LatchkeyCore
@testable import LatchkeyRedis
import LatchkeyTestSupport
import Synchronization
import Testing

/// A limiter script runs at most once per call: a connection lost after Redis ran it fails the
/// call, never sends it again (which would count twice).
@Suite struct RedisAtMostOnceTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a connection lost after Redis ran the script fails the call, and the count moved by exactly one")
    func lostReplyIsNotRetried() throws {
        let server = try RedisTestServer()
        let proxy = try ReplyDroppingProxy(upstreamPort: server.port)
        let throughProxy = RedisRateLimiter(endpoint: RedisEndpoint(host: "127.0.0.1", port: proxy.port))
        let direct = RedisRateLimiter(endpoint: server.endpoint)
        let policy = RateLimitPolicy(windows: [.init(limit: 10, seconds: 60)])

        #expect(try throughProxy.consume("k", policy: policy, now: start) == .allowed)
        proxy.dropNextReply()
        let error = try #require(throws: LatchkeyError.self) { try throughProxy.consume("k", policy: policy, now: start) }
        #expect(error.code == .rateLimiterUnavailable)
        #expect(proxy.dropped.load(ordering: .sequentiallyConsistent) == 1)

        // Two events counted — the first call's and the lost one's, which Redis ran — so eight remain.
        var allowed = 0
        while try direct.consume("k", policy: policy, now: start) == .allowed { allowed += 1 }
        #expect(allowed == 8)
        // The limiter works again, on a new connection.
        #expect(try throughProxy.check("k", policy: policy, now: start) == .limited(retryAfter: 60))
        try server.stop()  // also keeps the server alive until here
    }

    @Test("a pooled connection Redis closed while idle is replaced before the command is sent: counted once")
    func staleConnectionCountsOnce() throws {
        let server = try RedisTestServer()
        let limiter = RedisRateLimiter(endpoint: server.endpoint)
        let policy = RateLimitPolicy(windows: [.init(limit: 3, seconds: 60)])
        #expect(try limiter.consume("k", policy: policy, now: start) == .allowed)
        let admin = RedisConnection(endpoint: server.endpoint, connectTimeout: 1, commandTimeout: 1)
        _ = try admin.command(["CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"])
        // On loopback the kill's end of file is at the limiter's socket before CLIENT KILL answers.
        #expect(try limiter.consume("k", policy: policy, now: start) == .allowed)
        #expect(try limiter.consume("k", policy: policy, now: start) == .allowed)
        #expect(try limiter.consume("k", policy: policy, now: start) == .limited(retryAfter: 60))
        try server.stop()
    }
}
