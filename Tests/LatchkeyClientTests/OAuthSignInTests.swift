import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// The OAuth code flow through the SDK against the real server: discovery, the sign-in
/// form (submitted by ``BrowserAgent``), code exchange with PKCE, refresh at the token
/// endpoint, authorized requests, revocation.
@Suite struct OAuthSignInTests {
    static let redirectURI = URL(string: "http://127.0.0.1:49152/callback")!

    struct SignedIn {
        let server: LatchkeyServerProcess
        let client: OAuthClient
        let metadata: AuthorizationServerMetadata
        let request: AuthorizationRequest
        let callback: URL
        let response: TokenResponse
    }

    static func signIn() async throws -> SignedIn {
        let server = try await LatchkeyServerProcess()
        do {
            try server.createUser("jane@example.com")
            let created = try server.cli(["clients", "create", "sdk-test", "--redirect-uri", "http://127.0.0.1/callback", "--first-party"])
            guard created.status == 0 else { throw HarnessError("clients create: \(created.stderr)") }
            let client = OAuthClient(issuer: server.baseURL, clientID: "sdk-test", scopes: ["openid", "email"])
            let metadata = try await client.discover()
            let request = try client.makeAuthorizationRequest(metadata: metadata, redirectURI: redirectURI)
            let callback = try await BrowserAgent().signIn(
                at: request.url, email: "jane@example.com", password: LatchkeyServerProcess.goodPassword)
            let response = try await client.completeSignIn(callback: callback, for: request)
            return SignedIn(server: server, client: client, metadata: metadata, request: request, callback: callback, response: response)
        } catch {
            server.stop()
            throw error
        }
    }

