import LatchkeyCore
import LatchkeyHTTP
import LatchkeyCrypto

/// The cookies of the browser pages (`/oauth/authorize`, `/oauth/logout`): the session cookie
/// that keeps a browser signed in, and the CSRF cookie every form token of those pages is bound to.
///
/// Promises: over https both are `__Host-` cookies (`Secure`, `Path=/`), which browsers accept
/// only from this host, so a sibling domain can neither plant nor shadow them; over plain http
/// they are limited to `/oauth`. Both are `HttpOnly`; the session cookie is `SameSite=Lax` (it
/// comes with an app's top-level navigation to the pages), the CSRF cookie `SameSite=Strict`.
struct BrowserCookies {
    /// Whether cookies get `Secure` (the public URL is https).
    let secure: Bool

    /// The session cookie's name.
    var session: String { secure ? "__Host-latchkey_session" : "latchkey_session" }
    /// The CSRF cookie's name.
    var csrf: String { secure ? "__Host-latchkey_csrf" : "latchkey_csrf" }
    /// `/` for `__Host-` cookies (required), else only the authorization pages.
    private var path: String { secure ? "/" : "/oauth" }

    /// The session cookie `request` carries, if any.
    func sessionValue(in request: HTTPRequest) -> Redacted<String>? {
        request.cookie(session).map(Redacted.init)
    }

    /// The CSRF cookie `request` carries, if any.
    func csrfValue(in request: HTTPRequest) -> Redacted<String>? {
        request.cookie(csrf).map(Redacted.init)
    }

    /// Sets the session cookie to `value` for a browser session's lifetime.
    func setSession(_ value: Redacted<String>, on response: inout HTTPResponse) {
        response.setCookie(
            session, value.exposed, path: path, sameSite: "Lax", secure: secure, maxAge: Int(AuthorizationService.browserSessionLifetime))
    }

    /// Removes the session cookie from the browser.
    func clearSession(on response: inout HTTPResponse) {
        response.setCookie(session, "", path: path, sameSite: "Lax", secure: secure, maxAge: 0)
    }

    /// Renders a page with a form token for the browser's CSRF cookie, setting a new cookie
    /// when it has none (or one not shaped like ours).
    func withFormToken(_ request: HTTPRequest, _ authorization: AuthorizationService, _ render: (String) -> HTTPResponse)
        -> HTTPResponse
    {
        let existing = csrfValue(in: request).flatMap { OpaqueToken.wellFormedDigest($0) != nil ? $0 : nil }
        let cookie = existing ?? SecureRandom.token()
        var response = render(authorization.formToken(for: cookie))
        if existing == nil {
            response.setCookie(csrf, cookie.exposed, path: path, sameSite: "Strict", secure: secure, maxAge: 3600)
        }
        return response
    }
}

extension HTTPRequest {
    /// The language of a browser page: the first of `uiLocales` (OpenID Connect's
    /// `ui_locales`), else `Accept-Language`, else English.
    func pageLanguage(uiLocales: String?) -> SupportedLanguage {
        SupportedLanguage.negotiate(
            explicit: uiLocales?.split(separator: " ").first.map(String.init), acceptLanguage: headers["Accept-Language"],
            accountLocale: nil)
    }
}
