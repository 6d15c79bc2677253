import Foundation
import LatchkeyCrypto
import LatchkeyJOSE
@testable import LatchkeyCore
@testable import LatchkeyHTTP
@testable import LatchkeyMail
@testable import LatchkeyWeb
@testable import LatchkeyServer
import Testing
import LatchkeyTestSupport

/// The authorization code flow through the router, in process: a browser (cookies, forms)
/// and a native app (PKCE, token endpoint), with a test clock.
@Suite struct OAuthFlowTests {
    static let password = "correct horse battery staple"
    static let redirect = "com.example.app:/oauth"
    /// A claimed https redirect (a universal link): the client's identity is assured.
    static let universalLink = "https://app.example.com/oauth"
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    /// RFC 7636 Appendix B: the S256 challenge of ``verifier``.
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    /// An application on a ManualClock with one account and a first-party public client.
    final class Harness: Sendable {
        let app: ServerApplication
        let clock = ManualClock()
        let clients: ClientRegistry
        let account: Account
        let logs = MemoryLogSink()

        init(_ extra: [String: String] = [:]) throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-oauth-\(UUID().uuidString)")
            var environment = ["LATCHKEY_DATA_DIR": directory.path, "LATCHKEY_LISTEN": "127.0.0.1:0",
                               "LATCHKEY_PUBLIC_URL": "https://auth.example.com"]
            environment.merge(extra) { $1 }
            app = try ServerApplication(
                configuration: try Configuration.load(environment: environment), logger: Logger(sink: logs), clock: clock)
            clients = ClientRegistry(store: app.store)
            account = try app.accounts.createAccount(email: "person@example.com", password: Redacted(OAuthFlowTests.password))
            _ = try clients.create(
                id: "ios-app", redirectURIs: [OAuthFlowTests.redirect, "http://127.0.0.1/callback", OAuthFlowTests.universalLink],
                confidential: false,
                firstParty: true, scopes: ["profile"], now: clock.now())
        }

        func get(_ path: String, _ query: [(String, String)], cookies: [String: String] = [:]) -> HTTPResponse {
            var headers = HTTPHeaders()
            if !cookies.isEmpty { headers.add("Cookie", cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")) }
            return app.router.handle(HTTPRequest(
                method: "GET", path: path, query: query.map { (name: $0.0, value: $0.1) }, headers: headers))
        }

        func post(_ path: String, _ form: [(String, String)], cookies: [String: String] = [:], headers extra: [(String, String)] = [])
            -> HTTPResponse
        {
            var headers = HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")] + extra)
            if !cookies.isEmpty { headers.add("Cookie", cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")) }
            return app.router.handle(HTTPRequest(method: "POST", path: path, headers: headers, body: Data(formEncode(form).utf8)))
        }

        /// Runs the browser part: authorize, sign in; returns the redirect's query parameters.
        func authorize(_ query: [(String, String)] = authorizationQuery()) throws -> [String: String] {
            let page = get("/oauth/authorize", query)
            #expect(page.status == 200)
            var cookies = setCookies(page)
            let response = signIn(on: page, cookies: &cookies)
            #expect(response.status == 303)
            return try redirectParameters(response)
        }

        /// Submits the sign-in form of `page` as person@example.com with the right password,
        /// with `cookies`, and adds the cookies the answer sets to them.
        func signIn(on page: HTTPResponse, cookies: inout [String: String]) -> HTTPResponse {
            let response = post(
                "/oauth/authorize", hiddenFields(page) + [("email", "person@example.com"), ("password", OAuthFlowTests.password)],
                cookies: cookies)
            cookies.merge(setCookies(response)) { $1 }
            return response
        }

        /// The cookies of a browser that opened the authorization page and signed in.
        func signedInBrowser() -> [String: String] {
            let page = get("/oauth/authorize", authorizationQuery())
            var cookies = setCookies(page)
            _ = signIn(on: page, cookies: &cookies)
            return cookies
        }

        /// Redeems `code` with the RFC 7636 verifier; returns the JSON body.
        func exchange(
            _ code: String, verifier: String = OAuthFlowTests.verifier, clientID: String = "ios-app",
            redirect: String = OAuthFlowTests.redirect
        ) throws -> (Int, [String: Any]) {
            let response = post("/oauth/token", [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect),
                ("code_verifier", verifier), ("client_id", clientID),
            ])
            #expect(response.headers["Cache-Control"] == "no-store")
            return (response.status, try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any]))
        }
    }

    static func authorizationQuery(
        redirect: String = redirect, extra: [(String, String)] = [], omit: Set<String> = []
    ) -> [(String, String)] {
        let base = [
            ("response_type", "code"), ("client_id", "ios-app"), ("redirect_uri", redirect), ("code_challenge", challenge),
            ("code_challenge_method", "S256"), ("state", "af0ifjsldkj"), ("scope", "openid email"), ("nonce", "n-0S6_WzA2Mj"),
        ]
        return base.filter { !omit.contains($0.0) } + extra
    }

