import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyServer
import LatchkeyTestSupport
import Testing

@Suite struct DirectusAuthRoutesTests {
    private static let password = "correct horse battery staple"

    private func body(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    private func login(_ app: ServerApplication, _ email: String, _ password: String, ip: String = "203.0.113.7") throws -> HTTPResponse {
        let json = try JSONSerialization.data(withJSONObject: ["email": email, "password": password])
        var request = jsonRequest("/auth/login", String(decoding: json, as: UTF8.self))
        request.clientIP = ip
        return app.router.handle(request)
    }

    private func tokens(_ response: HTTPResponse) throws -> (access: String, refresh: String, expires: Int) {
        let data = try #require(try body(response)["data"] as? [String: Any])
        return (
            try #require(data["access_token"] as? String), try #require(data["refresh_token"] as? String),
            try #require(data["expires"] as? Int)
        )
    }

    private func errorCode(_ response: HTTPResponse) throws -> String? {
        let errors = try #require(try body(response)["errors"] as? [[String: Any]])
        return (errors.first?["extensions"] as? [String: Any])?["code"] as? String
    }

    @Test("login returns Directus's data shape with expires in milliseconds; refresh rotates; logout ends it")
    func loginRefreshLogout() throws {
        let app = try makeApplication()
        _ = try app.accounts.createAccount(email: "person@example.com", password: Redacted(Self.password))

        let response = try login(app, "Person@Example.com", Self.password)
        #expect(response.status == 200)
        let first = try tokens(response)
        #expect(first.expires == 600_000)
        #expect(first.access.split(separator: ".").count == 3)

        let refreshed = app.router.handle(jsonRequest("/auth/refresh", #"{"refresh_token":"\#(first.refresh)"}"#))
        #expect(refreshed.status == 200)
        let second = try tokens(refreshed)
        #expect(second.refresh != first.refresh)

        let logout = app.router.handle(jsonRequest("/auth/logout", #"{"refresh_token":"\#(second.refresh)"}"#))
        #expect(logout.status == 204)
        let afterLogout = app.router.handle(jsonRequest("/auth/refresh", #"{"refresh_token":"\#(second.refresh)"}"#))
        #expect(afterLogout.status == 401)
        #expect(try errorCode(afterLogout) == "INVALID_TOKEN")
    }

    @Test("replaying a used refresh token is INVALID_TOKEN and ends the login")
    func reuse() throws {
        let app = try makeApplication(["LATCHKEY_REFRESH_REUSE_GRACE": "0"])
        _ = try app.accounts.createAccount(email: "person@example.com", password: Redacted(Self.password))
        let first = try tokens(try login(app, "person@example.com", Self.password))
        let second = try tokens(app.router.handle(jsonRequest("/auth/refresh", #"{"refresh_token":"\#(first.refresh)"}"#)))

        let replay = app.router.handle(jsonRequest("/auth/refresh", #"{"refresh_token":"\#(first.refresh)"}"#))
        #expect(replay.status == 401)
        #expect(try errorCode(replay) == "INVALID_TOKEN")
        let successor = app.router.handle(jsonRequest("/auth/refresh", #"{"refresh_token":"\#(second.refresh)"}"#))
        #expect(successor.status == 401)
    }

    @Test("unknown account, wrong password and disabled account get the same INVALID_CREDENTIALS body")
    func genericFailure() throws {
        let app = try makeApplication()
        _ = try app.accounts.createAccount(email: "person@example.com", password: Redacted(Self.password))
        _ = try app.accounts.createAccount(email: "disabled@example.com", password: Redacted(Self.password))
        try app.accounts.disable(email: "disabled@example.com")

        let responses = [
            try login(app, "nobody@example.com", Self.password, ip: "203.0.113.1"),
            try login(app, "person@example.com", "wrong password entirely", ip: "203.0.113.2"),
            try login(app, "disabled@example.com", Self.password, ip: "203.0.113.3"),
        ]
        for response in responses {
            #expect(response.status == 401)
            #expect(response.body == responses[0].body)
        }
        #expect(try errorCode(responses[0]) == "INVALID_CREDENTIALS")
    }

    @Test("after 10 failed logins for one account from one IP, that IP gets 429 even with the right password; retries never lengthen the wait, and at it the owner is in")
    func failuresAreLimited() throws {
        let clock = ManualClock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-app-\(UUID().uuidString)")
        let app = try ServerApplication(
            configuration: try Configuration.load(environment: ["LATCHKEY_DATA_DIR": directory.path, "LATCHKEY_LISTEN": "127.0.0.1:0"]),
            logger: Logger(sink: MemoryLogSink()), clock: clock)
        _ = try app.accounts.createAccount(email: "person@example.com", password: Redacted(Self.password))
        for attempt in 0..<10 {
            #expect(try login(app, "person@example.com", "wrong password \(attempt)", ip: "198.51.100.99").status == 401)
            clock.advance(by: 1)
        }
        let blocked = try login(app, "person@example.com", Self.password, ip: "198.51.100.99")
        #expect(blocked.status == 429)
        #expect(try errorCode(blocked) == "REQUESTS_EXCEEDED")
        let first = try #require(blocked.headers["Retry-After"].flatMap(Int.init))
        #expect(first == 890)
        var waits = [first]
        for _ in 0..<5 {
            clock.advance(by: 60)
            let again = try login(app, "person@example.com", Self.password, ip: "198.51.100.99")
            #expect(again.status == 429)
            waits.append(try #require(again.headers["Retry-After"].flatMap(Int.init)))
        }
        #expect(waits == [890, 830, 770, 710, 650, 590])
        clock.advance(by: 590)
        #expect(try login(app, "person@example.com", Self.password, ip: "198.51.100.99").status == 200)
    }

    @Test("failures from many IPs do not lock the owner out: their recognised device is in at once, from a fresh IP too; an unrecognised one is capped")
    func failuresElsewhereDoNotLockTheOwnerOut() throws {
        let clock = ManualClock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-app-\(UUID().uuidString)")
        let app = try ServerApplication(
            configuration: try Configuration.load(environment: ["LATCHKEY_DATA_DIR": directory.path, "LATCHKEY_LISTEN": "127.0.0.1:0"]),
            logger: Logger(sink: MemoryLogSink()), clock: clock)
        _ = try app.accounts.createAccount(email: "person@example.com", password: Redacted(Self.password))
        let first = try login(app, "person@example.com", Self.password, ip: "192.0.2.10")
        let data = try #require(try body(first)["data"] as? [String: Any])
        let device = try #require(data["device_token"] as? String)
        // Twelve attackers fail until each is blocked for this account; they keep trying.
        for round in 0..<12 {
            for attacker in 0..<12 { _ = try login(app, "person@example.com", "guess \(round)", ip: "198.51.100.\(attacker)") }
            clock.advance(by: 0.1)
        }
        #expect(try login(app, "person@example.com", Self.password, ip: "203.0.113.7").status == 429)
        let json = try JSONSerialization.data(withJSONObject: ["email": "person@example.com", "password": Self.password, "device_token": device])
        var request = jsonRequest("/auth/login", String(decoding: json, as: UTF8.self))
        request.clientIP = "203.0.113.7"
        #expect(app.router.handle(request).status == 200)
    }

    @Test("a login with a hash weaker than the configured cost rehashes the password, keeping it valid")
    func rehashOnLogin() throws {
        let app = try makeApplication(["LATCHKEY_ARGON2_ITERATIONS": "3"])
        let weakHash = try PasswordHasher(parameters: .owaspMinimum).hash(Redacted(Self.password))
        let account = Account(
            id: UUID().uuidString.lowercased(), email: "person@example.com", passwordHash: weakHash, status: .active,
            credentialVersion: 0, locale: nil, createdAt: Date())
        try app.store.createAccount(account)

        #expect(try login(app, "person@example.com", Self.password).status == 200)
        let stored = try #require(try app.store.account(id: account.id)?.passwordHash)
        #expect(stored != weakHash)
        #expect(stored.contains("t=3"))
        #expect(try app.store.account(id: account.id)?.credentialVersion == 0)
        #expect(try login(app, "person@example.com", Self.password).status == 200)
    }

    @Test("malformed bodies are INVALID_PAYLOAD in Directus's shape")
    func malformed() throws {
        let app = try makeApplication()
        for request in [
            jsonRequest("/auth/login", "{"), jsonRequest("/auth/login", #"{"email":"a@example.com"}"#),
            jsonRequest("/auth/login", #"{"email":"a@example.com","password":"x","mode":"bearer"}"#),
            jsonRequest("/auth/refresh", "[]"),
        ] {
            let response = app.router.handle(request)
            #expect(response.status == 400)
            #expect(try errorCode(response) == "INVALID_PAYLOAD")
        }
    }

    // MARK: Directus's cookie and session modes

    private static let origin = "https://app.example.com"

    /// A POST as the browser sends it from the app's own origin, with `cookies`.
    private func browserPost(_ path: String, _ body: String?, cookies: [String: String] = [:], origin: String? = origin) -> HTTPRequest {
        var headers = HTTPHeaders()
        if body != nil { headers.add("Content-Type", "application/json") }
        if let origin { headers.add("Origin", origin) }
        if !cookies.isEmpty { headers.add("Cookie", cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")) }
        return HTTPRequest(method: "POST", path: path, headers: headers, body: Data((body ?? "").utf8))
    }

    /// The `Set-Cookie` header for `name`: its value and attributes (names lowercased).
    private func setCookie(_ response: HTTPResponse, _ name: String) throws -> (value: String, attributes: [String: String]) {
        let headers = response.headers.values("Set-Cookie").filter { $0.hasPrefix(name + "=") }
        #expect(headers.count == 1)
        let parts = try #require(headers.first).split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        var attributes: [String: String] = [:]
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            attributes[pair[0].lowercased()] = pair.count == 2 ? String(pair[1]) : ""
        }
        return (String(parts[0].dropFirst(name.count + 1)), attributes)
    }

    private func app(publicURL: String = origin, _ extra: [String: String] = [:]) throws -> ServerApplication {
        let app = try makeApplication(["LATCHKEY_PUBLIC_URL": publicURL, "LATCHKEY_REFRESH_REUSE_GRACE": "0"].merging(extra) { $1 })
        _ = try app.accounts.createAccount(email: "person@example.com", password: Redacted(Self.password))
        return app
    }

    private static let credentials = #""email":"person@example.com","password":"\#(password)""#

    @Test("cookie mode: the refresh token goes into an HttpOnly SameSite=Strict Secure cookie for /auth; refresh and logout read it")
    func cookieMode() throws {
        let app = try app()
        let login = app.router.handle(browserPost("/auth/login", #"{\#(Self.credentials),"mode":"cookie"}"#))
        #expect(login.status == 200)
        let data = try #require(try body(login)["data"] as? [String: Any])
        #expect(Set(data.keys) == ["access_token", "expires"])
        #expect(data["expires"] as? Int == 600_000)
        let cookie = try setCookie(login, "directus_refresh_token")
        #expect(cookie.value.count == 43)
        #expect(cookie.attributes == ["path": "/auth", "max-age": "604800", "httponly": "", "samesite": "Strict", "secure": ""])

        // A refresh with no body at all reads the cookie (Directus's default mode without a token) and replaces it.
        let refreshed = app.router.handle(browserPost("/auth/refresh", nil, cookies: ["directus_refresh_token": cookie.value]))
        #expect(refreshed.status == 200)
        #expect(Set(try #require(try body(refreshed)["data"] as? [String: Any]).keys) == ["access_token", "expires"])
        let next = try setCookie(refreshed, "directus_refresh_token")
        #expect(next.value != cookie.value)
        let replay = app.router.handle(browserPost("/auth/refresh", #"{"mode":"cookie"}"#, cookies: ["directus_refresh_token": cookie.value]))
        #expect(replay.status == 401)
        #expect(try errorCode(replay) == "INVALID_TOKEN")

        // The replay revoked the family; log in again, then log out with the cookie.
        let again = try setCookie(app.router.handle(browserPost("/auth/login", #"{\#(Self.credentials),"mode":"cookie"}"#)), "directus_refresh_token")
        let logout = app.router.handle(browserPost("/auth/logout", "{}", cookies: ["directus_refresh_token": again.value]))
        #expect(logout.status == 204)
        let cleared = try setCookie(logout, "directus_refresh_token")
        #expect(cleared.value.isEmpty && cleared.attributes["max-age"] == "0" && cleared.attributes["path"] == "/auth")
        #expect(app.router.handle(browserPost("/auth/refresh", nil, cookies: ["directus_refresh_token": again.value])).status == 401)
    }

    @Test("LATCHKEY_COOKIE_HOST_PREFIX: the cookies are __Host- (Secure, Path=/, no Domain), and only those names are read")
    func hostPrefixedCookies() throws {
        let app = try app(["LATCHKEY_COOKIE_HOST_PREFIX": "true"])
        let login = app.router.handle(browserPost("/auth/login", #"{\#(Self.credentials),"mode":"cookie"}"#))
        #expect(login.status == 200)
        #expect(login.headers.values("Set-Cookie").allSatisfy { $0.hasPrefix("__Host-") })
        let cookie = try setCookie(login, "__Host-directus_refresh_token")
        #expect(cookie.attributes == ["path": "/", "max-age": "604800", "httponly": "", "samesite": "Strict", "secure": ""])

        // A cookie planted under Directus's plain name (by a sibling subdomain, say) is not read…
        let planted = app.router.handle(browserPost("/auth/refresh", nil, cookies: ["directus_refresh_token": cookie.value]))
        #expect(planted.status == 400)
        #expect(try errorCode(planted) == "INVALID_PAYLOAD")
        // …nor does it get in the way of the real one.
        let refreshed = app.router.handle(browserPost(
            "/auth/refresh", nil, cookies: ["directus_refresh_token": "planted-by-a-sibling", "__Host-directus_refresh_token": cookie.value]))
        #expect(refreshed.status == 200)
        let next = try setCookie(refreshed, "__Host-directus_refresh_token")

        let session = app.router.handle(browserPost("/auth/login", #"{\#(Self.credentials),"mode":"session"}"#))
        #expect(try setCookie(session, "__Host-directus_session_token").attributes["path"] == "/")
        let logout = app.router.handle(browserPost("/auth/logout", "{}", cookies: ["__Host-directus_refresh_token": next.value]))
        #expect(logout.status == 204)
        #expect(try setCookie(logout, "__Host-directus_refresh_token").attributes["max-age"] == "0")
    }

    @Test("LATCHKEY_COOKIE_HOST_PREFIX needs an https public URL, and start-up says so")
    func hostPrefixNeedsHTTPS() throws {
        let error = try #require(throws: LatchkeyError.self) {
            try app(publicURL: "http://127.0.0.1:8080", ["LATCHKEY_COOKIE_HOST_PREFIX": "true"])
        }
        #expect(error.message.hasPrefix("LATCHKEY_COOKIE_HOST_PREFIX needs an https LATCHKEY_PUBLIC_URL"))
    }

    @Test("session mode: the access token goes into directus_session_token (a JWT for this origin), the body holds only expires")
    func sessionMode() throws {
        let app = try app()
        let login = app.router.handle(browserPost("/auth/login", #"{\#(Self.credentials),"mode":"session"}"#))
        #expect(login.status == 200)
        #expect(try body(login)["data"] as? [String: Int] == ["expires": 600_000])
        let session = try setCookie(login, "directus_session_token")
        #expect(session.attributes == ["path": "/", "max-age": "600", "httponly": "", "samesite": "Lax", "secure": ""])
        let verified = try #require(try app.tokens.verifyAccessToken(Redacted(session.value)))
        #expect(verified.account.email == "person@example.com")
        let refresh = try setCookie(login, "directus_refresh_token")

        let refreshed = app.router.handle(browserPost(
            "/auth/refresh", #"{"mode":"session"}"#, cookies: ["directus_refresh_token": refresh.value]))
        #expect(refreshed.status == 200)
        #expect(try body(refreshed)["data"] as? [String: Int] == ["expires": 600_000])
        let renewed = try setCookie(refreshed, "directus_session_token")
        #expect(try app.tokens.verifyAccessToken(Redacted(renewed.value)) != nil)

        // Logout in session mode ends the login from the session cookie alone, and clears it.
        let logout = app.router.handle(browserPost("/auth/logout", #"{"mode":"session"}"#, cookies: ["directus_session_token": renewed.value]))
        #expect(logout.status == 204)
        #expect(try setCookie(logout, "directus_session_token").attributes["max-age"] == "0")
        #expect(try app.tokens.verifyAccessToken(Redacted(renewed.value)) == nil)
        let next = try setCookie(refreshed, "directus_refresh_token")
        #expect(app.router.handle(browserPost("/auth/refresh", nil, cookies: ["directus_refresh_token": next.value])).status == 401)
    }

    @Test("cookies are refused to other origins (Origin, else Sec-Fetch-Site) before any password or token is checked; json mode is not")
    func crossOriginRefused() throws {
        let app = try app()
        let refresh = try setCookie(app.router.handle(browserPost("/auth/login", #"{\#(Self.credentials),"mode":"cookie"}"#)), "directus_refresh_token")
        var crossSite = browserPost("/auth/refresh", nil, cookies: ["directus_refresh_token": refresh.value], origin: nil)
        crossSite.headers.add("Sec-Fetch-Site", "cross-site")
        for request in [
            browserPost("/auth/login", #"{\#(Self.credentials),"mode":"cookie"}"#, origin: "https://evil.example"),
            browserPost("/auth/login", #"{\#(Self.credentials),"mode":"session"}"#, origin: "https://sibling.example.com"),
            browserPost("/auth/refresh", nil, cookies: ["directus_refresh_token": refresh.value], origin: "http://app.example.com"),
            browserPost("/auth/logout", nil, cookies: ["directus_refresh_token": refresh.value], origin: "null"),
            crossSite,
        ] {
            let response = app.router.handle(request)
            #expect(response.status == 403)
            #expect(try errorCode(response) == "FORBIDDEN")
            #expect(response.headers["Set-Cookie"] == nil)
        }
        // The refused requests used nothing: the cookie still refreshes from the right origin,
        // and from a client that is no browser (no Origin, no Sec-Fetch-Site).
        var sameOrigin = browserPost("/auth/refresh", nil, cookies: ["directus_refresh_token": refresh.value], origin: nil)
        sameOrigin.headers.add("Sec-Fetch-Site", "same-origin")
        let next = try setCookie(app.router.handle(sameOrigin), "directus_refresh_token")
        #expect(app.router.handle(browserPost("/auth/refresh", nil, cookies: ["directus_refresh_token": next.value], origin: nil)).status == 200)
        // json mode sets and reads no cookie, so any origin may use it.
        #expect(app.router.handle(browserPost("/auth/login", "{\(Self.credentials)}", origin: "https://evil.example")).status == 200)
    }

    @Test("an origin in LATCHKEY_AUTH_COOKIE_ORIGINS (an app routing /auth/ to Latchkey) may use the cookies; others may not")
    func configuredOrigins() throws {
        let app = try makeApplication([
            "LATCHKEY_PUBLIC_URL": "https://auth.example.com",
            "LATCHKEY_AUTH_COOKIE_ORIGINS": "HTTPS://App.Example.com:443/, http://127.0.0.1:8080",
        ])
        _ = try app.accounts.createAccount(email: "person@example.com", password: Redacted(Self.password))
        for origin in ["https://auth.example.com", "https://app.example.com", "http://127.0.0.1:8080"] {
            let login = app.router.handle(browserPost("/auth/login", #"{\#(Self.credentials),"mode":"cookie"}"#, origin: origin))
            #expect(login.status == 200, "\(origin)")
        }
        for origin in ["https://other.example.com", "http://app.example.com", "http://127.0.0.1:8081"] {
            #expect(app.router.handle(browserPost("/auth/login", #"{\#(Self.credentials),"mode":"cookie"}"#, origin: origin)).status == 403)
        }
    }

    @Test("over plain http the cookies are not Secure; a public URL with a path scopes the refresh cookie under it")
    func cookieAttributesFollowThePublicURL() throws {
        let app = try app(publicURL: "http://127.0.0.1:8080/id")
        let login = app.router.handle(browserPost("/auth/login", #"{\#(Self.credentials),"mode":"session"}"#, origin: "http://127.0.0.1:8080"))
        #expect(login.status == 200)
        #expect(try setCookie(login, "directus_refresh_token").attributes["path"] == "/id/auth")
        #expect(try setCookie(login, "directus_refresh_token").attributes["secure"] == nil)
        #expect(try setCookie(login, "directus_session_token").attributes["secure"] == nil)
    }

    @Test("refresh and logout without a token anywhere are INVALID_PAYLOAD; json mode never reads the cookie")
    func missingToken() throws {
        let app = try app()
        let refresh = try setCookie(app.router.handle(browserPost("/auth/login", #"{\#(Self.credentials),"mode":"cookie"}"#)), "directus_refresh_token")
        for request in [
            browserPost("/auth/refresh", nil), browserPost("/auth/logout", "{}"),
            browserPost("/auth/refresh", #"{"mode":"json"}"#, cookies: ["directus_refresh_token": refresh.value]),
            browserPost("/auth/refresh", "{}", cookies: ["directus_refresh_token": refresh.value, "x": "1; directus_refresh_token=other"]),
        ] {
            let response = app.router.handle(request)
            #expect(response.status == 400)
            #expect(try errorCode(response) == "INVALID_PAYLOAD")
        }
        var wrongType = browserPost("/auth/logout", "refresh_token=x")
        wrongType.headers.set("Content-Type", "text/plain")
        #expect(app.router.handle(wrongType).status == 400)
    }
}
