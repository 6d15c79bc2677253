import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyStorage
import LatchkeyRedis
import LatchkeyMail
import LatchkeyWeb
import LatchkeyPasswordStrength
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
        let app = try makeApplication()
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

    @Test("after 10 failed logins for one account from one IP, that IP gets 429 with a doubling Retry-After, even with the right password")
    func failuresAreLimited() throws {
        let app = try makeApplication()
        _ = try app.accounts.createAccount(email: "person@example.com", password: Redacted(Self.password))
        for attempt in 0..<10 {
            #expect(try login(app, "person@example.com", "wrong password \(attempt)", ip: "198.51.100.99").status == 401)
        }
        let blocked = try login(app, "person@example.com", Self.password, ip: "198.51.100.99")
        #expect(blocked.status == 429)
        #expect(try errorCode(blocked) == "REQUESTS_EXCEEDED")
        let first = try #require(blocked.headers["Retry-After"].flatMap(Int.init))
        let again = try login(app, "person@example.com", Self.password, ip: "198.51.100.99")
        let second = try #require(again.headers["Retry-After"].flatMap(Int.init))
        #expect(second > first)
    }

    @Test("failures from many IPs do not lock the owner out: the right password from a fresh IP is in after a throttle of seconds")
    func failuresElsewhereDoNotLockTheOwnerOut() throws {
        let clock = ManualClock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-app-\(UUID().uuidString)")
        let app = try ServerApplication(
            configuration: try Configuration.load(environment: ["LATCHKEY_DATA_DIR": directory.path, "LATCHKEY_LISTEN": "127.0.0.1:0"]),
            logger: Logger(sink: MemoryLogSink()), clock: clock)
        _ = try app.accounts.createAccount(email: "person@example.com", password: Redacted(Self.password))
        // Twelve attackers fail until each is blocked for this account; they keep trying.
        for round in 0..<12 {
            for attacker in 0..<12 { _ = try login(app, "person@example.com", "guess \(round)", ip: "198.51.100.\(attacker)") }
            clock.advance(by: 0.1)
        }
        var waited: TimeInterval = 0
        var answer = try login(app, "person@example.com", Self.password, ip: "203.0.113.7")
        while answer.status == 429, waited <= 5 {
            let wait = TimeInterval(try #require(answer.headers["Retry-After"].flatMap(Int.init)))
            clock.advance(by: wait)
            waited += wait
            for attacker in 0..<12 { _ = try login(app, "person@example.com", "guess", ip: "198.51.100.\(attacker)") }
            answer = try login(app, "person@example.com", Self.password, ip: "203.0.113.7")
        }
        #expect(answer.status == 200)
        #expect(waited <= 5)
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
            jsonRequest("/auth/login", #"{"email":"a@example.com","password":"x","mode":"cookie"}"#),
            jsonRequest("/auth/refresh", "[]"),
        ] {
            let response = app.router.handle(request)
            #expect(response.status == 400)
            #expect(try errorCode(response) == "INVALID_PAYLOAD")
        }
    }
}
