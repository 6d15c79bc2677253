import Foundation
import LatchkeyCrypto
@testable import LatchkeyCore
import LatchkeyHTTP
@testable import LatchkeyServer
import LatchkeyTestSupport
import LatchkeyWeb
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// The passkey step of the `/oauth/authorize` sign-in page through the router, with the
/// software authenticator standing for the browser: what the page offers, a passkey that signs
/// in (both factors, no code step), and what each refusal looks like.
@Suite struct PasskeySignInPageTests {
    /// An OAuth harness whose public URL is the software authenticator's relying party.
    private func harness(_ extra: [String: String] = [:]) throws -> OAuthFlowTests.Harness {
        try OAuthFlowTests.Harness(["LATCHKEY_PUBLIC_URL": "https://example.com"].merging(extra) { $1 })
    }

    /// The router's answer to a JSON request, with `token` as its bearer token.
    private func call(_ harness: OAuthFlowTests.Harness, _ path: String, token: String? = nil, body: String = "{}") -> HTTPResponse {
        var headers = HTTPHeaders([("Content-Type", "application/json")])
        if let token { headers.add("Authorization", "Bearer " + token) }
        return harness.app.router.handle(HTTPRequest(method: "POST", path: path, headers: headers, body: Data(body.utf8)))
    }

