import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyWeb
import Testing
import LatchkeyTestSupport

/// The authorization endpoint in a browser: the sign-in form and its CSRF check, consent,
/// prompt and max_age, and the errors it returns through the redirect or shows as a page.
extension OAuthFlowTests {
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

    @Test("a server-side failure behind the sign-in form shows a page asking to try again in a moment, in the person's language, never the failure's message")
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
            // A 503: briefly unavailable, come back in a moment; not that the link does not work.
            #expect(text.contains(language.catalogue.signInPage.tryAgainInAMoment.htmlEscaped))
            #expect(text.contains(language.catalogue.signInPage.unavailableTitle.htmlEscaped))
            #expect(!text.contains(language.catalogue.signInPage.errorTitle.htmlEscaped))
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
