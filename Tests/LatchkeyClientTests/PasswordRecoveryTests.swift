import Foundation
import LatchkeyClient
import Testing

/// The reset flow through the SDK against the real server binary.
@Suite struct PasswordRecoveryTests {
    static let newPassword = ClientSecret("violet tractor quietly juggles mountains")
    static let parser = ResetLinkParser(universalLinkHosts: ["latchkey.test"], customSchemes: ["com.example.app"])

    @Test("request → mail → parsed link → validate → reset: the new password works and the token is used up")
    func fullFlow() async throws {
        let server = try await LatchkeyServerProcess(settings: ["LATCHKEY_PUBLIC_URL": "https://latchkey.test"])
        defer { server.stop() }
        try server.createUser("jane@example.com")
        let recovery = PasswordRecovery(baseURL: server.baseURL)

        try await recovery.requestReset(email: "  Jane@Example.com ")
        let mail = try #require(try await server.waitForMails(to: "jane@example.com").first)
        let link = try Self.parser.parse(try LatchkeyServerProcess.resetLink(in: mail))
        #expect(!String(describing: link).contains(link.token.exposed))

        let status = try await recovery.validate(token: link.token)
        #expect(status.emailHint == "j***@example.com")
        #expect((status.expiresAt ?? .distantPast) > Date())

        try await recovery.resetPassword(token: link.token, newPassword: Self.newPassword, email: "jane@example.com")
        #expect(try server.passwordMatches("jane@example.com", Self.newPassword.exposed))
        #expect(try !server.passwordMatches("jane@example.com", LatchkeyServerProcess.goodPassword))

        let reuse = await #expect(throws: LatchkeyClientError.self) {
            try await recovery.resetPassword(token: link.token, newPassword: Self.newPassword)
        }
        #expect(reuse?.code == .invalidToken)
        #expect(reuse?.kind == .needsUserAction)
        let revalidate = await #expect(throws: LatchkeyClientError.self) { try await recovery.validate(token: link.token) }
        #expect(revalidate?.code == .invalidToken)
    }

    @Test("a weak password is refused with its reasons and leaves the token usable")
    func weakPassword() async throws {
        let server = try await LatchkeyServerProcess(settings: ["LATCHKEY_PUBLIC_URL": "https://latchkey.test"])
        defer { server.stop() }
        try server.createUser("jane@example.com")
        let recovery = PasswordRecovery(baseURL: server.baseURL)
        try await recovery.requestReset(email: "jane@example.com")
        let mail = try #require(try await server.waitForMails(to: "jane@example.com").first)
        let token = try Self.parser.parse(try LatchkeyServerProcess.resetLink(in: mail)).token

        // Too short is caught locally; "contains email" too, when the app passes the address.
        let local = await #expect(throws: LatchkeyClientError.self) {
            try await recovery.resetPassword(token: token, newPassword: ClientSecret("janej"), email: "jane@example.com")
        }
        #expect(local?.code == .weakPassword)
        #expect(local?.reasons == ["too_short", "contains_email"])
        #expect(local?.status == nil)

        // Only the server judges strength.
        let server_ = await #expect(throws: LatchkeyClientError.self) {
            try await recovery.resetPassword(token: token, newPassword: ClientSecret("password1234"))
        }
        #expect(server_?.code == .weakPassword)
        #expect(server_?.reasons == ["too_weak"])
        #expect(server_?.status == 400)
        #expect(server_?.message(for: .pt).contains("fácil de adivinhar") == true)

        try await recovery.resetPassword(token: token, newPassword: Self.newPassword)
        #expect(try server.passwordMatches("jane@example.com", Self.newPassword.exposed))
    }

    @Test("an unknown address gets the same success as a known one, and no mail")
    func unknownAddress() async throws {
        let server = try await LatchkeyServerProcess()
        defer { server.stop() }
        try server.createUser("jane@example.com")
        let recovery = PasswordRecovery(baseURL: server.baseURL)
        try await recovery.requestReset(email: "nobody@example.com")
        try await recovery.requestReset(email: "jane@example.com")
        _ = try await server.waitForMails(to: "jane@example.com")
        #expect(server.mails(to: "nobody@example.com").isEmpty)
    }

    @Test("a mistyped address is refused locally, without a request")
    func invalidEmailLocally() async throws {
        // Port 9 on loopback has no listener: reaching the network would fail differently.
        let recovery = PasswordRecovery(baseURL: URL(string: "http://127.0.0.1:9")!)
        for address in ["jane", "jane@", "jane@example", "jane @example.com"] {
            let error = await #expect(throws: LatchkeyClientError.self) { try await recovery.requestReset(email: address) }
            #expect(error?.code == .invalidEmail)
        }
    }

    @Test("a server that cannot be reached is a retryable network error")
    func networkUnavailable() async throws {
        let recovery = PasswordRecovery(baseURL: LatchkeyServerProcess.unreachableBaseURL)
        let error = await #expect(throws: LatchkeyClientError.self) { try await recovery.requestReset(email: "jane@example.com") }
        #expect(error?.code == .networkUnavailable)
        #expect(error?.kind == .retryable)
        #expect(error?.reasons == ["cannot_connect"])
    }

    @Test("past the server's limit, the error carries its Retry-After and says how long to wait")
    func rateLimitedSaysHowLong() async throws {
        let server = try await LatchkeyServerProcess(settings: ["LATCHKEY_RESET_IP_LIMIT": "1/600"])
        defer { server.stop() }
        let recovery = PasswordRecovery(baseURL: server.baseURL)
        try await recovery.requestReset(email: "jane@example.com")
        let error = await #expect(throws: LatchkeyClientError.self) { try await recovery.requestReset(email: "jane@example.com") }
        #expect(error?.code == .rateLimited)
        #expect(error?.status == 429)
        // The first wait lasts until the ten-minute window has room again.
        let wait = try #require(error?.retryAfter)
        #expect(wait > .seconds(540) && wait <= .seconds(600))
        #expect(error?.message(for: .en) == "Too many attempts. Please try again in 10 minutes.")
        #expect(error?.message(for: .ar) == "محاولات كثيرة جدًا. يُرجى المحاولة مرة أخرى بعد 10 دقائق.")
    }

    @Test("a reset_url not on the server's allow list is a fatal rejection")
    func resetURLNotAllowed() async throws {
        let server = try await LatchkeyServerProcess()
        defer { server.stop() }
        let recovery = PasswordRecovery(baseURL: server.baseURL, resetURL: URL(string: "https://evil.example/reset-password"))
        let error = await #expect(throws: LatchkeyClientError.self) { try await recovery.requestReset(email: "jane@example.com") }
        #expect(error?.code == .requestRejected)
        #expect(error?.kind == .fatal)
        #expect(error?.serverCode == "reset_url_not_allowed")
    }
}