    private func json(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    /// `data.public_key` of an options answer.
    private func publicKey(_ response: HTTPResponse) throws -> [String: Any] {
        #expect(response.status == 200)
        return try #require((try json(response)["data"] as? [String: Any])?["public_key"] as? [String: Any])
    }

    /// A first-party access token for person@example.com, from `/auth/login` (and `otp`).
    private func accessToken(_ harness: OAuthFlowTests.Harness, otp: String? = nil) throws -> String {
        let body = #"{"email":"person@example.com","password":"\#(OAuthFlowTests.password)"\#(otp.map { #","otp":"\#($0)""# } ?? "")}"#
        let data = try #require(try json(call(harness, "/auth/login", body: body))["data"] as? [String: Any])
        return try #require(data["access_token"] as? String)
    }

    /// Registers a new passkey for person@example.com through the routes.
    private func registerPasskey(_ harness: OAuthFlowTests.Harness, token: String) throws -> SoftwareAuthenticator {
        let options = try publicKey(call(harness, "/auth/passkeys/registration/options", token: token))
        let handle = try #require(Base64URL.decode((options["user"] as? [String: Any])?["id"] as? String ?? ""))
        let authenticator = SoftwareAuthenticator(algorithm: .es256, userHandle: handle)
        let ceremony = SoftwareAuthenticator.Ceremony(challenge: try #require(Base64URL.decode(options["challenge"] as? String ?? "")))
        let credential = String(decoding: authenticator.register(ceremony).json, as: UTF8.self)
        #expect(call(harness, "/auth/passkeys/registration/verify", token: token, body: #"{"credential":\#(credential)}"#).status == 201)
        return authenticator
    }

    /// What the page's script posts for `authenticator` after asking for a challenge, with
    /// `change` made to the ceremony: the credential's JSON text.
    private func assertion(
        _ harness: OAuthFlowTests.Harness, _ authenticator: SoftwareAuthenticator,
        change: (inout SoftwareAuthenticator.Ceremony) -> Void = { _ in }
    ) throws -> String {
        let options = try publicKey(call(harness, "/auth/passkeys/authentication/options"))
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: try #require(Base64URL.decode(options["challenge"] as? String ?? "")))
        change(&ceremony)
        return String(decoding: authenticator.authenticate(ceremony).json, as: UTF8.self)
    }

    /// Posts `credential` as the passkey step of `page` (its hidden fields with `step=passkey`),
    /// as the script does, with `cookies`.
    private func postPasskey(
        _ harness: OAuthFlowTests.Harness, page: HTTPResponse, credential: String?, cookies: [String: String],
        formToken: String? = nil
    ) -> HTTPResponse {
        var fields = hiddenFields(page).filter { $0.0 != "step" } + [("step", "passkey")]
        if let formToken { fields = fields.map { $0.0 == "csrf_token" ? ($0.0, formToken) : $0 } }
        if let credential { fields.append(("credential", credential)) }
        return harness.post("/oauth/authorize", fields, cookies: cookies)
    }

    private func text(_ response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    @Test("the sign-in page offers the passkey through this origin's script, under a CSP without inline scripts")
    func pageOffersPasskeys() throws {
        let harness = try harness()
        let page = harness.get("/oauth/authorize", OAuthFlowTests.authorizationQuery())
        #expect(page.status == 200)
        let html = text(page)
        let csp = try #require(page.headers["Content-Security-Policy"])
        #expect(csp.contains("default-src 'none'; script-src 'self'; connect-src 'self';"))
        #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"))
        #expect(html.contains(#"<script src="/assets/passkey-sign-in.js"></script>"#))
        // Every other script is a JSON data block, which browsers do not run.
        #expect(html.components(separatedBy: "<script").count == 3)
        #expect(html.contains(#"<script type="application/json" id="passkey-messages">"#))
        #expect(html.contains(#"autocomplete="username webauthn""#))
        // Without the script the button stays hidden: the password form works alone.
        #expect(html.contains(#"<div id="passkey" hidden>"#))
        #expect(html.contains(">Sign in with a passkey</button>"))
        // The other pages of the flow have no script, and their CSP allows none.
        let errorPage = harness.get("/oauth/authorize", OAuthFlowTests.authorizationQuery(extra: [("client_id", "unknown")], omit: ["client_id"]))
        #expect(errorPage.status == 400 && errorPage.headers["Content-Security-Policy"]?.contains("script-src") == false)
        #expect(!text(errorPage).contains("<script"))
        let script = harness.get("/assets/passkey-sign-in.js", [])
        #expect(script.status == 200 && script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        let source = text(script)
        #expect(source.contains("/auth/passkeys/authentication/options") && source.contains(#"mediation: "conditional""#))
        for forbidden in ["eval(", "Function(", "innerHTML", "localStorage", "sessionStorage", "document.cookie"] {
            #expect(!source.contains(forbidden), "the script uses \(forbidden)")
        }
    }

    @Test("a passkey signs in on the page: a code whose tokens say hwk and user, and no code step for an account with one")
    func passkeySignsIn() throws {
        let harness = try harness()
        let authenticator = try registerPasskey(harness, token: try accessToken(harness))
        let page = harness.get("/oauth/authorize", OAuthFlowTests.authorizationQuery())
        var cookies = setCookies(page)
        let signedIn = postPasskey(harness, page: page, credential: try assertion(harness, authenticator), cookies: cookies)
        #expect(signedIn.status == 303)
        cookies.merge(setCookies(signedIn)) { $1 }
        #expect(cookies["__Host-latchkey_session"] != nil, "a browser session starts")
        let parameters = try redirectParameters(signedIn)
        #expect(parameters["state"] == "af0ifjsldkj" && parameters["iss"] == "https://example.com")
        let (status, body) = try harness.exchange(try #require(parameters["code"]))
        #expect(status == 200)
        let id = try payload(try #require(body["id_token"] as? String), harness)
        #expect(id.claims["amr"] as? [String] == ["hwk", "user"])
        #expect(id.claims["sub"] as? String == harness.account.id)
        let access = try #require(body["access_token"] as? String)
        #expect(try harness.app.tokens.verifyAccessToken(Redacted(access))?.assurance.methods == [.hardwareKey, .userVerification])
        // The browser session remembers the passkey: the next authorization needs no sign-in
        // (only the one-click confirmation a private-use redirect gets, RFC 8252 §8.6).
        let again = harness.get("/oauth/authorize", OAuthFlowTests.authorizationQuery(), cookies: cookies)
        #expect(again.status == 200 && text(again).contains(#"name="step" value="consent""#))

        // With an authenticator app enrolled, the password leads to the code step; a passkey does not.
        let token = try accessToken(harness)
        let generated = try #require(try json(call(
            harness, "/users/me/tfa/generate", token: token, body: #"{"password":"\#(OAuthFlowTests.password)"}"#))["data"] as? [String: Any])
        let secret = try #require(generated["secret"] as? String)
        let code = OneTimePassword.code(
            secret: try #require(Base32.decode(secret)), counter: UInt64(OneTimePassword.step(at: harness.clock.now())))
        #expect(call(harness, "/users/me/tfa/enable", token: token, body: #"{"secret":"\#(secret)","otp":"\#(code)"}"#).status == 200)
        let fresh = harness.get("/oauth/authorize", OAuthFlowTests.authorizationQuery())
        var freshCookies = setCookies(fresh)
        let passwordStep = harness.signIn(on: fresh, cookies: &freshCookies)
        #expect(passwordStep.status == 200 && text(passwordStep).contains(#"name="step" value="second_factor""#))
        let passkeyStep = postPasskey(harness, page: fresh, credential: try assertion(harness, authenticator), cookies: freshCookies)
        #expect(passkeyStep.status == 303)
        let (_, second) = try harness.exchange(try #require(try redirectParameters(passkeyStep)["code"]))
        #expect(try payload(try #require(second["id_token"] as? String), harness).claims["amr"] as? [String] == ["hwk", "user"])
    }

    @Test("every refused passkey is one sign-in page, whatever the cause: 401, no session, no redirect")
    func refusalsAlike() throws {
        let harness = try harness()
        _ = try harness.clients.create(
            id: "partner", redirectURIs: ["https://partner.example/cb"], confidential: false, firstParty: false, scopes: [],
            now: harness.clock.now())
        let authenticator = try registerPasskey(harness, token: try accessToken(harness))
        let page = harness.get("/oauth/authorize", OAuthFlowTests.authorizationQuery())
        let cookies = setCookies(page)
        let used = try assertion(harness, authenticator)
        #expect(postPasskey(harness, page: page, credential: used, cookies: cookies).status == 303)

        var credentials: [(String, String?)] = [
            ("a used challenge", used),
            ("an unknown credential", try assertion(harness, SoftwareAuthenticator(algorithm: .edDSA))),
            ("a wrong origin", try assertion(harness, authenticator) { $0.origin = "https://evil.example" }),
            ("a wrong RP ID", try assertion(harness, authenticator) { $0.rpID = "evil.example" }),
            ("UV missing", try assertion(harness, authenticator) { $0.flags.remove(.userVerified) }),
            ("UP missing", try assertion(harness, authenticator) { $0.flags.remove(.userPresent) }),
            ("a challenge never issued", try assertion(harness, authenticator) { $0.challenge = SecureRandom.bytes(32) }),
            ("a registration's response", String(decoding: authenticator.register(.init(challenge: SecureRandom.bytes(32))).json, as: UTF8.self)),
            ("not JSON", "{not json"),
            ("no credential", nil),
        ]
        let tampered = try #require(try JSONSerialization.jsonObject(with: Data(try assertion(harness, authenticator).utf8)) as? [String: Any])
        var response = try #require(tampered["response"] as? [String: Any])
        var signature = try #require(Base64URL.decode(response["signature"] as? String ?? ""))
        signature[signature.count - 1] ^= 1
        response["signature"] = Base64URL.encode(signature)
        var changed = tampered
        changed["response"] = response
        credentials.append(("a tampered signature", String(decoding: try JSONSerialization.data(withJSONObject: changed), as: UTF8.self)))

        var bodies = Set<Data>()
        for (cause, credential) in credentials {
            let refused = postPasskey(harness, page: page, credential: credential, cookies: cookies)
            #expect(refused.status == 401, "\(cause)")
            #expect(refused.headers["Location"] == nil && setCookies(refused)["__Host-latchkey_session"] == nil, "\(cause)")
            #expect(text(refused).contains(SupportedLanguage.en.catalogue.passkeySignIn.notAccepted), "\(cause)")
            #expect(text(refused).contains(#"name="step" value="sign_in""#), "\(cause): the sign-in form again")
            bodies.insert(refused.body)
        }
        #expect(bodies.count == 1, "the refusals differ")
        // A wrong password's page has the same status and form, with the password's own message.
        let wrongPassword = harness.post(
            "/oauth/authorize", hiddenFields(page) + [("email", "person@example.com"), ("password", "wrong wrong wrong")],
            cookies: cookies)
        #expect(wrongPassword.status == 401 && text(wrongPassword).contains(#"name="step" value="sign_in""#))
        #expect(text(wrongPassword).contains(SupportedLanguage.en.catalogue.signInPage.invalidCredentials))

        // A deleted passkey signs in no more.
        let token = try accessToken(harness)
        let deleted = harness.app.router.handle(HTTPRequest(
            method: "DELETE", path: "/users/me/passkeys/\(Base64URL.encode(authenticator.credentialID))",
            headers: HTTPHeaders([("Authorization", "Bearer " + token)])))
        #expect(deleted.status == 204)
        let gone = postPasskey(harness, page: page, credential: try assertion(harness, authenticator), cookies: cookies)
        #expect(gone.status == 401 && gone.body == bodies.first)

        // For a client that needs consent, a passkey leads to the consent page.
        let partnerQuery = OAuthFlowTests.authorizationQuery(redirect: "https://partner.example/cb").map {
            $0.0 == "client_id" ? ("client_id", "partner") : $0
        }
        let partnerPage = harness.get("/oauth/authorize", partnerQuery)
        let other = try registerPasskey(harness, token: token)
        let consent = postPasskey(harness, page: partnerPage, credential: try assertion(harness, other), cookies: setCookies(partnerPage))
        #expect(consent.status == 200 && text(consent).contains(#"name="step" value="consent""#))
    }

    @Test("the passkey step needs the form token: missing or forged is 403, and the assertion stays unused")
    func formToken() throws {
        let harness = try harness()
        let authenticator = try registerPasskey(harness, token: try accessToken(harness))
        let page = harness.get("/oauth/authorize", OAuthFlowTests.authorizationQuery())
        let cookies = setCookies(page)
        let credential = try assertion(harness, authenticator)
        let forged = postPasskey(harness, page: page, credential: credential, cookies: cookies, formToken: "forged-form-token")
        #expect(forged.status == 403 && forged.headers["Location"] == nil)
        let noCookie = postPasskey(harness, page: page, credential: credential, cookies: [:])
        #expect(noCookie.status == 403 && setCookies(noCookie)["__Host-latchkey_session"] == nil)
        let otherBrowser = harness.get("/oauth/authorize", OAuthFlowTests.authorizationQuery())
        let crossed = postPasskey(harness, page: page, credential: credential, cookies: setCookies(otherBrowser))
        #expect(crossed.status == 403)
        #expect(postPasskey(harness, page: page, credential: credential, cookies: cookies).status == 303)
    }

    @Test("the passkey step counts against the sign-in limits: past them, the page says how long to wait")
    func limited() throws {
        let harness = try harness(["LATCHKEY_LOGIN_IP_LIMIT": "3/60"])
        let page = harness.get("/oauth/authorize", OAuthFlowTests.authorizationQuery())
        let cookies = setCookies(page)
        let stranger = SoftwareAuthenticator(algorithm: .edDSA)
        var last = ""
        for _ in 0..<3 {
            last = try assertion(harness, stranger)
            #expect(postPasskey(harness, page: page, credential: last, cookies: cookies).status == 401)
        }
        let limited = postPasskey(harness, page: page, credential: last, cookies: cookies)
        #expect(limited.status == 429)
        let wait = try #require(limited.headers["Retry-After"].flatMap(Int.init))
        #expect(wait > 0)
        #expect(text(limited).contains(SupportedLanguage.en.catalogue.rateLimit.message(retryAfter: wait).htmlEscaped))
    }

    @Test("the passkey texts are on the page in every language, the script's in its data block", arguments: SupportedLanguage.allCases)
    func texts(language: SupportedLanguage) throws {
        let harness = try harness()
        let query = OAuthFlowTests.authorizationQuery(extra: [("ui_locales", language.rawValue)])
        let html = text(harness.get("/oauth/authorize", query))
        let text = language.catalogue.passkeySignIn
        #expect(html.contains(">\(text.or.htmlEscaped)<") && html.contains(">\(text.signInWithPasskey.htmlEscaped)<"))
        let start = try #require(html.range(of: #"<script type="application/json" id="passkey-messages">"#))
        let end = try #require(html[start.upperBound...].range(of: "</script>"))
        let messages = try #require(
            try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: String])
        #expect(messages["waiting"] == text.waiting && messages["not_finished"] == text.notFinished)
        #expect(messages["rate_limited"] == language.catalogue.rateLimit.tooMany)
        #expect(messages.keys.filter { $0.hasPrefix("wait:") }.count == WaitTime.steps.count)
        let page = harness.get("/oauth/authorize", query)
        let refused = postPasskey(harness, page: page, credential: "{}", cookies: setCookies(page))
        #expect(refused.status == 401 && refused.headers["Content-Language"] == language.rawValue)
        #expect(self.text(refused).contains(">\(text.notAccepted.htmlEscaped)<"))
    }
}
