import Foundation
import LatchkeyClient
import Testing

/// Sign-up through the SDK against the real server binary.
@Suite struct RegistrationTests {
    static let password = ClientSecret("violet tractor quietly juggles mountains")
    static let parser = AccountLinkParser(universalLinkHosts: ["latchkey.test"], customSchemes: ["com.example.app"])
    static let open = ["LATCHKEY_REGISTRATION": "open", "LATCHKEY_PUBLIC_URL": "https://latchkey.test"]

    @Test("register → mail → parsed /verify-email link → verifyEmail: the account exists and signs in; the link is used up")
    func fullFlow() async throws {
        let server = try await LatchkeyServerProcess(settings: Self.open)
        defer { server.stop() }
        let registration = Registration(baseURL: server.baseURL, locale: "pt")
        try await registration.register(email: "  New@Example.com ", password: Self.password)

        let login = FirstPartyLogin(baseURL: server.baseURL)
        let before = await #expect(throws: LatchkeyClientError.self) { try await login.signIn(email: "new@example.com", password: Self.password) }
        #expect(before?.code == .invalidCredentials)

        let mail = try #require(try await server.waitForMails(to: "new@example.com").first)
        #expect(mail.contains("Content-Language: pt"))
        let link = try Self.parser.parse(try LatchkeyServerProcess.link("/verify-email", in: mail))
        #expect(link.kind == .verifyEmail)
        try await registration.verifyEmail(token: link.token)

        let tokens = try await login.signIn(email: "new@example.com", password: Self.password)
        #expect(!tokens.accessToken.exposed.isEmpty)
        let again = await #expect(throws: LatchkeyClientError.self) { try await registration.verifyEmail(token: link.token) }
        #expect(again?.code == .invalidToken)
        #expect(again?.status == 400)
        #expect(!server.serverLog().contains(link.token.exposed))
    }

    @Test("an address with an account gets the same success, a mail saying so, and keeps its password")
    func knownAddress() async throws {
        let server = try await LatchkeyServerProcess(settings: Self.open)
        defer { server.stop() }
        try server.createUser("jane@example.com")
        try await Registration(baseURL: server.baseURL).register(email: "jane@example.com", password: Self.password)
        let mail = try #require(try await server.waitForMails(to: "jane@example.com").first)
        #expect(throws: HarnessError.self) { try LatchkeyServerProcess.link("/verify-email", in: mail) }
        #expect(try server.passwordMatches("jane@example.com", LatchkeyServerProcess.goodPassword))
    }

    @Test("a server that takes no sign-ups answers registration_closed, a fatal error with its own message")
    func closed() async throws {
        let server = try await LatchkeyServerProcess()
        defer { server.stop() }
        let error = await #expect(throws: LatchkeyClientError.self) {
            try await Registration(baseURL: server.baseURL).register(email: "new@example.com", password: Self.password)
        }
        #expect(error?.code == .registrationClosed)
        #expect(error?.kind == .fatal)
        #expect(error?.status == 403)
        #expect(error?.message(for: .en) == "New accounts cannot be created here right now. Please contact support.")
    }

    @Test("a mistyped address or a password the rules refuse is caught locally, without a request")
    func localChecks() async throws {
        let registration = Registration(baseURL: LatchkeyServerProcess.unreachableBaseURL)
        let email = await #expect(throws: LatchkeyClientError.self) {
            try await registration.register(email: "jane@example", password: Self.password)
        }
        #expect(email?.code == .invalidEmail)
        let weak = await #expect(throws: LatchkeyClientError.self) {
            try await registration.register(email: "janedoe@example.com", password: ClientSecret("janedoe"))
        }
        #expect(weak?.code == .weakPassword)
        #expect(weak?.reasons == ["too_short", "contains_email"])
        #expect(weak?.status == nil)
        let token = await #expect(throws: LatchkeyClientError.self) { try await registration.verifyEmail(token: ClientSecret("")) }
        #expect(token?.code == .invalidToken)
    }

    @Test("only the server judges strength: too_weak comes back with its sentence")
    func tooWeak() async throws {
        let server = try await LatchkeyServerProcess(settings: Self.open)
        defer { server.stop() }
        let error = await #expect(throws: LatchkeyClientError.self) {
            try await Registration(baseURL: server.baseURL).register(email: "new@example.com", password: ClientSecret("password1234"))
        }
        #expect(error?.code == .weakPassword)
        #expect(error?.reasons == ["too_weak"])
        #expect(error?.message(for: .es).contains("fácil de adivinar") == true)
    }

    @Test("the app's own link base is mailed when it is on the allow list, and refused as a fatal rejection when not")
    func verificationURL() async throws {
        let server = try await LatchkeyServerProcess(settings: Self.open.merging(
            ["LATCHKEY_RESET_URL_ALLOW_LIST": "https://app.example.com/welcome"]) { _, new in new })
        defer { server.stop() }
        let refused = await #expect(throws: LatchkeyClientError.self) {
            try await Registration(baseURL: server.baseURL, verificationURL: URL(string: "https://evil.example/welcome"))
                .register(email: "new@example.com", password: Self.password)
        }
        #expect(refused?.code == .requestRejected)
        #expect(refused?.serverCode == "reset_url_not_allowed")

        let registration = Registration(baseURL: server.baseURL, verificationURL: URL(string: "https://app.example.com/welcome"))
        try await registration.register(email: "new@example.com", password: Self.password)
        let mail = try #require(try await server.waitForMails(to: "new@example.com").first)
        let parser = AccountLinkParser(universalLinkHosts: ["app.example.com"], customSchemes: [], paths: [.verifyEmail: "/welcome"])
        let link = try parser.parse(try LatchkeyServerProcess.link("/welcome", in: mail))
        try await registration.verifyEmail(token: link.token)
        _ = try await FirstPartyLogin(baseURL: server.baseURL).signIn(email: "new@example.com", password: Self.password)
    }

    @Test("past the client's budget, sign-ups are rate_limited with the server's Retry-After")
    func rateLimited() async throws {
        let server = try await LatchkeyServerProcess(settings: Self.open.merging(["LATCHKEY_RESET_IP_LIMIT": "1/600"]) { _, new in new })
        defer { server.stop() }
        let registration = Registration(baseURL: server.baseURL)
        try await registration.register(email: "new@example.com", password: Self.password)
        let error = await #expect(throws: LatchkeyClientError.self) {
            try await registration.register(email: "other@example.com", password: Self.password)
        }
        #expect(error?.code == .rateLimited)
        let wait = try #require(error?.retryAfter)
        #expect(wait > .seconds(540) && wait <= .seconds(600))
    }
}
