import Foundation
import LatchkeyCrypto
@testable import LatchkeyCore
import LatchkeyHTTP
@testable import LatchkeyServer
import LatchkeyTestSupport
import Testing

/// `/users/me…` and the address change links, through the router of a whole application on a
/// clock the tests move: who may use them, the re-authentication rule, and what each change does.
@Suite struct AccountRoutesTests {
    private static let password = "correct horse battery staple"
    private static let newPassword = "violet tractor quietly juggles mountains"
    private static let email = "person@example.com"

    @Test("GET /users/me answers Directus's shape of the user for a first-party login's token")
    func me() throws {
        let harness = try AccountRoutesHarness()
        let account = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)

        let response = harness.call("GET", "/users/me", token: login.access)
        #expect(response.status == 200)
        let data = try #require(try harness.json(response)["data"] as? [String: Any])
        #expect(data["id"] as? String == account.id)
        #expect(data["email"] as? String == Self.email)
        #expect(data["email_verified"] as? Bool == true)
        #expect(data["status"] as? String == "active")
        #expect(data.keys.contains("language") && data["language"] is NSNull)
    }

    @Test("no token, another scheme, a bad or ended token, or one in the query string: 401 INVALID_CREDENTIALS with a Bearer challenge")
    func refusedTokens() throws {
        let harness = try AccountRoutesHarness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)
        let ended = try harness.login(Self.email, Self.password)
        #expect(harness.call("POST", "/auth/logout", body: #"{"refresh_token":"\#(ended.refresh)"}"#).status == 204)

        var requests = [
            harness.request("GET", "/users/me"),
            harness.request("GET", "/users/me", headers: [("Authorization", "Basic cGVyc29uOnBhc3N3b3Jk")]),
            harness.request("GET", "/users/me", token: "not.a.token"),
            harness.request("GET", "/users/me", token: ended.access),
            harness.request("GET", "/users/me/sessions", token: String(repeating: "A", count: 20_000)),
            harness.request("DELETE", "/users/me"),
        ]
        var inQuery = harness.request("GET", "/users/me")
        inQuery.query = [(name: "access_token", value: login.access)]
        requests.append(inQuery)
        for request in requests {
            let response = harness.app.router.handle(request)
            #expect(response.status == 401, "\(request.method) \(request.path)")
            #expect(response.headers["WWW-Authenticate"] == "Bearer")
            #expect(try harness.directusCode(response) == "INVALID_CREDENTIALS")
        }
        #expect(harness.call("GET", "/users/me", token: login.access).status == 200)
    }

    @Test("a third-party client's token is 403 FORBIDDEN; a first-party client's is accepted")
    func thirdPartyClients() throws {
        let harness = try AccountRoutesHarness()
        let account = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let clients = ClientRegistry(store: harness.app.store)
        _ = try clients.create(
            id: "partner", redirectURIs: ["https://partner.example/cb"], confidential: false, firstParty: false, scopes: [],
            now: harness.clock.now())
        _ = try clients.create(
            id: "ios-app", redirectURIs: ["com.example.app:/oauth"], confidential: false, firstParty: true, scopes: [],
            now: harness.clock.now())
        let signedIn = SignInService.SignedIn(account: account, assurance: .signedIn(at: harness.clock.now()))
        let partner = try harness.app.tokens.issue(for: signedIn, clientID: "partner", scope: ["openid"], origin: .test)
        let app = try harness.app.tokens.issue(for: signedIn, clientID: "ios-app", scope: ["openid"], origin: .test)

        for (method, path) in [("GET", "/users/me"), ("GET", "/users/me/sessions"), ("DELETE", "/users/me")] {
            let refused = harness.call(method, path, token: partner.accessToken.exposed)
            #expect(refused.status == 403, "\(method) \(path)")
            #expect(try harness.directusCode(refused) == "FORBIDDEN")
        }
        #expect(harness.call("GET", "/users/me", token: app.accessToken.exposed).status == 200)
        #expect(try harness.app.store.account(id: account.id) != nil)
    }

    @Test("five minutes after signing in, a new password, a new address and closing the account each need the current password")
    func reauthenticationRequired() throws {
        let harness = try AccountRoutesHarness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)
        harness.clock.advance(by: Reauthentication.maximumSignInAge + 1)

        let attempts = [
            ("PATCH", #"{"password":"\#(Self.newPassword)"}"#),
            ("PATCH", #"{"email":"new@example.com"}"#),
            ("DELETE", ""),
        ]
        for (method, body) in attempts {
            let refused = harness.call(method, "/users/me", token: login.access, body: body)
            #expect(refused.status == 403, "\(method) \(body)")
            #expect(try harness.directusCode(refused) == "REAUTHENTICATION_REQUIRED")
            #expect(try harness.latchkeyCode(refused) == "reauthentication_required")
        }
        #expect(try harness.app.accounts.verifyPassword(email: Self.email, password: Redacted(Self.password)))
        #expect(try harness.app.store.account(email: Self.email) != nil)
        #expect(try harness.mails().isEmpty)

        let withPassword = harness.call(
            "PATCH", "/users/me", token: login.access, body: #"{"password":"\#(Self.newPassword)","current_password":"\#(Self.password)"}"#)
        #expect(withPassword.status == 200)
        #expect(try harness.app.accounts.verifyPassword(email: Self.email, password: Redacted(Self.newPassword)))
    }

    @Test("a wrong current password is INVALID_CREDENTIALS and counts as a failed sign-in, up to 429")
    func wrongCurrentPassword() throws {
        let harness = try AccountRoutesHarness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)
        for attempt in 0..<10 {
            let wrong = harness.call(
                "DELETE", "/users/me", token: login.access, body: #"{"current_password":"wrong guess \#(attempt)"}"#, ip: "198.51.100.9")
            #expect(wrong.status == 401)
            #expect(try harness.directusCode(wrong) == "INVALID_CREDENTIALS")
        }
        let limited = harness.call(
            "DELETE", "/users/me", token: login.access, body: #"{"current_password":"\#(Self.password)"}"#, ip: "198.51.100.9")
        #expect(limited.status == 429)
        #expect(try harness.directusCode(limited) == "REQUESTS_EXCEEDED")
        #expect((limited.headers["Retry-After"].flatMap(Int.init) ?? 0) > 0)
        // The same limit stops a sign-in from that address.
        let signIn = harness.call(
            "POST", "/auth/login", body: #"{"email":"\#(Self.email)","password":"\#(Self.password)"}"#, ip: "198.51.100.9")
        #expect(signIn.status == 429)
        #expect(try harness.app.store.account(email: Self.email) != nil)
    }

    @Test("a new password keeps this login (after a refresh), ends every other one, and mails the notice")
    func changePassword() throws {
        let harness = try AccountRoutesHarness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let this = try harness.login(Self.email, Self.password)
        let other = try harness.login(Self.email, Self.password)

        let changed = harness.call("PATCH", "/users/me", token: this.access, body: #"{"password":"\#(Self.newPassword)"}"#)
        #expect(changed.status == 200)
        #expect(try #require(try harness.json(changed)["data"] as? [String: Any])["email"] as? String == Self.email)
        #expect(harness.call("POST", "/auth/refresh", body: #"{"refresh_token":"\#(other.refresh)"}"#).status == 401)
        #expect(harness.call("GET", "/users/me", token: this.access).status == 401)
        let refreshed = harness.call("POST", "/auth/refresh", body: #"{"refresh_token":"\#(this.refresh)"}"#)
        #expect(refreshed.status == 200)
        let access = try #require((try harness.json(refreshed)["data"] as? [String: Any])?["access_token"] as? String)
        #expect(harness.call("GET", "/users/me", token: access).status == 200)
        // The second login came from a new device (it sent no device token): its notice is queued too.
        let mails = try harness.mails()
        #expect(mails.map(\.subject).sorted() == ["New sign-in to your Latchkey account", "Your Latchkey password was changed"])
        #expect(mails.map(\.to) == [Self.email, Self.email])
        #expect(try harness.app.accounts.verifyPassword(email: Self.email, password: Redacted(Self.newPassword)))
    }

    @Test("PATCH takes exactly one of password and email; a refused password says why, at its field")
    func updateBodies() throws {
        let harness = try AccountRoutesHarness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)
        for body in ["{}", #"{"password":"\#(Self.newPassword)","email":"new@example.com"}"#, #"{"current_password":"x"}"#,
                     #"{"password":"a\u0000b"}"#, "[1]"] {
            let refused = harness.call("PATCH", "/users/me", token: login.access, body: body)
            #expect(refused.status == 400, "\(body)")
            #expect(try harness.directusCode(refused) == "INVALID_PAYLOAD", "\(body)")
        }
        let weak = harness.call("PATCH", "/users/me", token: login.access, body: #"{"password":"short"}"#)
        #expect(weak.status == 400)
        #expect(try harness.directusCode(weak) == "FAILED_VALIDATION")
        let body = try harness.json(weak)
        #expect(((body["errors"] as? [[String: Any]])?.first?["extensions"] as? [String: Any])?["field"] as? String == "password")
        #expect(((body["error"] as? [String: Any])?["reasons"] as? [String])?.contains("too_short") == true)
        let badAddress = harness.call("PATCH", "/users/me", token: login.access, body: #"{"email":"not an address"}"#)
        #expect(try harness.directusCode(badAddress) == "FAILED_VALIDATION")
        #expect(harness.call("PATCH", "/users/me", token: login.access, body: #"{"email":"\#(Self.email)"}"#).status == 400)
    }

    @Test("the signed-in devices: each live login with its client, times, truncated IP and user agent family; one ends, then it is 404")
    func sessions() throws {
        let harness = try AccountRoutesHarness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let phone = try harness.login(
            Self.email, Self.password, ip: "203.0.113.7",
            userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")
        harness.clock.advance(by: 5)
        let laptop = try harness.login(Self.email, Self.password, ip: "198.51.100.20", userAgent: "curl/8.5.0")

        let listed = harness.call("GET", "/users/me/sessions", token: phone.access)
        #expect(listed.status == 200)
        let logins = try #require(try harness.json(listed)["data"] as? [[String: Any]])
        #expect(logins.count == 2)
        #expect(logins.map { $0["user_agent"] as? String } == ["curl", "Safari on iOS"])
        #expect(logins.map { $0["ip"] as? String } == ["198.51.100.0", "203.0.113.0"])
        #expect(logins.map { $0["current"] as? Bool } == [false, true])
        #expect(logins.allSatisfy { $0["client_id"] is NSNull && $0["signed_in_at"] is String && $0["last_used_at"] is String })
        let laptopID = try #require(logins.first?["id"] as? String)
        #expect(!String(decoding: listed.body, as: UTF8.self).contains("Mozilla"))

        #expect(harness.call("DELETE", "/users/me/sessions", token: phone.access, query: [("id", laptopID)]).status == 204)
        #expect(harness.call("POST", "/auth/refresh", body: #"{"refresh_token":"\#(laptop.refresh)"}"#).status == 401)
        let again = harness.call("DELETE", "/users/me/sessions", token: phone.access, query: [("id", laptopID)])
        #expect(again.status == 404)
        #expect(try harness.directusCode(again) == "INVALID_QUERY")
        #expect(harness.call("DELETE", "/users/me/sessions", token: phone.access).status == 400)
        #expect(harness.call("DELETE", "/users/me/sessions", token: phone.access, query: [("id", "a"), ("id", "b")]).status == 400)
        #expect(harness.call("GET", "/users/me", token: phone.access).status == 200)
    }

    @Test("a new address: 200 with the address unchanged, made by the link mailed to it, undone by the link mailed to the old one")
    func changeAddress() throws {
        let harness = try AccountRoutesHarness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)

        let asked = harness.call("PATCH", "/users/me", token: login.access, body: #"{"email":"New@Example.com"}"#)
        #expect(asked.status == 200)
        #expect(try #require(try harness.json(asked)["data"] as? [String: Any])["email"] as? String == Self.email)
        let confirmation = try #require(try harness.mails().first { $0.to == "new@example.com" })
        let confirmToken = try #require(AccountRoutesHarness.token(in: confirmation, page: "confirm-email"))
        #expect(harness.call("GET", "/users/me", token: login.access).status == 200)

        #expect(harness.call("POST", "/users/email/confirm", body: #"{"token":"\#(confirmToken)"}"#).status == 204)
        let me = try harness.json(harness.call("GET", "/users/me", token: login.access))
        #expect((me["data"] as? [String: Any])?["email"] as? String == "new@example.com")
        let replay = harness.call("POST", "/users/email/confirm", body: #"{"token":"\#(confirmToken)"}"#)
        #expect(replay.status == 400)
        #expect(try harness.directusCode(replay) == "INVALID_TOKEN")
        let notice = try #require(try harness.mails().first { $0.to == Self.email })
        #expect(notice.textBody.contains("n***@example.com"))
        let undoToken = try #require(AccountRoutesHarness.token(in: notice, page: "undo-email-change"))

        #expect(harness.call("POST", "/users/email/undo", body: #"{"token":"\#(undoToken)"}"#).status == 204)
        #expect(harness.call("GET", "/users/me", token: login.access).status == 401)
        #expect(harness.call("POST", "/auth/refresh", body: #"{"refresh_token":"\#(login.refresh)"}"#).status == 401)
        #expect(try harness.app.store.account(email: Self.email) != nil)
        #expect(harness.call("POST", "/users/email/undo", body: #"{"token":"\#(undoToken)"}"#).status == 400)
    }

    @Test("asking for an address that has an account answers alike, and mails it a notice without a link")
    func addressWithAnAccount() throws {
        let harness = try AccountRoutesHarness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        _ = try harness.app.accounts.createAccount(email: "taken@example.com", password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)

        let taken = harness.call("PATCH", "/users/me", token: login.access, body: #"{"email":"taken@example.com"}"#)
        let free = harness.call("PATCH", "/users/me", token: login.access, body: #"{"email":"free@example.com"}"#)
        #expect(taken.status == 200)
        #expect(taken.status == free.status && taken.body == free.body)
        let mails = try harness.mails()
        let notice = try #require(mails.first { $0.to == "taken@example.com" })
        #expect(!notice.textBody.contains("#token="))
        #expect(notice.subject == "Someone tried to move a Latchkey account to your address")
        #expect(mails.first { $0.to == "free@example.com" }.flatMap { AccountRoutesHarness.token(in: $0, page: "confirm-email") } != nil)
    }

    @Test("closing the account: 204, its tokens dead at once, a confirmation mail, the address free, no address in the logs")
    func deleteAccount() throws {
        let logs = MemoryLogSink()
        let harness = try AccountRoutesHarness(logs: logs)
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)
        let other = try harness.login(Self.email, Self.password)

        #expect(harness.call("DELETE", "/users/me", token: login.access).status == 204)
        #expect(harness.call("GET", "/users/me", token: other.access).status == 401)
        #expect(harness.call("POST", "/auth/refresh", body: #"{"refresh_token":"\#(other.refresh)"}"#).status == 401)
        #expect(try harness.mails().map(\.subject) == ["Your Latchkey account was deleted"])
        #expect(try harness.app.store.account(email: Self.email) == nil)
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let deleted = try #require(logs.lines.first { $0.contains(#""event":"account_deleted""#) })
        #expect(!deleted.contains(Self.email))
        #expect(!logs.lines.joined().contains(Self.email))
    }

    @Test("a link's token: 400 INVALID_TOKEN for every cause, malformed input INVALID_PAYLOAD, and a budget per client")
    func linkTokens() throws {
        let harness = try AccountRoutesHarness(["LATCHKEY_RESET_IP_LIMIT": "4/600"])
        let bodies = [#"{"token":"\#(String(repeating: "A", count: 43))"}"#, #"{"token":"junk"}"#]
        for path in ["/users/email/confirm", "/users/email/undo"] {
            for body in bodies {
                let refused = harness.call("POST", path, body: body)
                #expect(refused.status == 400)
                #expect(try harness.directusCode(refused) == "INVALID_TOKEN")
                #expect(try harness.latchkeyCode(refused) == "invalid_token")
            }
        }
        let limited = harness.call("POST", "/users/email/confirm", body: bodies[0])
        #expect(limited.status == 429)
        #expect(try harness.directusCode(limited) == "REQUESTS_EXCEEDED")
        let missing = harness.call("POST", "/users/email/undo", body: "{}", ip: "198.51.100.1")
        #expect(try harness.directusCode(missing) == "INVALID_PAYLOAD")
    }
}

/// A whole application on a clock the tests move, with helpers to call its router.
struct AccountRoutesHarness {
    let app: ServerApplication
    let clock = ManualClock()

    init(_ extra: [String: String] = [:], logs: MemoryLogSink = MemoryLogSink()) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-app-\(UUID().uuidString)")
        var environment = ["LATCHKEY_DATA_DIR": directory.path, "LATCHKEY_LISTEN": "127.0.0.1:0"]
        environment.merge(extra) { $1 }
        app = try ServerApplication(configuration: try Configuration.load(environment: environment), logger: Logger(sink: logs), clock: clock)
    }

    /// A request to `path`, with `token` as its bearer token and `body` as JSON.
    func request(
        _ method: String, _ path: String, token: String? = nil, body: String = "", headers: [(String, String)] = [],
        query: [(String, String)] = [], ip: String = "203.0.113.7"
    ) -> HTTPRequest {
        var fields = headers
        if let token { fields.append(("Authorization", "Bearer " + token)) }
        if !body.isEmpty { fields.append(("Content-Type", "application/json")) }
        return HTTPRequest(
            method: method, path: path, query: query.map { (name: $0.0, value: $0.1) }, headers: HTTPHeaders(fields),
            body: Data(body.utf8), clientIP: ip)
    }

    /// The router's answer to ``request(_:_:token:body:headers:query:ip:)``.
    func call(
        _ method: String, _ path: String, token: String? = nil, body: String = "", query: [(String, String)] = [],
        ip: String = "203.0.113.7"
    ) -> HTTPResponse {
        app.router.handle(request(method, path, token: token, body: body, query: query, ip: ip))
    }

    /// Signs in with `/auth/login`; the login's access and refresh tokens.
    func login(_ email: String, _ password: String, ip: String = "203.0.113.7", userAgent: String? = nil) throws
        -> (access: String, refresh: String)
    {
        var request = request("POST", "/auth/login", body: #"{"email":"\#(email)","password":"\#(password)"}"#, ip: ip)
        if let userAgent { request.headers.add("User-Agent", userAgent) }
        let response = app.router.handle(request)
        let data = try #require(try json(response)["data"] as? [String: Any])
        return (try #require(data["access_token"] as? String), try #require(data["refresh_token"] as? String))
    }

    func json(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    /// Directus's code of an error answer.
    func directusCode(_ response: HTTPResponse) throws -> String? {
        let errors = try #require(try json(response)["errors"] as? [[String: Any]])
        return (errors.first?["extensions"] as? [String: Any])?["code"] as? String
    }

    /// Latchkey's code of an error answer.
    func latchkeyCode(_ response: HTTPResponse) throws -> String? {
        (try json(response)["error"] as? [String: Any])?["code"] as? String
    }

    /// The mails queued and not yet taken by an earlier call.
    func mails() throws -> [MailMessage] {
        try app.store.leaseDueMail(now: clock.now(), lease: 86400, limit: 100).map(\.message)
    }

    /// The token of the link to `page` in `mail`'s text.
    static func token(in mail: MailMessage, page: String) -> String? {
        guard let range = mail.textBody.range(of: "/\(page)#token=") else { return nil }
        return String(mail.textBody[range.upperBound...].prefix(43))
    }
}
