import LatchkeyCore
import LatchkeyWeb
import LatchkeyHTTP

/// `GET` and `POST /oauth/logout`: OpenID Connect RP-Initiated Logout 1.0, the metadata's
/// `end_session_endpoint`. An app sends the browser here to sign it out of Latchkey, with
/// `id_token_hint`, `client_id`, `post_logout_redirect_uri`, `state` and `ui_locales` (see
/// ``LogoutRequest``).
///
/// Promises:
/// - a request whose client or post-logout redirect URI does not check out gets an error page,
///   never a redirect;
/// - with a verified `id_token_hint`, the browser's session ends at once (on every server),
///   unless the browser is signed in as someone else than the hint names: then, and without a
///   hint, a page asks "Sign out?" and only its form post, with the form token bound to the
///   browser's CSRF cookie (403 otherwise), ends the session;
/// - a form-encoded `POST` from the app that brings no session cookie (another site's post
///   does not carry a `SameSite=Lax` cookie) is asked too, so a sign-out never reports success
///   for a session it could not see;
/// - once signed out, the session cookie is cleared and the answer is a 303 to the registered
///   post-logout redirect URI with `state`, else a "You are signed out" page.
struct LogoutRoutes {
    let clients: ClientRegistry
    let tokens: TokenService
    let authorization: AuthorizationService
    /// The confirmation, signed-out and error pages, with the product's name.
    let pages: SignOutPage
    let cookies: BrowserCookies
    let logger: Logger

    var routes: [Route] {
        // A failure nothing below answers more precisely is an error page, never a redirect.
        let errorPage = ErrorShape.page { error, headers in
            let language = SupportedLanguage.negotiate(explicit: nil, acceptLanguage: headers["Accept-Language"], accountLocale: nil)
            return self.errorPage(error, language: language)
        }
        return [
            Route("GET", "/oauth/logout", name: "oauth_logout", errorShape: errorPage) { request in
                try logout(try FormParameters(query: request), request: request)
            },
            Route("POST", "/oauth/logout", name: "oauth_logout_form", body: .form, errorShape: errorPage) { request in
                let form = try FormParameters(body: request)
                return form.contains("step") ? try confirm(form, request: request) : try logout(form, request: request)
            },
        ]
    }

    /// The error page for `error`, in the person's language: for a client error the generic
    /// sentence with the error's own (English) message as the detail for the app's developer;
    /// for a server-side failure only a sentence asking to try again later.
    private func errorPage(_ error: LatchkeyError, language: SupportedLanguage) -> HTTPResponse {
        let text = language.catalogue.signOutPage
        guard error.isClientError else {
            // The server's fault: the title says it is unavailable, not that the link is wrong;
            // a 503 (busy, a dependency down) asks to come back in a moment.
            let message = error.code.kind == .unavailable ? text.tryAgainInAMoment : text.tryAgainLater
            return HTTPResponse(pages.error(message, title: text.unavailableTitle, language: language, status: error.httpStatus))
        }
        return HTTPResponse(pages.error(text.invalidRequest, detail: error.message, language: language, status: error.httpStatus))
    }

    /// The app's logout request: signs out at once when a verified hint names the signed-in
    /// account (or no session is there to end), else asks.
    private func logout(_ parameters: FormParameters, request: HTTPRequest) throws -> HTTPResponse {
        let language = request.pageLanguage(uiLocales: try? parameters.optional("ui_locales", maxLength: 64))
        let logout = try LogoutRequest.validate(parameters, clients: clients, tokens: tokens)
        if logout.hintRejected {
            logger.info("logout_hint_rejected", [
                "client_id": .string(logout.client?.id ?? "-"), "ip": .string(IPAddress.truncatedForLogs(request.clientIP)),
            ])
        }
        let cookie = cookies.sessionValue(in: request)
        let session = try authorization.browserSession(cookie: cookie)
        let cookieWithheld = request.method == "POST" && cookie == nil
        if let hint = logout.hint, !cookieWithheld, session.map({ $0.account.id == hint.subject }) ?? true {
            return try signOut(logout, request: request, language: language)
        }
        return cookies.withFormToken(request, authorization) { token in
            HTTPResponse(pages.confirm(request: logout, account: session?.account, formToken: token, language: language))
        }
    }

    /// The confirmation form's post: with this browser's form token, signs it out.
    private func confirm(_ form: FormParameters, request: HTTPRequest) throws -> HTTPResponse {
        let language = request.pageLanguage(uiLocales: try? form.optional("ui_locales", maxLength: 64))
        guard try form.optional("step", maxLength: 16) == "sign_out" else {
            throw LatchkeyError(.invalidRequest, "The form is incomplete.")
        }
        guard authorization.isValidFormToken(try? form.optional("csrf_token", maxLength: 128), csrfCookie: cookies.csrfValue(in: request))
        else {
            logger.info("logout_form_rejected", ["ip": .string(IPAddress.truncatedForLogs(request.clientIP))])
            return HTTPResponse(pages.error(language.catalogue.signOutPage.expiredForm, language: language, status: 403))
        }
        return try signOut(try LogoutRequest.validate(form, clients: clients, tokens: tokens), request: request, language: language)
    }

    /// Ends the browser's session on every server, clears its cookie, and sends the browser on.
    private func signOut(_ logout: LogoutRequest, request: HTTPRequest, language: SupportedLanguage) throws -> HTTPResponse {
        let cookie = cookies.sessionValue(in: request)
        try authorization.endBrowserSession(cookie: cookie)
        logger.info("logout_completed", ["client_id": .string(logout.client?.id ?? "-")])
        var response =
            if let location = logout.redirectLocation {
                HTTPResponse(status: 303, headers: HTTPHeaders([("Location", location)]))
            } else {
                HTTPResponse(pages.signedOut(language: language))
            }
        if cookie != nil { cookies.clearSession(on: &response) }
        return response
    }
}
