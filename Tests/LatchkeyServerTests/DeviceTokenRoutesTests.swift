import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyServer
import LatchkeyTestSupport
import Testing

/// The device token at `/auth/login`: handed back in `data.device_token` (json mode) or the
/// device cookie (cookie mode), sent back the same way, and what it changes under attack.
@Suite struct DeviceTokenRoutesTests {
    private static let password = "correct horse battery staple"

    private func login(_ app: ServerApplication, _ fields: [String: String], ip: String, cookie: String? = nil) throws -> HTTPResponse {
        let json = try JSONSerialization.data(withJSONObject: fields)
        var request = jsonRequest("/auth/login", String(decoding: json, as: UTF8.self))
        request.clientIP = ip
        if let cookie { request.headers.add("Cookie", cookie) }
        if fields["mode"] != nil { request.headers.add("Origin", "http://127.0.0.1:8080") }
        return app.router.handle(request)
    }

    private func data(_ response: HTTPResponse) throws -> [String: Any] {
        let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        return try #require(body["data"] as? [String: Any])
    }

    @Test("json mode: data.device_token is handed back, kept when sent back, and lets its device past the account's cap")
    func jsonMode() throws {
        let app = try makeApplication()
        _ = try app.accounts.createAccount(email: "ana@example.com", password: Redacted(Self.password))
        let first = try login(app, ["email": "ana@example.com", "password": Self.password], ip: "192.0.2.1")
        #expect(first.status == 200)
        let token = try #require(try data(first)["device_token"] as? String)
        #expect(token.utf8.count == 43)
        let again = try login(app, ["email": "ana@example.com", "password": Self.password, "device_token": token], ip: "192.0.2.1")
        #expect(try data(again)["device_token"] as? String == token)

        for attacker in 0..<20 {
            let guess = try login(app, ["email": "ana@example.com", "password": "guess \(attacker)"], ip: "198.51.100.\(attacker + 1)")
            #expect(guess.status == 401)
        }
        let capped = try login(app, ["email": "ana@example.com", "password": Self.password], ip: "203.0.113.5")
        #expect(capped.status == 429)
        #expect(capped.headers["Retry-After"] != nil)
        #expect(String(decoding: capped.body, as: UTF8.self).contains("REQUESTS_EXCEEDED"))
        let owner = try login(app, ["email": "ana@example.com", "password": Self.password, "device_token": token], ip: "203.0.113.5")
        #expect(owner.status == 200)
        // Junk in device_token is no token: capped like any unrecognised device, never a 500.
        let junk = try login(app, ["email": "ana@example.com", "password": Self.password, "device_token": "not-a-token"], ip: "203.0.113.5")
        #expect(junk.status == 429)
        let long = try login(app, ["email": "ana@example.com", "password": Self.password, "device_token": String(repeating: "a", count: 65)], ip: "203.0.113.5")
        #expect(long.status == 400)
    }

    @Test("cookie mode: the device token goes into an HttpOnly SameSite=Lax cookie for /, read back on the next login")
    func cookieMode() throws {
        let app = try makeApplication(["LATCHKEY_PUBLIC_URL": "http://127.0.0.1:8080"])
        _ = try app.accounts.createAccount(email: "ana@example.com", password: Redacted(Self.password))
        let first = try login(app, ["email": "ana@example.com", "password": Self.password, "mode": "cookie"], ip: "192.0.2.1")
        #expect(first.status == 200)
        #expect(try data(first)["device_token"] == nil)
        let cookie = try #require(first.headers.values("Set-Cookie").first { $0.hasPrefix("latchkey_device=") })
        #expect(cookie.contains("; Path=/;") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
        #expect(cookie.contains("Max-Age=31536000"))
        let value = String(cookie.dropFirst("latchkey_device=".count).prefix { $0 != ";" })
        let again = try login(
            app, ["email": "ana@example.com", "password": Self.password, "mode": "cookie"], ip: "192.0.2.1", cookie: "latchkey_device=\(value)")
        #expect(again.headers.values("Set-Cookie").contains { $0.hasPrefix("latchkey_device=\(value);") })
    }
}
