import Foundation
import LatchkeyCrypto
@testable import LatchkeyCore
@testable import LatchkeyHTTP
@testable import LatchkeyServer
import LatchkeyTestSupport
import Testing

/// Signing out through the router, in process: `/oauth/logout` (OpenID Connect RP-Initiated
/// Logout 1.0) and an app's revocation of its login, each seen through what the browser that
/// signed in gets next from `/oauth/authorize`: the sign-in form, or the one-click confirmation
/// a signed-in browser gives an app with a private-use scheme.
@Suite struct SignOutFlowTests {
    static let redirect = "com.example.notes:/oauth"
    static let signedOutURI = "com.example.notes:/signed-out"
    static let sessionCookie = "__Host-latchkey_session"

    /// A harness with the app `notes`: first-party and public, redirecting to a private-use
    /// scheme (so a signed-in browser still confirms with one click), with a post-logout
    /// redirect URI.
    static func harness(_ extra: [String: String] = [:]) throws -> OAuthFlowTests.Harness {
        let harness = try OAuthFlowTests.Harness(extra)
        _ = try harness.clients.create(
            id: "notes", redirectURIs: [redirect], confidential: false, firstParty: true, scopes: [],
            postLogoutRedirectURIs: [signedOutURI], now: harness.clock.now())
        return harness
    }

    static func authorizationQuery() -> [(String, String)] {
        OAuthFlowTests.authorizationQuery(redirect: redirect).map { $0.0 == "client_id" ? ("client_id", "notes") : $0 }
    }

    /// A browser signs in for `notes` and the app redeems the code: the browser's cookies and
    /// the token response.
    static func signIn(_ harness: OAuthFlowTests.Harness, email: String = "person@example.com") throws
        -> (cookies: [String: String], tokens: [String: Any])
    {
        let page = harness.get("/oauth/authorize", authorizationQuery())
        var cookies = setCookies(page)
        let response = harness.post(
            "/oauth/authorize", hiddenFields(page) + [("email", email), ("password", OAuthFlowTests.password)], cookies: cookies)
        cookies.merge(setCookies(response)) { $1 }
        let code = try #require(try redirectParameters(response)["code"])
        let (status, tokens) = try harness.exchange(code, clientID: "notes", redirect: redirect)
        #expect(status == 200)
        return (cookies, tokens)
    }

    /// What `/oauth/authorize` shows a browser with `cookies` next.
    enum NextSignIn: Equatable {
        /// The sign-in form: the browser is signed out.
        case form
        /// The one-click confirmation: the browser is still signed in.
        case oneClick
        /// Anything else, by status.
        case other(Int)
    }