    @Test("discovery, sign-in form, code exchange: tokens with a checked ID token")
    func codeFlow() async throws {
        let signedIn = try await Self.signIn()
        defer { signedIn.server.stop() }
        #expect(signedIn.metadata.issuer == signedIn.server.baseURL)
        #expect(signedIn.metadata.authorizationResponseIssParameterSupported)
        let idToken = try #require(signedIn.response.idToken)
        let claims = try IDTokenClaims(idToken: idToken)
        #expect(claims.nonce == signedIn.request.nonce)
        #expect(claims.audiences == ["sdk-test"])
        #expect(claims.email == "jane@example.com")
        #expect(signedIn.response.refreshToken != nil)
        #expect(signedIn.response.expiresIn == 600)

        // The request's state is good for one answer: the same callback again is refused by the SDK
        // before the token endpoint hears of it (RFC 9700 §4.2.4).
        let before = try await signedIn.server.requestCount(route: "oauth_token", status: 400)
        await #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["state_used"])) {
            try await signedIn.client.completeSignIn(callback: signedIn.callback, for: signedIn.request)
        }
        #expect(try await signedIn.server.requestCount(route: "oauth_token", status: 400) == before)
        // And the code is single use on the server: redeeming it again fails.
        let code = try #require(URLComponents(url: signedIn.callback, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "code" }?.value)
        let replay = await #expect(throws: LatchkeyClientError.self) {
            try await signedIn.client.exchange(code: ClientSecret(code), for: signedIn.request)
        }
        #expect(replay?.code == .authorizationFailed)
        #expect(replay?.reasons == ["invalid_grant"])
    }

    @Test("the stored sign-in keeps the ID token's subject and the server metadata, and survives a restart without discovery")
    func storedSignIn() async throws {
        let signedIn = try await Self.signIn()
        defer { signedIn.server.stop() }
        let tokens = signedIn.client.storedTokens(signedIn.response, for: signedIn.request)
        let subject = try IDTokenClaims(idToken: try #require(signedIn.response.idToken)).subject
        #expect(tokens.subject == subject)
        #expect(tokens.metadata == signedIn.metadata)
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        try FileTokenStore(directory: temporary.url).save(StoredTokens(
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: Date(), subject: tokens.subject,
            metadata: tokens.metadata))

        // "After a restart": a new client and session, no discovery, an expired access token.
        let client = OAuthClient(issuer: signedIn.server.baseURL, clientID: "sdk-test")
        let session = AuthSession(store: FileTokenStore(directory: temporary.url), refresher: .oauth(client))
        #expect(await session.state() == .signedIn(subject: subject))
        let renewed = try await session.validAccessToken()
        #expect(renewed != tokens.accessToken)
        let stored = try #require(try FileTokenStore(directory: temporary.url).load())
        #expect(stored.subject == subject)
        #expect(stored.metadata == signedIn.metadata)
        #expect(try await signedIn.server.requestCount(route: "oauth_token", status: 200) == 2)

        // Without stored or configured metadata an OAuth session cannot refresh, and says why.
        let bare = AuthSession(
            store: InMemoryTokenStore(StoredTokens(accessToken: renewed, refreshToken: stored.refreshToken, expiresAt: Date())),
            refresher: .oauth(client))
        await #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["missing_metadata"])) {
            try await bare.validAccessToken()
        }
    }

    @Test("AuthSession refreshes at the token endpoint; data(for:) retries a GET once after a 401")
    func sessionOverOAuth() async throws {
        let signedIn = try await Self.signIn()
        defer { signedIn.server.stop() }
        let tokens = signedIn.client.storedTokens(signedIn.response, for: signedIn.request)
        // An access token the server does not accept, not yet expired: the API answers 401.
        let store = InMemoryTokenStore(StoredTokens(
            accessToken: ClientSecret("not-a-token"), refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt))
        let session = AuthSession(store: store, refresher: .oauth(signedIn.client, metadata: signedIn.metadata))
        let userinfo = try #require(signedIn.metadata.userinfoEndpoint)

        let (data, response) = try await session.data(for: URLRequest(url: userinfo))
        #expect(response.statusCode == 200)
        let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(body["email"] as? String == "jane@example.com")
        #expect(try await signedIn.server.requestCount(route: "oauth_token", status: 200) == 2)  // exchange + refresh
        #expect(try await signedIn.server.requestCount(route: "userinfo", status: 401) == 1)
        #expect(store.load()?.accessToken != ClientSecret("not-a-token"))
        #expect(store.load()?.refreshToken != tokens.refreshToken)

        // 50 concurrent callers with an expired token: one refresh at the token endpoint.
        let current = try #require(store.load())
        store.save(StoredTokens(accessToken: current.accessToken, refreshToken: current.refreshToken, expiresAt: Date()))
        let results = try await withThrowingTaskGroup(of: ClientSecret.self) { group in
            for _ in 0..<50 { group.addTask { try await session.validAccessToken() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1.exposed) }
        }
        #expect(results.count == 1)
        #expect(try await signedIn.server.requestCount(route: "oauth_token", status: 200) == 3)
        #expect(try await signedIn.server.requestCount(route: "oauth_token", status: 400) == 0)

        // Sign-out revokes the login: the last refresh token is refused afterwards.
        let last = try #require(store.load()?.refreshToken)
        try await session.signOut()
        let refused = await #expect(throws: LatchkeyClientError.self) {
            try await signedIn.client.refresh(last, metadata: signedIn.metadata)
        }
        #expect(refused?.code == .sessionExpired)
    }

    @Test("a callback for a forged state is refused before any code is redeemed")
    func forgedState() async throws {
        let server = try await LatchkeyServerProcess()
        defer { server.stop() }
        let client = OAuthClient(issuer: server.baseURL, clientID: "sdk-test")
        let request = try client.makeAuthorizationRequest(metadata: try await client.discover(), redirectURI: Self.redirectURI)
        let forged = URL(string: Self.redirectURI.absoluteString + "?code=stolen&state=forged&iss=" + server.baseURL.absoluteString)!
        await #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["state_mismatch"])) {
            try await client.completeSignIn(callback: forged, for: request)
        }
        #expect(try await server.requestCount(route: "oauth_token", status: 400) == 0)
    }
}
