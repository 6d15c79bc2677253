import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LatchkeyClient
import Testing

/// The signed-in person's own account through the SDK, against the real server binary.
@Suite struct AccountClientTests {
    static let email = "jane@example.com"
    static let newPassword = ClientSecret("violet tractor quietly juggles mountains")
    static let current = ClientSecret(LatchkeyServerProcess.goodPassword)

    /// A server with Jane's account, signed in with a password on an in-memory session.
    struct Setup {
        let server: LatchkeyServerProcess
        let login: FirstPartyLogin
        let store: InMemoryTokenStore
        let session: AuthSession
        let account: AccountClient

        static func start(settings: [String: String] = [:]) async throws -> Setup {
            let server = try await LatchkeyServerProcess(settings: ["LATCHKEY_PUBLIC_URL": "https://latchkey.test"].merging(settings) { _, new in new })
            try server.createUser(AccountClientTests.email)
            let login = FirstPartyLogin(baseURL: server.baseURL)
            let store = InMemoryTokenStore(try await login.signIn(email: AccountClientTests.email, password: AccountClientTests.current))
            let session = AuthSession(store: store, refresher: .firstParty(login))
            return Setup(server: server, login: login, store: store, session: session, account: AccountClient(baseURL: server.baseURL, session: session))
        }

        /// Another device's login of the same account.
        func otherDevice() async throws -> StoredTokens {
            try await login.signIn(email: AccountClientTests.email, password: AccountClientTests.current)
        }

        /// The status `GET /users/me` answers with `token`.
        func status(with token: ClientSecret) async throws -> Int {
            var request = URLRequest(url: server.baseURL.appendingPathComponent("users/me"))
            request.setValue("Bearer " + token.exposed, forHTTPHeaderField: "Authorization")
            let (_, response) = try await URLSession.shared.data(for: request)
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        }

        func refreshes() async throws -> Int {
            try await server.requestCount(route: "directus_refresh", status: 200)
        }
    }

    @Test("the account and its devices: this one is marked current, the other device listed too")
    func readAccount() async throws {
        let setup = try await Setup.start()
        defer { setup.server.stop() }
        _ = try await setup.otherDevice()
        let user = try await setup.account.current()
        #expect(user.email == Self.email && user.emailVerified && user.status == "active" && !user.id.isEmpty)
        let devices = try await setup.account.devices()
        #expect(devices.count == 2)
        #expect(devices.filter(\.isCurrent).count == 1)
        #expect(devices.allSatisfy { $0.clientID == nil && $0.signedInAt <= $0.lastUsedAt })
    }

    @Test("a new password right after signing in: other devices end; this one renews its token at once and goes on")
    func changePassword() async throws {
        let setup = try await Setup.start()
        defer { setup.server.stop() }
        let other = try await setup.otherDevice()
        let before = try await setup.session.validAccessToken()
        let refreshesBefore = try await setup.refreshes()

        let user = try await setup.account.changePassword(to: Self.newPassword, email: Self.email)
        #expect(user.email == Self.email)
        #expect(try setup.server.passwordMatches(Self.email, Self.newPassword.exposed))
        #expect(try await setup.refreshes() == refreshesBefore + 1)
        let after = try await setup.session.validAccessToken()
        #expect(after != before)
        #expect(try await setup.status(with: before) == 401)
        #expect(try await setup.account.current().email == Self.email)
        let ended = await #expect(throws: LatchkeyClientError.self) { try await setup.login.refresh(try #require(other.refreshToken)) }
        #expect(ended?.code == .sessionExpired)
        #expect(!setup.server.serverLog().contains(Self.newPassword.exposed))
    }