    static func nextSignIn(_ harness: OAuthFlowTests.Harness, _ cookies: [String: String]) -> NextSignIn {
        let page = harness.get("/oauth/authorize", authorizationQuery(), cookies: cookies)
        let html = String(decoding: page.body, as: UTF8.self)
        guard page.status == 200 else { return .other(page.status) }
        if html.contains(#"name="password""#) { return .form }
        if html.contains(#"value="allow""#) { return .oneClick }
        return .other(page.status)
    }

    static func html(_ response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    /// Whether the response tells the browser to drop its session cookie.
    static func clearsSession(_ response: HTTPResponse) -> Bool {
        response.headers.values("Set-Cookie").contains { $0.hasPrefix("\(sessionCookie)=;") && $0.contains("Max-Age=0") }
    }

    @Test("the metadata names /oauth/logout as the end_session_endpoint")
    func discovery() throws {
        let harness = try Self.harness()
        for path in ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"] {
            let metadata = try #require(try JSONSerialization.jsonObject(with: harness.get(path, []).body) as? [String: Any])
            #expect(metadata["end_session_endpoint"] as? String == "https://auth.example.com/oauth/logout")
        }
    }

    @Test("with a valid id_token_hint the browser is signed out at once and sent to the registered URI with state")
    func hintSignsOutAtOnce() throws {
        let harness = try Self.harness()
        let (cookies, tokens) = try Self.signIn(harness)
        #expect(Self.nextSignIn(harness, cookies) == .oneClick)

        let response = harness.get("/oauth/logout", [
            ("id_token_hint", try #require(tokens["id_token"] as? String)), ("post_logout_redirect_uri", Self.signedOutURI),
            ("state", "s 1/2&x"), ("client_id", "notes"),
        ], cookies: cookies)
        #expect(response.status == 303)
        #expect(response.headers["Location"] == "com.example.notes:/signed-out?state=s%201%2F2%26x")
        #expect(Self.clearsSession(response))
        // The old cookie, if the browser kept it, no longer counts on the server.
        #expect(Self.nextSignIn(harness, cookies) == .form)
        // Signing out again is no error (RP-Initiated Logout §4): nothing to end, the same way back.
        let again = harness.get("/oauth/logout", [
            ("id_token_hint", try #require(tokens["id_token"] as? String)), ("post_logout_redirect_uri", Self.signedOutURI),
        ], cookies: cookies)
        #expect(again.status == 303)
        #expect(again.headers["Location"] == Self.signedOutURI)
    }

    @Test("an expired id_token_hint still signs out; without a post-logout URI the browser gets the signed-out page")
    func expiredHint() throws {
        let harness = try Self.harness()
        let (cookies, tokens) = try Self.signIn(harness)
        harness.clock.advance(by: 3600)
        let response = harness.get("/oauth/logout", [("id_token_hint", try #require(tokens["id_token"] as? String))], cookies: cookies)
        #expect(response.status == 200)
        #expect(response.headers["Location"] == nil)
        #expect(Self.html(response).contains("<h1>You are signed out</h1>"))
        #expect(Self.clearsSession(response))
        #expect(Self.nextSignIn(harness, cookies) == .form)
    }

    @Test("without a hint a page asks first, and only its form post with this browser's form token signs out")
    func confirmationWithoutHint() throws {
        let harness = try Self.harness()
        var (cookies, _) = try Self.signIn(harness)
        let page = harness.get("/oauth/logout", [
            ("client_id", "notes"), ("post_logout_redirect_uri", Self.signedOutURI), ("state", "af0"), ("ui_locales", "pt"),
        ], cookies: cookies)
        #expect(page.status == 200)
        #expect(page.headers["Content-Language"] == "pt")
        #expect(Self.html(page).contains(#"<form method="post" action="/oauth/logout">"#))
        #expect(Self.html(page).contains("person@example.com"))
        #expect(page.headers["Content-Security-Policy"]?.contains("form-action 'self' com.example.notes:") == true)
        #expect(!Self.clearsSession(page))
        #expect(Self.nextSignIn(harness, cookies) == .oneClick)
        cookies.merge(setCookies(page)) { $1 }

        let fields = hiddenFields(page)
        #expect(fields.contains { $0 == ("step", "sign_out") })
        let withoutToken = fields.filter { $0.0 != "csrf_token" }
        for forged in [withoutToken, withoutToken + [("csrf_token", "forged")]] {
            let refused = harness.post("/oauth/logout", forged, cookies: cookies)
            #expect(refused.status == 403)
            #expect(refused.headers["Location"] == nil)
            #expect(Self.nextSignIn(harness, cookies) == .oneClick)
        }
        // The right token from a browser without the CSRF cookie is refused too.
        #expect(harness.post("/oauth/logout", fields, cookies: [Self.sessionCookie: cookies[Self.sessionCookie] ?? ""]).status == 403)
        #expect(Self.nextSignIn(harness, cookies) == .oneClick)

        let confirmed = harness.post("/oauth/logout", fields, cookies: cookies)
        #expect(confirmed.status == 303)
        #expect(confirmed.headers["Location"] == "com.example.notes:/signed-out?state=af0")
        #expect(Self.clearsSession(confirmed))
        #expect(Self.nextSignIn(harness, cookies) == .form)
    }

    @Test("a hint for someone else than the signed-in person, or one this server did not issue as an ID token, is asked about")
    func suspectHints() throws {
        let harness = try Self.harness()
        _ = try harness.app.accounts.createAccount(email: "other@example.com", password: Redacted(OAuthFlowTests.password))
        let (otherBrowser, otherTokens) = try Self.signIn(harness, email: "other@example.com")
        let (cookies, tokens) = try Self.signIn(harness)
        let idToken = try #require(tokens["id_token"] as? String)
        let parts = idToken.split(separator: ".")
        let hints = [
            try #require(otherTokens["id_token"] as? String),
            try #require(tokens["access_token"] as? String),
            String(parts[0]) + "." + String(parts[1]) + "." + String(parts[2].reversed()),
            "not-a-token",
        ]
        for hint in hints {
            let response = harness.get("/oauth/logout", [("id_token_hint", hint)], cookies: cookies)
            #expect(response.status == 200)
            #expect(Self.html(response).contains(#"value="sign_out""#))
            #expect(!Self.clearsSession(response))
            #expect(Self.nextSignIn(harness, cookies) == .oneClick)
        }
        #expect(Self.nextSignIn(harness, otherBrowser) == .oneClick)
        #expect(harness.logs.lines.contains { $0.contains("logout_hint_rejected") })
    }

    @Test("an unknown client, an unregistered post-logout URI, a client other than the hint's, or a URI without a client is an error page, never a redirect")
    func errorsAreNeverRedirects() throws {
        let harness = try Self.harness()
        let (cookies, tokens) = try Self.signIn(harness)
        let hint = try #require(tokens["id_token"] as? String)
        let requests: [[(String, String)]] = [
            [("client_id", "unknown-app")],
            [("client_id", "notes"), ("post_logout_redirect_uri", "https://evil.example/signed-out")],
            [("client_id", "notes"), ("post_logout_redirect_uri", Self.redirect)],
            [("id_token_hint", hint), ("post_logout_redirect_uri", Self.signedOutURI + "/x")],
            [("post_logout_redirect_uri", Self.signedOutURI)],
            [("id_token_hint", hint), ("client_id", "ios-app")],
            [("id_token_hint", hint), ("state", "a"), ("state", "b")],
            [("client_id", "notes"), ("state", "bad\u{1}")],
        ]
        for query in requests {
            for response in [
                harness.get("/oauth/logout", query, cookies: cookies), harness.post("/oauth/logout", query, cookies: cookies),
            ] {
                #expect(response.status == 400, "\(query)")
                #expect(response.headers["Location"] == nil)
                #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == true)
                #expect(Self.html(response).contains("This sign-out link does not work"))
                #expect(!Self.clearsSession(response))
            }
        }
        #expect(Self.nextSignIn(harness, cookies) == .oneClick)
    }

    @Test("a logout the app posts without the session cookie (as another site's post comes) is asked about; with it, it signs out")
    func postedLogout() throws {
        let harness = try Self.harness()
        let (cookies, tokens) = try Self.signIn(harness)
        let request = [
            ("id_token_hint", try #require(tokens["id_token"] as? String)), ("post_logout_redirect_uri", Self.signedOutURI),
        ]
        let withoutCookie = harness.post("/oauth/logout", request)
        #expect(withoutCookie.status == 200)
        #expect(Self.html(withoutCookie).contains(#"value="sign_out""#))
        #expect(Self.nextSignIn(harness, cookies) == .oneClick)

        let withCookie = harness.post("/oauth/logout", request, cookies: cookies)
        #expect(withCookie.status == 303)
        #expect(withCookie.headers["Location"] == Self.signedOutURI)
        #expect(Self.nextSignIn(harness, cookies) == .form)
    }

    @Test("revoking the refresh token of a code-flow login ends the browser session that signed in for it, and no other")
    func revocationEndsTheBrowserSession() throws {
        let harness = try Self.harness()
        let (cookies, tokens) = try Self.signIn(harness)
        let (otherBrowser, _) = try Self.signIn(harness)
        #expect(Self.nextSignIn(harness, cookies) == .oneClick)

        let revoked = harness.post("/oauth/revoke", [
            ("token", try #require(tokens["refresh_token"] as? String)), ("token_type_hint", "refresh_token"), ("client_id", "notes"),
        ])
        #expect(revoked.status == 200)
        #expect(Self.nextSignIn(harness, cookies) == .form)
        #expect(Self.nextSignIn(harness, otherBrowser) == .oneClick)
    }

    @Test("revoking a login by its access token, or reusing a rotated refresh token, ends its browser session too")
    func accessTokenRevocationAndReuse() throws {
        let harness = try Self.harness(["LATCHKEY_REFRESH_REUSE_GRACE": "0"])
        let (byAccessToken, first) = try Self.signIn(harness)
        #expect(harness.post("/oauth/revoke", [
            ("token", try #require(first["access_token"] as? String)), ("client_id", "notes"),
        ]).status == 200)
        #expect(Self.nextSignIn(harness, byAccessToken) == .form)

        let (byReuse, second) = try Self.signIn(harness)
        let refresh = try #require(second["refresh_token"] as? String)
        let rotate = { (token: String) in
            harness.post("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "notes")])
        }
        #expect(rotate(refresh).status == 200)
        #expect(Self.nextSignIn(harness, byReuse) == .oneClick)
        #expect(rotate(refresh).status == 400)
        #expect(Self.nextSignIn(harness, byReuse) == .form)
    }
}