    @Test("the code flow signs in with PKCE and returns an at+jwt, a refresh token and an ID token with the nonce")
    func codeFlow() throws {
        let harness = try Harness(["LATCHKEY_ACCESS_TOKEN_AUDIENCE": "https://api.example.com"])
        let parameters = try harness.authorize()
        #expect(parameters["state"] == "af0ifjsldkj")
        #expect(parameters["iss"] == "https://auth.example.com")
        let code = try #require(parameters["code"])
        #expect(code.count == 43)

        let (status, body) = try harness.exchange(code)
        #expect(status == 200)
        #expect(body["token_type"] as? String == "Bearer")
        #expect(body["expires_in"] as? Int == 600)
        #expect(body["scope"] as? String == "openid email")
        let access = try payload(try #require(body["access_token"] as? String), harness)
        #expect(access.header.typ == "at+jwt")
        #expect(access.claims["aud"] as? String == "https://api.example.com")
        #expect(access.claims["client_id"] as? String == "ios-app")
        #expect(access.claims["sub"] as? String == harness.account.id)
        let id = try payload(try #require(body["id_token"] as? String), harness)
        #expect(id.claims["aud"] as? String == "ios-app")
        #expect(id.claims["nonce"] as? String == "n-0S6_WzA2Mj")
        #expect(id.claims["email"] as? String == "person@example.com")
        #expect(id.claims["iss"] as? String == "https://auth.example.com")
        #expect(id.claims["amr"] as? [String] == ["pwd"])
        #expect(access.header.alg == .es256)
        #expect(id.header.alg == .rs256 && id.header.kid == harness.app.keyRing.activeKey(for: .rs256).kid)
    }

    @Test("ID tokens are signed with the algorithm the client is registered for; access tokens stay ES256",
          arguments: [JWSAlgorithm.rs256, .es256, .edDSA])
    func idTokenAlgorithmPerClient(algorithm: JWSAlgorithm) throws {
        let harness = try Harness()
        _ = try harness.clients.create(
            id: "alg-app", redirectURIs: [OAuthFlowTests.redirect], confidential: false, firstParty: true, scopes: [],
            idTokenAlgorithm: algorithm, now: harness.clock.now())
        let code = try #require(try harness.authorize(Self.authorizationQuery(extra: [("client_id", "alg-app")], omit: ["client_id"]))["code"])
        let (status, body) = try harness.exchange(code, clientID: "alg-app")
        #expect(status == 200)
        let id = try payload(try #require(body["id_token"] as? String), harness)
        #expect(id.header.alg == algorithm && id.header.typ == "JWT")
        #expect(id.header.kid == harness.app.keyRing.activeKey(for: algorithm).kid)
        #expect(id.claims["aud"] as? String == "alg-app")
        #expect(try payload(try #require(body["access_token"] as? String), harness).header.alg == .es256)
    }

    @Test("a code expires after 60 seconds")
    func expiredCode() throws {
        let harness = try Harness()
        let code = try #require(try harness.authorize()["code"])
        harness.clock.advance(by: 61)
        let (status, body) = try harness.exchange(code)
        #expect(status == 400)
        #expect(body["error"] as? String == "invalid_grant")
    }

    @Test("a wrong PKCE verifier is invalid_grant and spends the code")
    func wrongVerifier() throws {
        let harness = try Harness()
        let code = try #require(try harness.authorize()["code"])
        let (status, body) = try harness.exchange(code, verifier: String(repeating: "x", count: 43))
        #expect(status == 400)
        #expect(body["error"] as? String == "invalid_grant")
        #expect(try harness.exchange(code).0 == 400)
    }

    @Test("a replayed code is invalid_grant and revokes the tokens issued from it")
    func replayedCode() throws {
        let harness = try Harness()
        let code = try #require(try harness.authorize()["code"])
        let (_, first) = try harness.exchange(code)
        let access = try #require(first["access_token"] as? String)
        let refresh = try #require(first["refresh_token"] as? String)
        #expect(try harness.app.tokens.verifyAccessToken(Redacted(access)) != nil)

        let (status, replay) = try harness.exchange(code)
        #expect(status == 400)
        #expect(replay["error"] as? String == "invalid_grant")
        #expect(try harness.app.tokens.verifyAccessToken(Redacted(access)) == nil)
        let refreshed = harness.post("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "ios-app")])
        #expect(refreshed.status == 400)
    }

    @Test("a reused refresh token is logged as a replay, without the token, and ends the login")
    func refreshReuseLogged() throws {
        let harness = try Harness()
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let first = try #require(body["refresh_token"] as? String)
        let refresh = { (token: String) in
            harness.post("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "ios-app")])
        }
        let rotated = refresh(first)
        let second = try #require(try JSONSerialization.jsonObject(with: rotated.body) as? [String: Any])["refresh_token"] as? String
        harness.clock.advance(by: 11)  // past the reuse grace
        #expect(refresh(first).status == 400)
        #expect(refresh(try #require(second)).status == 400)
        let warnings = harness.logs.lines.filter { $0.contains("token_replay_detected") }
        #expect(warnings.count == 1)
        #expect(warnings.allSatisfy { $0.contains("refresh_token_reused") && !$0.contains(first) })
        #expect(harness.logs.lines.allSatisfy { !$0.contains(first) && !$0.contains(OAuthFlowTests.verifier) })
    }

    @Test("without S256 PKCE, or with a repeated parameter, the client is told invalid_request through its redirect URI")
    func pkceRequired() throws {
        let harness = try Harness()
        for query in [
            Self.authorizationQuery(omit: ["code_challenge", "code_challenge_method"]),
            Self.authorizationQuery(omit: ["code_challenge_method"]),
            Self.authorizationQuery(omit: ["code_challenge_method"]) + [("code_challenge_method", "plain")],
            Self.authorizationQuery() + [("scope", "profile")],
        ] {
            let response = harness.get("/oauth/authorize", query)
            #expect(response.status == 303)
            let parameters = try redirectParameters(response)
            #expect(parameters["error"] == "invalid_request")
            #expect(parameters["state"] == "af0ifjsldkj")
            #expect(parameters["iss"] == "https://auth.example.com")
        }
    }

    @Test("an unknown client or an unregistered redirect URI gets an error page, never a redirect")
    func noOpenRedirect() throws {
        let harness = try Harness()
        let attempts = [
            Self.authorizationQuery(redirect: "https://evil.example/callback"),
            Self.authorizationQuery(redirect: "com.example.app:/oauth/extra"),
            Self.authorizationQuery(redirect: "com.example.app:/oauth?next=https://evil.example"),
            Self.authorizationQuery(redirect: "http://127.0.0.1@evil.example/callback"),
            Self.authorizationQuery(redirect: "http://localhost/callback"),
            Self.authorizationQuery(omit: ["redirect_uri"]),
            Self.authorizationQuery(omit: ["client_id"]),
            Self.authorizationQuery().map { $0.0 == "client_id" ? ("client_id", "unknown-app") : $0 },
            Self.authorizationQuery() + [("redirect_uri", "https://evil.example/callback")],
        ]
        for query in attempts {
            let response = harness.get("/oauth/authorize", query)
            #expect(response.status == 400)
            #expect(response.headers["Location"] == nil)
            #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == true)
        }
        let loopback = harness.get("/oauth/authorize", Self.authorizationQuery(redirect: "http://127.0.0.1:53011/callback"))
        #expect(loopback.status == 200)
    }

    @Test("a server-side failure behind the sign-in form shows a page asking to try again later, in the person's language, never the failure's message")
    func serverFailurePageHidesInternals() throws {
        // Nothing listens on port 1: every sign-in fails with rate_limiter_unavailable,
        // whose message names Redis's address.
        let harness = try Harness(["LATCHKEY_REDIS_URL": "redis://127.0.0.1:1/0"])
        let page = harness.get("/oauth/authorize", Self.authorizationQuery())
        let fields = hiddenFields(page) + [("email", "person@example.com"), ("password", Self.password)]
        for language in [SupportedLanguage.en, .es] {
            let response = harness.post(
                "/oauth/authorize", fields, cookies: setCookies(page), headers: [("Accept-Language", language.rawValue)])
            #expect(response.status == 503)
            #expect(response.headers["Retry-After"] == "5")
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(text.contains(language.catalogue.signInPage.tryAgainLater.htmlEscaped))
            #expect(!text.contains("Redis") && !text.contains("127.0.0.1:1"))
            #expect(!text.contains(language.catalogue.signInPage.invalidRequest.htmlEscaped))
        }
    }

    @Test("the sign-in form without its CSRF token, or with another browser's, is refused with 403 and no session")
    func csrf() throws {
        let harness = try Harness()
        let page = harness.get("/oauth/authorize", Self.authorizationQuery())
        let cookies = setCookies(page)
        let fields = hiddenFields(page) + [("email", "person@example.com"), ("password", Self.password)]
        let otherBrowser = setCookies(harness.get("/oauth/authorize", Self.authorizationQuery()))

        for (form, jar) in [
            (fields.filter { $0.0 != "csrf_token" }, cookies),
            (fields, [:]),
            (fields, otherBrowser),
            (fields.map { $0.0 == "csrf_token" ? ("csrf_token", "forged") : $0 }, cookies),
        ] {
            let response = harness.post("/oauth/authorize", form, cookies: jar)
            #expect(response.status == 403)
            #expect(response.headers.values("Set-Cookie").allSatisfy { !$0.hasPrefix("latchkey_session=") })
            #expect(response.headers["Location"] == nil)
        }
        #expect(harness.post("/oauth/authorize", fields, cookies: cookies).status == 303)
    }

    @Test("wrong credentials show the form again with one message for every cause")
    func wrongCredentials() throws {
        let harness = try Harness()
        let page = harness.get("/oauth/authorize", Self.authorizationQuery())
        let cookies = setCookies(page)
        let hidden = hiddenFields(page)
        let bodies = [("person@example.com", "wrong password entirely"), ("nobody@example.com", Self.password)].map { email, password in
            let response = harness.post("/oauth/authorize", hidden + [("email", email), ("password", password)], cookies: cookies)
            #expect(response.status == 401)
            return String(decoding: response.body, as: UTF8.self).replacingOccurrences(of: email, with: "")
        }
        #expect(bodies[0] == bodies[1])
        #expect(bodies[0].contains(SupportedLanguage.en.catalogue.signInPage.invalidCredentials))
    }

    @Test("a signed-in browser gets a code at once for a claimed https redirect, but must confirm for a private-use scheme; prompt=login asks again; prompt=none without a session is login_required")
    func prompts() throws {
        let harness = try Harness()
        let page = harness.get("/oauth/authorize", Self.authorizationQuery())
        var cookies = setCookies(page)
        #expect(page.headers.values("Set-Cookie").contains { $0.hasPrefix("__Host-latchkey_csrf=") && $0.contains("Path=/;") && $0.contains("Secure") })
        _ = harness.signIn(on: page, cookies: &cookies)
        #expect(cookies["__Host-latchkey_session"] != nil)

        let again = harness.get("/oauth/authorize", Self.authorizationQuery(redirect: Self.universalLink), cookies: cookies)
        #expect(try redirectParameters(again)["code"] != nil)
        // Any app can claim com.example.app: — a reused session only gets a code after a click (RFC 8252 §8.6).
        let impersonable = harness.get("/oauth/authorize", Self.authorizationQuery(), cookies: cookies)
        #expect(impersonable.status == 200)
        #expect(hiddenFields(impersonable).contains { $0.0 == "step" && $0.1 == "consent" })
        let confirmed = harness.post("/oauth/authorize", hiddenFields(impersonable) + [("decision", "allow")], cookies: cookies)
        #expect(try redirectParameters(confirmed)["code"] != nil)
        let interaction = harness.get("/oauth/authorize", Self.authorizationQuery(extra: [("prompt", "none")]), cookies: cookies)
        #expect(try redirectParameters(interaction)["error"] == "interaction_required")

        let login = harness.get("/oauth/authorize", Self.authorizationQuery(extra: [("prompt", "login")]), cookies: cookies)
        #expect(login.status == 200)
        #expect(hiddenFields(login).contains { $0.0 == "step" && $0.1 == "sign_in" })

        let none = harness.get("/oauth/authorize", Self.authorizationQuery(redirect: Self.universalLink, extra: [("prompt", "none")]))
        #expect(try redirectParameters(none)["error"] == "login_required")
        let silent = harness.get(
            "/oauth/authorize", Self.authorizationQuery(redirect: Self.universalLink, extra: [("prompt", "none")]), cookies: cookies)
        #expect(try redirectParameters(silent)["code"] != nil)
    }

    @Test("signing in again (prompt=login) ends the browser's previous session: its old cookie no longer gets a code")
    func signingInAgainEndsThePreviousSession() throws {
        let harness = try Harness()
        var cookies = harness.signedInBrowser()
        let previous = try #require(cookies["__Host-latchkey_session"])

        let login = harness.get("/oauth/authorize", Self.authorizationQuery(extra: [("prompt", "login")]), cookies: cookies)
        _ = harness.signIn(on: login, cookies: &cookies)
        let current = try #require(cookies["__Host-latchkey_session"])
        #expect(current != previous)

        let silent = Self.authorizationQuery(redirect: Self.universalLink, extra: [("prompt", "none")])
        var withPrevious = cookies
        withPrevious["__Host-latchkey_session"] = previous
        #expect(try redirectParameters(harness.get("/oauth/authorize", silent, cookies: withPrevious))["error"] == "login_required")
        #expect(try redirectParameters(harness.get("/oauth/authorize", silent, cookies: cookies))["code"] != nil)
    }

    @Test("a client that is not first-party needs consent: deny is access_denied, allow gives a code")
    func consent() throws {
        let harness = try Harness()
        _ = try harness.clients.create(
            id: "partner", redirectURIs: ["https://partner.example/cb"], confidential: false, firstParty: false, scopes: [],
            now: harness.clock.now())
        let query = Self.authorizationQuery(redirect: "https://partner.example/cb").map { $0.0 == "client_id" ? ("client_id", "partner") : $0 }
        let page = harness.get("/oauth/authorize", query)
        var cookies = setCookies(page)
        let consentPage = harness.post(
            "/oauth/authorize", hiddenFields(page) + [("email", "person@example.com"), ("password", Self.password)], cookies: cookies)
        #expect(consentPage.status == 200)
        #expect(String(decoding: consentPage.body, as: UTF8.self).contains("partner"))
        #expect(consentPage.headers["Content-Security-Policy"]?.contains("form-action 'self' https://partner.example") == true)
        cookies.merge(setCookies(consentPage)) { $1 }

        let denied = harness.post("/oauth/authorize", hiddenFields(consentPage) + [("decision", "deny")], cookies: cookies)
        #expect(try redirectParameters(denied)["error"] == "access_denied")
        let allowed = harness.post("/oauth/authorize", hiddenFields(consentPage) + [("decision", "allow")], cookies: cookies)
        #expect(try redirectParameters(allowed)["code"] != nil)
    }

    @Test("a refresh token works only for its own client and is not consumed by another")
    func refreshBoundToClient() throws {
        let harness = try Harness()
        _ = try harness.clients.create(
            id: "other-app", redirectURIs: ["com.example.other:/cb"], confidential: false, firstParty: true, scopes: [],
            now: harness.clock.now())
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let refresh = try #require(body["refresh_token"] as? String)
        let stolen = harness.post("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "other-app")])
        #expect(stolen.status == 400)
        let directus = harness.app.router.handle(jsonRequest("/auth/refresh", #"{"refresh_token":"\#(refresh)"}"#))
        #expect(directus.status == 401)
        let own = harness.post("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "ios-app")])
        #expect(own.status == 200)
    }

    @Test("the token endpoint refuses repeated parameters, other grants and non-form bodies in OAuth's error shape")
    func tokenEndpointErrors() throws {
        let harness = try Harness()
        let cases: [(HTTPResponse, Int, String)] = [
            (harness.post("/oauth/token", [("grant_type", "refresh_token"), ("grant_type", "refresh_token"), ("client_id", "ios-app")]), 400, "invalid_request"),
            (harness.post("/oauth/token", [("grant_type", "password"), ("client_id", "ios-app"), ("username", "a"), ("password", "b")]), 400, "unsupported_grant_type"),
            (harness.post("/oauth/token", [("grant_type", "authorization_code"), ("client_id", "nobody")]), 401, "invalid_client"),
            (harness.app.router.handle(jsonRequest("/oauth/token", #"{"grant_type":"refresh_token"}"#)), 400, "invalid_request"),
        ]
        for (response, status, error) in cases {
            #expect(response.status == status)
            let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(body["error"] as? String == error)
            #expect(response.headers["Cache-Control"] == "no-store")
        }
    }

    @Test("a confidential client must authenticate with exactly one method; introspection requires it")
    func confidentialClients() throws {
        let harness = try Harness()
        let (_, secret) = try harness.clients.create(
            id: "backend", redirectURIs: ["https://backend.example/cb"], confidential: true, firstParty: true, scopes: [],
            introspect: true, now: harness.clock.now())
        let secretValue = try #require(secret).exposed
        let basic = "Basic " + Data("backend:\(secretValue)".utf8).base64EncodedString()
        let wrongBasic = "Basic " + Data("backend:wrong".utf8).base64EncodedString()
        let token = [("token", "not-a-token")]

        #expect(harness.post("/oauth/introspect", token, headers: [("Authorization", basic)]).status == 200)
        #expect(harness.post("/oauth/introspect", token + [("client_id", "backend"), ("client_secret", secretValue)]).status == 200)
        let wrong = harness.post("/oauth/introspect", token, headers: [("Authorization", wrongBasic)])
        #expect(wrong.status == 401)
        #expect(wrong.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
        #expect(harness.post("/oauth/introspect", token + [("client_id", "backend")]).status == 401)
        #expect(harness.post("/oauth/introspect", token + [("client_id", "ios-app")]).status == 401)
        #expect(harness.post(
            "/oauth/introspect", token + [("client_id", "backend"), ("client_secret", secretValue)],
            headers: [("Authorization", basic)]).status == 400)
    }

    @Test("only resource servers introspect; they never see another client's refresh token as active")
    func introspectionIsForResourceServers() throws {
        let harness = try Harness()
        let (_, secret) = try harness.clients.create(
            id: "web", redirectURIs: ["https://web.example/cb"], confidential: true, firstParty: true, scopes: [],
            now: harness.clock.now())
        let basic = "Basic " + Data("web:\(try #require(secret).exposed)".utf8).base64EncodedString()
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let refused = harness.post("/oauth/introspect", [("token", try #require(body["access_token"] as? String))], headers: [("Authorization", basic)])
        #expect(refused.status == 403)
        let error = try #require(try JSONSerialization.jsonObject(with: refused.body) as? [String: Any])
        #expect(error["error"] as? String == "unauthorized_client")
        #expect(throws: LatchkeyError.self) {
            try harness.clients.create(
                id: "public-api", redirectURIs: ["https://api.example/cb"], confidential: false, firstParty: true, scopes: [],
                introspect: true, now: harness.clock.now())
        }
    }

    @Test("introspection says only active:false for a token whose login ended or whose account was disabled")
    func introspection() throws {
        let harness = try Harness()
        let (_, secret) = try harness.clients.create(
            id: "api", redirectURIs: ["https://api.example/cb"], confidential: true, firstParty: true, scopes: [],
            introspect: true, now: harness.clock.now())
        let apiSecret = try #require(secret)
        let basic = "Basic " + Data("api:\(apiSecret.exposed)".utf8).base64EncodedString()
        func introspect(_ token: String) throws -> [String: Any] {
            let response = harness.post("/oauth/introspect", [("token", token)], headers: [("Authorization", basic)])
            return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        }
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let access = try #require(body["access_token"] as? String)
        let refresh = try #require(body["refresh_token"] as? String)
        let active = try introspect(access)
        #expect(active["active"] as? Bool == true)
        #expect(active["sub"] as? String == harness.account.id)
        #expect(active["client_id"] as? String == "ios-app")
        // Another client's refresh token is never active to a resource server (issue 11).
        #expect(try introspect(refresh) as NSDictionary == ["active": false])

        try harness.app.accounts.disable(email: "person@example.com")
        for token in [access, refresh, "garbage"] {
            let inactive = try introspect(token)
            #expect(inactive.count == 1)
            #expect(inactive["active"] as? Bool == false)
        }
    }

    @Test("an access token with alg none, signed by another key under our kid, or expired does not verify")
    func forgedAccessTokens() throws {
        let harness = try Harness()
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let access = try #require(body["access_token"] as? String)
        let parts = access.split(separator: ".")
        let kid = harness.app.keyRing.activeKey.kid

        let noneHeader = Base64URL.encode(Data(#"{"alg":"none","kid":"\#(kid)","typ":"at+jwt"}"#.utf8))
        let unsigned = "\(noneHeader).\(parts[1])."
        let attacker = try SigningKey.generate(.es256)
        let forged = try JWS.sign(
            header: JWSHeader(alg: .es256, kid: kid, typ: "at+jwt"), payload: try #require(Base64URL.decode(String(parts[1]))),
            key: attacker)
        for token in [unsigned, forged] {
            #expect(try harness.app.tokens.verifyAccessToken(Redacted(token)) == nil)
            let userinfo = harness.app.router.handle(HTTPRequest(
                method: "GET", path: "/userinfo", headers: HTTPHeaders([("Authorization", "Bearer \(token)")])))
            #expect(userinfo.status == 401)
            #expect(userinfo.headers["WWW-Authenticate"]?.contains("invalid_token") == true)
        }
        let valid = harness.app.router.handle(HTTPRequest(
            method: "GET", path: "/userinfo", headers: HTTPHeaders([("Authorization", "Bearer \(access)")])))
        #expect(valid.status == 200)
        harness.clock.advance(by: 601)
        #expect(try harness.app.tokens.verifyAccessToken(Redacted(access)) == nil)
    }

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
        #expect(try JSONSerialization.jsonObject(with: inBody.body) as? [String: String] == ["sub": harness.account.id, "email": "person@example.com"])

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
        for body in [#"a"x=1&a"x=2"#, #"a\x=1&a\x=2"#] {
            let response = harness.app.router.handle(HTTPRequest(
                method: "POST", path: "/userinfo", headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
                body: Data(body.utf8)))
            #expect(response.status == 400)
            #expect(response.headers["WWW-Authenticate"] == #"Bearer error="invalid_request""#)
            let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: String])
            #expect(json["error_description"]?.contains(String(body.prefix(3))) == true)
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

    @Test("hostile input to the OAuth endpoints gets a 4xx, never a 5xx")
    func hostileInputIsClientError() throws {
        let harness = try Harness()
        let long = String(repeating: "a", count: 5000)
        let authorizations: [[(String, String)]] = [
            [], [("client_id", "ios-app")], [("client_id", "../etc"), ("redirect_uri", "x")],
            Self.authorizationQuery(redirect: "http://127.0.0.1:99999/callback"),
            Self.authorizationQuery(redirect: "http://127.0.0.1:1/callback\r\nSet-Cookie: x=y"),
            Self.authorizationQuery(extra: [("state", long), ("nonce", long), ("login_hint", long), ("ui_locales", long)]),
            Self.authorizationQuery(extra: [("max_age", "99999999999999999999"), ("prompt", "none login")]),
            Self.authorizationQuery(extra: [("scope", "\u{0}\u{FFFF} openid")]),
            Self.authorizationQuery(extra: Array(repeating: ("x", "y"), count: 40)),
        ]
        for query in authorizations {
            let response = harness.get("/oauth/authorize", query, cookies: ["latchkey_session": long, "latchkey_csrf": "\u{7F}"])
            #expect(response.status < 500)
            #expect(response.headers["Location"].map { !$0.contains("\r") && !$0.contains("\n") } ?? true)
        }
        let bodies: [[(String, String)]] = [
            [("grant_type", "authorization_code"), ("client_id", "ios-app"), ("code", long)],
            [("grant_type", "authorization_code"), ("client_id", "ios-app"), ("code", "x"), ("redirect_uri", "y"), ("code_verifier", long)],
            [("grant_type", "refresh_token"), ("client_id", "ios-app"), ("refresh_token", long), ("scope", long)],
            [("grant_type", "refresh_token"), ("client_id", long), ("refresh_token", "x")],
            [("token", String(repeating: "e", count: 20_000)), ("client_id", "ios-app")],
            [("token", "a.b.c"), ("client_id", "ios-app")],
        ]
        let authorizationHeaders = ["Basic", "Basic ", "Basic !!!", "Basic " + Data(":".utf8).base64EncodedString(),
                                    "Basic " + Data("%zz:%zz".utf8).base64EncodedString(), "Basic " + long, "Bearer x"]
        for path in ["/oauth/token", "/oauth/revoke", "/oauth/introspect", "/oauth/authorize"] {
            for body in bodies {
                #expect(harness.post(path, body).status < 500)
                for header in authorizationHeaders {
                    #expect(harness.post(path, body, headers: [("Authorization", header)]).status < 500)
                }
            }
        }
        for header in ["Bearer", "Bearer ", "Bearer " + long, "bearer a.b.c"] {
            let response = harness.app.router.handle(HTTPRequest(method: "GET", path: "/userinfo", headers: HTTPHeaders([("Authorization", header)])))
            #expect(response.status == 401)
        }
    }

    @Test("the metadata advertises exactly what is implemented")
    func metadata() throws {
        let harness = try Harness()
        for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
            let response = harness.get(path, [])
            let document = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(document["issuer"] as? String == "https://auth.example.com")
            #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(document["response_types_supported"] as? [String] == ["code"])
            #expect(document["grant_types_supported"] as? [String] == ["authorization_code", "refresh_token"])
            #expect(document["authorization_response_iss_parameter_supported"] as? Bool == true)
            // Request objects are not supported; request_uri_parameter_supported defaults to true when absent.
            #expect(document["request_uri_parameter_supported"] as? Bool == false)
            #expect(document["request_parameter_supported"] as? Bool == false)
            for key in ["authorization_endpoint", "token_endpoint", "revocation_endpoint", "introspection_endpoint", "userinfo_endpoint", "jwks_uri"] {
                let text = try #require(document[key] as? String)
                let url = try #require(URL(string: text))
                #expect(harness.app.router.routes.contains { $0.path == url.path })
            }
        }
    }

    @Test("prompt=consent shows the consent page after the sign-in form, even for a first-party client")
    func promptConsentSurvivesSignIn() throws {
        let harness = try Harness()
        for prompt in ["consent", "login consent"] {
            let page = harness.get("/oauth/authorize", Self.authorizationQuery(extra: [("prompt", prompt)]))
            #expect(page.status == 200)
            let afterSignIn = harness.post(
                "/oauth/authorize", hiddenFields(page) + [("email", "person@example.com"), ("password", Self.password)],
                cookies: setCookies(page))
            #expect(afterSignIn.status == 200)
            #expect(afterSignIn.headers["Location"] == nil)
            #expect(hiddenFields(afterSignIn).contains { $0.0 == "step" && $0.1 == "consent" })
        }
    }

    @Test("max_age older than the sign-in asks for the password again (prompt=none: login_required); a bad max_age is invalid_request")
    func maxAge() throws {
        let harness = try Harness()
        let cookies = harness.signedInBrowser()
        harness.clock.advance(by: 120)

        let recent = harness.get("/oauth/authorize", Self.authorizationQuery(redirect: Self.universalLink, extra: [("max_age", "300")]), cookies: cookies)
        #expect(try redirectParameters(recent)["code"] != nil)
        let silent = harness.get(
            "/oauth/authorize", Self.authorizationQuery(redirect: Self.universalLink, extra: [("max_age", "60"), ("prompt", "none")]), cookies: cookies)
        #expect(try redirectParameters(silent)["error"] == "login_required")
        for bad in ["-1", "abc", "1e3"] {
            let malformed = harness.get("/oauth/authorize", Self.authorizationQuery(redirect: Self.universalLink, extra: [("max_age", bad)]), cookies: cookies)
            #expect(try redirectParameters(malformed)["error"] == "invalid_request")
        }

        let stale = harness.get("/oauth/authorize", Self.authorizationQuery(redirect: Self.universalLink, extra: [("max_age", "60")]), cookies: cookies)
        #expect(stale.status == 200)
        #expect(hiddenFields(stale).contains { $0.0 == "step" && $0.1 == "sign_in" })
        let reauthenticated = harness.post(
            "/oauth/authorize", hiddenFields(stale) + [("email", "person@example.com"), ("password", Self.password)], cookies: cookies)
        let (_, body) = try harness.exchange(
            try #require(try redirectParameters(reauthenticated)["code"]), redirect: Self.universalLink)
        let id = try payload(try #require(body["id_token"] as? String), harness)
        #expect(id.claims["auth_time"] as? Int == Int(harness.clock.now().timeIntervalSince1970))
    }

    @Test("the consent form of a max_age request asks for the password again when the session is older")
    func maxAgeAtConsent() throws {
        let harness = try Harness()
        _ = try harness.clients.create(
            id: "partner", redirectURIs: ["https://partner.example/cb"], confidential: false, firstParty: false, scopes: [],
            now: harness.clock.now())
        let query = Self.authorizationQuery(redirect: "https://partner.example/cb", extra: [("max_age", "60")])
            .map { $0.0 == "client_id" ? ("client_id", "partner") : $0 }
        let page = harness.get("/oauth/authorize", query)
        var cookies = setCookies(page)
        let consentPage = harness.signIn(on: page, cookies: &cookies)
        #expect(hiddenFields(consentPage).contains { $0.0 == "step" && $0.1 == "consent" })
        harness.clock.advance(by: 120)
        let late = harness.post("/oauth/authorize", hiddenFields(consentPage) + [("decision", "allow")], cookies: cookies)
        #expect(late.status == 200)
        #expect(hiddenFields(late).contains { $0.0 == "step" && $0.1 == "sign_in" })
    }

    @Test("a request object, request_uri or a response_mode other than query is refused through the redirect, not ignored")
    func unsupportedRequestParameters() throws {
        let harness = try Harness()
        let cases = [
            ("request", "eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im9wZW5pZCJ9.", "request_not_supported"),
            ("request_uri", "urn:ietf:params:oauth:request_uri:x", "request_uri_not_supported"),
            ("response_mode", "form_post", "invalid_request"), ("response_mode", "fragment", "invalid_request"),
        ]
        for (name, value, error) in cases {
            let response = harness.get("/oauth/authorize", Self.authorizationQuery(extra: [(name, value)]))
            #expect(try redirectParameters(response)["error"] == error)
        }
        #expect(harness.get("/oauth/authorize", Self.authorizationQuery(extra: [("response_mode", "query")])).status == 200)
    }

    @Test("form-action allows the redirect for every kind of redirect URI, IPv6 literals by scheme (CSP cannot name them)")
    func formActionPerRedirectKind() {
        func formAction(_ redirect: String) -> String? {
            SignInPage.contentSecurityPolicy(redirectURI: redirect).split(separator: ";")
                .first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("form-action") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(formAction("com.example.app:/oauth") == "form-action 'self' com.example.app:")
        #expect(formAction("http://127.0.0.1/callback") == "form-action 'self' http://127.0.0.1:*")
        #expect(formAction("https://partner.example:8443/cb?x=1") == "form-action 'self' https://partner.example:8443")
        #expect(formAction("https://partner.example/cb") == "form-action 'self' https://partner.example")
        #expect(formAction("http://[::1]/callback") == "form-action 'self' http:")
        #expect(formAction("https://[2001:db8::1]/cb") == "form-action 'self' https:")
    }
}

// MARK: Browser helpers

func formEncode(_ fields: [(String, String)]) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return fields.map {
        "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
    }.joined(separator: "&")
}

/// The cookies a response sets, by name.
func setCookies(_ response: HTTPResponse) -> [String: String] {
    var cookies: [String: String] = [:]
    for header in response.headers.values("Set-Cookie") {
        let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
        if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
    }
    return cookies
}

/// The hidden inputs of the page's form, unescaped.
func hiddenFields(_ response: HTTPResponse) -> [(String, String)] {
    let html = String(decoding: response.body, as: UTF8.self)
    let pattern = try! Regex(#"<input type="hidden" name="([^"]*)" value="([^"]*)">"#)
    return html.matches(of: pattern).compactMap { match in
        guard let name = match.output[1].substring, let value = match.output[2].substring else { return nil }
        return (unescape(String(name)), unescape(String(value)))
    }
}

private func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
        .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&amp;", with: "&")
}

/// The query parameters of a 303's Location.
func redirectParameters(_ response: HTTPResponse) throws -> [String: String] {
    #expect(response.status == 303)
    let location = try #require(response.headers["Location"])
    let components = try #require(URLComponents(string: location))
    return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
}

/// The header and claims of a compact JWS, verified against the application's published keys.
func payload(_ token: String, _ harness: OAuthFlowTests.Harness) throws -> (header: JWSHeader, claims: [String: Any]) {
    let keys = try harness.app.keyRing.servedKeySet(now: harness.clock.now()).keys.map { try VerificationKey(jwk: $0) }
    let verified = try JWS.verify(compact: token, keys: keys)
    return (verified.header, try #require(try JSONSerialization.jsonObject(with: verified.payload) as? [String: Any]))
}