    @Test("a password refused locally or by the server says why, and changes nothing")
    func weakPassword() async throws {
        let setup = try await Setup.start()
        defer { setup.server.stop() }
        let local = await #expect(throws: LatchkeyClientError.self) {
            try await setup.account.changePassword(to: ClientSecret("jane1"), email: Self.email)
        }
        #expect(local?.reasons == ["too_short", "contains_email"] && local?.status == nil)
        let server = await #expect(throws: LatchkeyClientError.self) { try await setup.account.changePassword(to: ClientSecret("password1234")) }
        #expect(server?.code == .weakPassword && server?.reasons == ["too_weak"] && server?.status == 400)
        let email = await #expect(throws: LatchkeyClientError.self) { try await setup.account.changeEmail(to: "jane@") }
        #expect(email?.code == .invalidEmail)
        #expect(try setup.server.passwordMatches(Self.email, LatchkeyServerProcess.goodPassword))
    }

    @Test("an old sign-in needs the current password: reauthentication_required, a wrong one invalid_credentials, the right one passes")
    func reauthentication() async throws {
        let setup = try await Setup.start()
        defer { setup.server.stop() }
        try setup.server.ageSignIns()
        for change in [
            { try await setup.account.changePassword(to: Self.newPassword) as Any },
            { try await setup.account.changeEmail(to: "jane.new@example.com") as Any },
            { try await setup.account.deleteAccount() as Any },
        ] as [@Sendable () async throws -> Any] {
            let refused = await #expect(throws: LatchkeyClientError.self) { _ = try await change() }
            #expect(refused?.code == .reauthenticationRequired && refused?.kind == .needsUserAction && refused?.status == 403)
        }
        let wrong = await #expect(throws: LatchkeyClientError.self) {
            try await setup.account.changePassword(to: Self.newPassword, currentPassword: ClientSecret("not the password"))
        }
        #expect(wrong?.code == .invalidCredentials && wrong?.status == 401)
        // A wrong current password is no reason to renew the token (no Bearer challenge).
        let refreshes = try await setup.refreshes()
        _ = try await setup.account.changePassword(to: Self.newPassword, currentPassword: Self.current)
        #expect(try setup.server.passwordMatches(Self.email, Self.newPassword.exposed))
        #expect(try await setup.refreshes() == refreshes + 1)
        #expect(setup.store.load() != nil)
    }

    @Test("a new address: unchanged until its link confirms it; the undo link gives the old one back and ends this session")
    func changeEmail() async throws {
        let setup = try await Setup.start()
        defer { setup.server.stop() }
        let events = await EventLog.following(setup.session)
        let unchanged = try await setup.account.changeEmail(to: "Jane.New@example.com")
        #expect(unchanged.email == Self.email)
        let parser = AccountLinkParser(universalLinkHosts: ["latchkey.test"], customSchemes: [])
        let confirmMail = try #require(try await setup.server.waitForMails(to: "jane.new@example.com").first)
        let confirm = try parser.parse(try LatchkeyServerProcess.link("/confirm-email", in: confirmMail))
        #expect(confirm.kind == .confirmEmailChange)
        let links = EmailChangeLinks(baseURL: setup.server.baseURL)
        try await links.confirm(token: confirm.token)
        #expect(try await setup.account.current().email == "jane.new@example.com")
        let reused = await #expect(throws: LatchkeyClientError.self) { try await links.confirm(token: confirm.token) }
        #expect(reused?.code == .invalidToken)

        let undoMail = try #require(try await setup.server.waitForMails(to: Self.email).last)
        let undo = try parser.parse(try LatchkeyServerProcess.link("/undo-email-change", in: undoMail))
        #expect(undo.kind == .undoEmailChange)
        try await links.undo(token: undo.token)
        let token = try await setup.session.validAccessToken()
        let ended = await #expect(throws: LatchkeyClientError.self) { try await setup.session.accessToken(replacing: token) }
        #expect(ended?.code == .sessionExpired)
        #expect(try await events.first(2).last == .signedOut(.sessionEnded))
        _ = try await setup.login.signIn(email: Self.email, password: Self.current)
    }

    @Test("signing out another device ends its login; an unknown one counts as done; this device signs out as signOut does")
    func signOutDevices() async throws {
        let setup = try await Setup.start()
        defer { setup.server.stop() }
        let other = try await setup.otherDevice()
        let events = await EventLog.following(setup.session)
        let devices = try await setup.account.devices()
        let otherDevice = try #require(devices.first { !$0.isCurrent })
        try await setup.account.signOut(device: otherDevice)
        let ended = await #expect(throws: LatchkeyClientError.self) { try await setup.login.refresh(try #require(other.refreshToken)) }
        #expect(ended?.code == .sessionExpired)
        try await setup.account.signOut(device: otherDevice)  // already gone: 404, done
        #expect(try await setup.account.devices().map(\.id) == devices.filter(\.isCurrent).map(\.id))

        let this = try #require(devices.first { $0.isCurrent })
        try await setup.account.signOut(device: this)
        #expect(setup.store.load() == nil)
        #expect(try await events.first(2).last == .signedOut(.userRequested))
    }

    @Test("deleting the account: every token stops, the session forgets its own and says accountDeleted")
    func deleteAccount() async throws {
        let setup = try await Setup.start()
        defer { setup.server.stop() }
        let other = try await setup.otherDevice()
        let token = try await setup.session.validAccessToken()
        let events = await EventLog.following(setup.session)
        try await setup.account.deleteAccount()
        #expect(setup.store.load() == nil)
        #expect(try await events.first(2).last == .signedOut(.accountDeleted))
        #expect(try await setup.status(with: token) == 401)
        let ended = await #expect(throws: LatchkeyClientError.self) { try await setup.login.refresh(try #require(other.refreshToken)) }
        #expect(ended?.code == .sessionExpired)
        let gone = await #expect(throws: LatchkeyClientError.self) { try await setup.login.signIn(email: Self.email, password: Self.current) }
        #expect(gone?.code == .invalidCredentials)
        let signedOut = await #expect(throws: LatchkeyClientError.self) { try await setup.account.current() }
        #expect(signedOut?.code == .sessionExpired && signedOut?.reasons == ["not_signed_in"])
    }

    @Test("an access token the server refuses is renewed once and the request sent again, a PATCH too")
    func renewsOnBearerChallenge() async throws {
        let setup = try await Setup.start()
        defer { setup.server.stop() }
        let stored = try #require(setup.store.load())
        setup.store.save(StoredTokens(accessToken: ClientSecret("not-a-token"), refreshToken: stored.refreshToken, expiresAt: .distantFuture))
        _ = try await setup.account.changeEmail(to: "jane.new@example.com")
        #expect(try await setup.refreshes() == 1)
        #expect(try await setup.server.requestCount(route: "users_me_update", status: 401) == 1)
        #expect(try await setup.server.requestCount(route: "users_me_update", status: 200) == 1)
    }

    @Test("after a password change, a token the session could not renew yet is never handed out again")
    func outdatedTokenNotReused() async throws {
        let setup = try await Setup.start()
        defer { setup.server.stop() }
        let stored = try #require(setup.store.load())
        // The session renews at a server it cannot reach: the change is made, the renewal fails.
        let offline = AuthSession(store: setup.store, refresher: .firstParty(FirstPartyLogin(baseURL: LatchkeyServerProcess.unreachableBaseURL)))
        _ = try await AccountClient(baseURL: setup.server.baseURL, session: offline).changePassword(to: Self.newPassword)
        #expect(setup.store.load() == stored)
        let refused = await #expect(throws: LatchkeyClientError.self) { try await offline.validAccessToken() }
        #expect(refused?.code == .networkUnavailable)
        // Reachable again, the same tokens renew and go on.
        #expect(try await setup.session.accessToken(replacing: stored.accessToken) != stored.accessToken)
    }
}
