import Foundation
import LatchkeyCrypto
import LatchkeyJOSE
@testable import LatchkeyCore
@testable import LatchkeyHTTP
@testable import LatchkeyServer
import LatchkeyOAuthTestSupport
import Testing
import LatchkeyTestSupport

/// The authorization code flow through the router, in process: a browser (cookies, forms)
/// and a native app (PKCE, token endpoint), with a test clock. The flow itself is here; the
/// authorization endpoint, the token endpoint and /userinfo are in the files named after them.
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
}

// MARK: Browser helpers

/// `fields` as an application/x-www-form-urlencoded body.
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
