import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyServer
import Testing
import LatchkeyTestSupport

/// /userinfo and the bearer-token error shape (RFC 6750).
extension OAuthFlowTests {
    @Test("/userinfo answers GET and POST (OIDC Core §5.3.1) with the access token, and refuses the ID token")
    func userInfoMethodsAndTokenConfusion() throws {
        let harness = try Harness()
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let access = try #require(body["access_token"] as? String)
        let idToken = try #require(body["id_token"] as? String)
        for method in ["GET", "POST"] {
            func userInfo(_ token: String) -> HTTPResponse {
                harness.app.router.handle(HTTPRequest(
                    method: method, path: "/userinfo",
                    headers: HTTPHeaders([("Authorization", "Bearer \(token)"), ("Content-Type", "application/x-www-form-urlencoded")])))
            }
            let answer = userInfo(access)
            #expect(answer.status == 200)
            let claims = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect(claims["sub"] as? String == harness.account.id)
            #expect(userInfo(idToken).status == 401)
        }
        #expect(try harness.app.tokens.verifyAccessToken(Redacted(idToken)) == nil)
    }

    @Test("RFC 6750: /userinfo takes the token from a form-encoded POST body, never the query; none at all is a bare Bearer challenge")
    func userInfoBearerForms() throws {
        let harness = try Harness()
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let access = try #require(body["access_token"] as? String)
        func send(_ method: String, query: [(String, String)] = [], headers: [(String, String)] = [], body: String = "") -> HTTPResponse {
            harness.app.router.handle(HTTPRequest(
                method: method, path: "/userinfo", query: query.map { (name: $0.0, value: $0.1) }, headers: HTTPHeaders(headers),
                body: Data(body.utf8)))
        }
        let form = ("Content-Type", "application/x-www-form-urlencoded")

        let inBody = send("POST", headers: [form], body: formEncode([("access_token", access)]))
        #expect(inBody.status == 200)
        let claims = try #require(try JSONSerialization.jsonObject(with: inBody.body) as? [String: Any])
        #expect(claims["sub"] as? String == harness.account.id && claims["email"] as? String == "person@example.com")
        #expect(claims["email_verified"] as? Bool == true && claims.count == 3)

        for bare in [send("GET"), send("POST"), send("POST", headers: [form]), send("GET", query: [("access_token", access)]),
                     send("POST", query: [("access_token", access)], headers: [form]),
                     send("GET", headers: [("Authorization", "Basic cGVyc29uOng=")])]
        {
            #expect(bare.status == 401)
            #expect(bare.headers["WWW-Authenticate"] == "Bearer")
            #expect(bare.body.isEmpty)
        }

        let both = send("POST", headers: [form, ("Authorization", "Bearer \(access)")], body: formEncode([("access_token", access)]))
        #expect(both.status == 400)
        #expect(both.headers["WWW-Authenticate"]?.contains(#"error="invalid_request""#) == true)
        let repeated = send("POST", headers: [form], body: formEncode([("access_token", access), ("access_token", access)]))
        #expect(repeated.status == 400)
        let wrong = send("POST", headers: [form], body: formEncode([("access_token", "garbage")]))
        #expect(wrong.status == 401)
        #expect(wrong.headers["WWW-Authenticate"]?.contains(#"error="invalid_token""#) == true)
    }

    @Test("/userinfo: a parameter name with a quote or backslash never breaks the WWW-Authenticate challenge; the body still says which")
    func userInfoChallengeStaysWellFormed() throws {
        let harness = try Harness()
        // RFC 6750 §3 and RFC 6749 §5.2 allow neither `"` nor `\` in error_description: they are written `'` and `/`.
        for (body, named) in [(#"a"x=1&a"x=2"#, "a'x"), (#"a\x=1&a\x=2"#, "a/x")] {
            let response = harness.app.router.handle(HTTPRequest(
                method: "POST", path: "/userinfo", headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
                body: Data(body.utf8)))
            #expect(response.status == 400)
            let description = "The parameter '\(named)' is repeated."
            #expect(response.headers["WWW-Authenticate"] == #"Bearer error="invalid_request", error_description=""# + description + #"""#)
            let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: String])
            #expect(json["error_description"] == description)
        }
        // A description with nothing to escape stays in the challenge.
        let both = harness.app.router.handle(HTTPRequest(
            method: "POST", path: "/userinfo",
            headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", "Bearer x")]),
            body: Data("access_token=x".utf8)))
        #expect(both.headers["WWW-Authenticate"]
            == #"Bearer error="invalid_request", error_description="Present the access token in one place only.""#)
    }

    @Test("/userinfo: a POST body over the limit is 413, not a credentials error")
    func userInfoBodyTooLarge() throws {
        let harness = try Harness(["LATCHKEY_MAX_BODY_BYTES": "1024"])
        try harness.app.start()
        defer { harness.app.stop() }
        let body = "access_token=" + String(repeating: "a", count: 2000)
        let connection = try RawHTTPConnection(port: harness.app.boundPort)
        try connection.send(
            "POST /userinfo HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response["WWW-Authenticate"] == nil)
        #expect(try JSONSerialization.jsonObject(with: response.body) as? [String: String] == [
            "error": "invalid_request", "error_description": "The request body must not exceed 1024 bytes.",
        ])
    }

    @Test("in the bearer shape a busy server is 503 and too many requests 429, each with Retry-After; a fault is 500 without its message")
    func bearerShapeStatuses() throws {
        func render(_ error: LatchkeyError) throws -> (HTTPResponse, [String: String]) {
            let response = error.response(in: .bearer, requestHeaders: HTTPHeaders())
            return (response, try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: String]))
        }
        let (busy, busyBody) = try render(RequestRejection.serverBusy.error)
        #expect(busy.status == 503 && busy.headers["Retry-After"] == "1")
        #expect(busyBody["error"] == "temporarily_unavailable")
        let (redis, _) = try render(.rateLimiterUnavailable("Cannot connect to Redis at 10.0.0.5:6379."))
        #expect(redis.status == 503 && redis.headers["Retry-After"] == "5")
        #expect(!String(decoding: redis.body, as: UTF8.self).contains("10.0.0.5"))
        let (limited, limitedBody) = try render(.rateLimited(retryAfter: 90))
        #expect(limited.status == 429 && limited.headers["Retry-After"] == "90")
        #expect(limitedBody["error"] == "invalid_request")
        let (fault, faultBody) = try render(LatchkeyError(.storage, "The database at /srv/db failed."))
        #expect(fault.status == 500 && faultBody["error"] == "server_error")
        #expect(!String(decoding: fault.body, as: UTF8.self).contains("/srv/db"))
        #expect([busy, redis, limited, fault].allSatisfy { $0.headers["WWW-Authenticate"] == nil })
    }
}
