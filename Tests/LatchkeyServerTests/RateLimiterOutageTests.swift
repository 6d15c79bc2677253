import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyServer
import Testing
import LatchkeyTestSupport

/// What clients of the real HTTP server see when the shared rate limiter (Redis) is down:
/// 503 with `Retry-After` by default, or requests let through when failing open; either
/// way logged without secrets and counted on /metrics.
@Suite struct RateLimiterOutageTests {
    private static let password = "correct horse battery staple"

    private func post(_ app: ServerApplication, _ path: String, _ body: [String: String]) throws -> RawHTTPResponse {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let connection = try RawHTTPConnection(port: app.boundPort)
        try connection.send(
            "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)")
        return try connection.readResponse()
    }

    private func metrics(_ app: ServerApplication) throws -> String {
        let connection = try RawHTTPConnection(port: app.boundPort)
        try connection.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return try connection.readResponse().text
    }

    private func json(_ response: RawHTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test("with Redis down, reset requests and logins get 503 with Retry-After, counted and logged; after Redis returns they work again")
    func failClosed() throws {
        let redis = try RedisTestServer()
        let logs = MemoryLogSink()
        let app = try makeApplication(["LATCHKEY_REDIS_URL": redis.url], logs: logs)
        _ = try app.accounts.createAccount(email: "person@example.com", password: Redacted(Self.password))
        try app.start()
        defer { app.stop() }
        #expect(try post(app, "/auth/password/request", ["email": "person@example.com"]).status == 200)

        try redis.stop()
        let reset = try post(app, "/auth/password/request", ["email": "person@example.com"])
        #expect(reset.status == 503)
        #expect(reset["Retry-After"] == "5")
        #expect((try json(reset)["error"] as? [String: Any])?["code"] as? String == "rate_limiter_unavailable")
        let validate = try post(app, "/auth/password/validate", ["token": "anything"])
        #expect(validate.status == 503)
        let login = try post(app, "/auth/login", ["email": "person@example.com", "password": Self.password])
        #expect(login.status == 503)
        #expect(login["Retry-After"] == "5")
        let errors = try #require(try json(login)["errors"] as? [[String: Any]])
        #expect((errors.first?["extensions"] as? [String: Any])?["code"] as? String == "SERVICE_UNAVAILABLE")

        #expect(app.metrics.rateLimiterUnavailable.current == 3)
        #expect(try metrics(app).contains("latchkey_rate_limiter_unavailable_total 3\n"))
        let outageLines = logs.lines.filter { $0.contains("\"rate_limiter_unavailable\"") }
        #expect(outageLines.count == 3)
        #expect(outageLines.allSatisfy { !$0.contains("person@example.com") && !$0.contains("203.0.113") })

        try redis.restart()
        #expect(try post(app, "/auth/password/request", ["email": "person@example.com"]).status == 200)
        #expect(try post(app, "/auth/login", ["email": "person@example.com", "password": Self.password]).status == 200)
    }

    @Test("failing open, requests go through while Redis is unreachable; still logged (no password) and counted")
    func failOpen() throws {
        let redis = try RedisTestServer()
        try redis.stop()
        let logs = MemoryLogSink()
        let app = try makeApplication([
            "LATCHKEY_REDIS_URL": "redis://:hunter2-secret@127.0.0.1:\(redis.port)/0", "LATCHKEY_RATE_LIMIT_FAIL_OPEN": "true",
        ], logs: logs)
        _ = try app.accounts.createAccount(email: "person@example.com", password: Redacted(Self.password))
        try app.start()
        defer { app.stop() }

        #expect(try post(app, "/auth/password/request", ["email": "person@example.com"]).status == 200)
        let wrong = try post(app, "/auth/login", ["email": "person@example.com", "password": "not the password at all"])
        #expect(wrong.status == 401)
        #expect(try post(app, "/auth/login", ["email": "person@example.com", "password": Self.password]).status == 200)

        // Reset: the IP limit, the address's limit for the requesting network and the address's
        // inbox cap (passed open, so its slow lane is not asked). Failed login: the IP budget, the two failure limits
        // counted before the hash, the account throttle's check, the account-wide cap, the account's failure.
        // Good login: the same before the hash, then three refunds (the account's first sign-in: no new-device notice).
        #expect(app.metrics.rateLimiterUnavailable.current == 3 + 6 + 8)
        let outageLines = logs.lines.filter { $0.contains("\"rate_limiter_unavailable\"") }
        // One more at start-up, from the connection check.
        #expect(outageLines.count == 18)
        #expect(outageLines.allSatisfy { $0.contains("\"fail_open\":true") })
        #expect(!logs.lines.joined().contains("hunter2"))
    }
}
