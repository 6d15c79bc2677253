import LatchkeyCore
import LatchkeyWeb
import LatchkeyHTTP
import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// `GET` and `POST /oauth/authorize`: the authorization code flow's browser side (RFC 6749
/// §4.1 with PKCE S256 required, RFC 8252 for native apps, RFC 9207 `iss` in every response).
///
/// Promises: an unknown client or unregistered redirect URI gets an error page, never a
/// redirect; every form post needs the form token bound to the browser's CSRF cookie (403
/// otherwise); sign-in gives one message for every kind of wrong credentials and shares the
/// failure limits of `/auth/login`; clients that are not first-party get a consent page;
/// `prompt=login`, or a sign-in older than `max_age`, asks for the password again;
/// `prompt=none` never shows a page; "Not you?" on the consent page is a form post (with the
/// form token, like every other: never a link another site could trigger) that signs the
/// browser out and shows the sign-in form. For an account with a second factor, a right password
/// leads to the code step (``SignInPage/secondFactor(request:formToken:challenge:language:problem:status:)``):
/// the page carries a single-use challenge (``SignInChallenges``, 5 minutes) instead of the
/// password, and the browser session starts only once the code was right, with `pwd` and `otp`.
/// A passkey (`step=passkey`, posted by the page's script with the form's hidden fields) is a
/// first credential too, checked by the same ``SignInService`` with the password's limits: it
/// stands for both factors (`hwk`, `user`), so it never leads to the code step; every refusal
/// is one sign-in page (``SignInProblem/passkeyNotAccepted``), whatever the cause.
struct AuthorizeRoutes {
    let clients: ClientRegistry
    let authorization: AuthorizationService
    let signIn: SignInService
    /// The code step's challenges.
    let challenges: SignInChallenges
    /// The sign-in, consent and error pages, with the product's name.
    let pages: SignInPage
    let clock: any WallClock
    let logger: Logger
    /// The issuer sent as `iss` with every authorization response.
    let issuer: String
    /// The session and CSRF cookies.
    let cookies: BrowserCookies
    /// The browser's device token, sent with the sign-in form and set once it signed in.
    let deviceCookie: DeviceCookie

    /// The longest `credential` of the passkey step: the W3C JSON of an assertion whose members
    /// are at their limits (``AuthenticationResponse``: ID 1023 bytes twice, client data 4 KiB,
    /// authenticator data 8 KiB, signature 1024 bytes, user handle 64 bytes, in base64url) fits.
    static let maximumCredentialLength = 32 * 1024

    var routes: [Route] {
        // A failure nothing above answers more precisely is an error page, never a redirect.
        let errorPage = ErrorShape.page { error, headers in
            let language = SupportedLanguage.negotiate(explicit: nil, acceptLanguage: headers["Accept-Language"], accountLocale: nil)
            return self.errorPage(error, language: language)
        }
        return [
            Route("GET", "/oauth/authorize", name: "oauth_authorize", errorShape: errorPage) { request in
                try authorize(request)
            },
            Route("POST", "/oauth/authorize", name: "oauth_authorize_form", body: .form, errorShape: errorPage, lane: .passwordHashing) { request in
                try submit(request)
            },
        ]
    }

    /// The error page for `error`, in the person's language: for a client error the generic
    /// sentence with the error's own (English) message as the detail for the app's developer;
    /// for a server-side failure only a sentence asking to try again later (its message may
    /// name internals, such as Redis's address). `Retry-After` is added by the error shape.
    private func errorPage(_ error: LatchkeyError, language: SupportedLanguage) -> HTTPResponse {
        let text = language.catalogue.signInPage
        guard error.isClientError else {
            // The server's fault: the title says it is unavailable, not that the link is wrong;
            // a 503 (busy, a dependency down) asks to come back in a moment.
            let message = error.code.kind == .unavailable ? text.tryAgainInAMoment : text.tryAgainLater
            return HTTPResponse(pages.error(message, title: text.unavailableTitle, language: language, status: error.httpStatus))
        }
        return HTTPResponse(pages.error(text.invalidRequest, detail: error.message, language: language, status: error.httpStatus))
    }

    private func authorize(_ request: HTTPRequest) throws -> HTTPResponse {
        let language = request.pageLanguage(uiLocales: request.queryValue("ui_locales"))
        let authorizationRequest: AuthorizationRequest
        switch try validated({ try FormParameters(query: request) }, request: request, language: language) {
        case .answered(let response): return response
        case .valid(let valid): authorizationRequest = valid
        }
        let session = try recentSession(request, for: authorizationRequest)
        if authorizationRequest.prompt.contains("none") {
            guard let session else { return redirectError(authorizationRequest, "login_required", "The person is not signed in.") }
            guard !authorizationRequest.needsConsent else {
                return redirectError(authorizationRequest, "consent_required", "The person must approve this client.")
            }
            guard authorizationRequest.clientIdentityIsProven else {
                return redirectError(
                    authorizationRequest, "interaction_required", "The person must confirm sign-in for this client.")
            }
            return try issueCode(authorizationRequest, session: session)
        }
        guard let session, !authorizationRequest.prompt.contains("login") else {
            return withFormToken(request) { token in
                HTTPResponse(pages.signIn(
                    request: authorizationRequest, formToken: token, language: language, email: nil, problem: nil, status: 200))
            }
        }
        // A session reused by a client whose identity is not proven gets the consent page as a
        // confirmation, so an app impersonating it cannot get a code silently (RFC 8252 §8.6).
        if authorizationRequest.needsConsent || !authorizationRequest.clientIdentityIsProven {
            return withFormToken(request) { token in
                HTTPResponse(pages.consent(request: authorizationRequest, account: session.account, formToken: token, language: language))
            }
        }
        return try issueCode(authorizationRequest, session: session)
    }

    private func submit(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = try FormParameters(body: request)
        let language = request.pageLanguage(uiLocales: try? form.optional("ui_locales", maxLength: 64))
        let text = language.catalogue.signInPage
        guard authorization.isValidFormToken(
            try? form.optional("csrf_token", maxLength: 128), csrfCookie: cookies.csrfValue(in: request))
        else {
            logger.info("authorize_form_rejected", ["ip": .string(IPAddress.truncatedForLogs(request.clientIP))])
            return HTTPResponse(pages.error(text.expiredForm, language: language, status: 403))
        }
        let authorizationRequest: AuthorizationRequest
        switch try validated({ form }, request: request, language: language) {
        case .answered(let response): return response
        case .valid(let valid): authorizationRequest = valid
        }
        let formToken = try form.required("csrf_token", maxLength: 128)

        switch try form.optional("step", maxLength: 16) {
        case "consent" where try form.optional("decision", maxLength: 16) == "switch_account":
            // "Not you?": this browser's session ends on every server, and its cookie goes.
            try authorization.endBrowserSession(cookie: cookies.sessionValue(in: request))
            logger.info("authorize_signed_out", ["client_id": .string(authorizationRequest.client.id)])
            var response = HTTPResponse(pages.signIn(
                request: authorizationRequest, formToken: formToken, language: language, email: nil, problem: nil, status: 200))
            cookies.clearSession(on: &response)
            return response
        case "consent":
            guard let session = try recentSession(request, for: authorizationRequest) else {
                return HTTPResponse(pages.signIn(
                    request: authorizationRequest, formToken: formToken, language: language, email: nil, problem: nil, status: 200))
            }
            guard try form.optional("decision", maxLength: 16) == "allow" else {
                logger.info("authorize_denied", ["client_id": .string(authorizationRequest.client.id)])
                return redirectError(authorizationRequest, "access_denied", "The person denied the request.")
            }
            return try issueCode(authorizationRequest, session: session)
        case "sign_in":
            let email = try form.optional("email", maxLength: 320) ?? ""
            let password = try form.optionalSecret("password", maxLength: 4096) ?? Redacted("")
            return try firstStep(
                .password(email: email, password: password, device: deviceCookie.token(in: request)), refused: .invalidCredentials, request: request, authorizationRequest,
                formToken: formToken, language: language, email: email)
        case "passkey":
            // The page's script posts the assertion's W3C JSON; one that is not one is refused
            // like any other passkey, before any sign-in work.
            guard let json = try form.optional("credential", maxLength: Self.maximumCredentialLength),
                let response = try? JSONDecoder().decode(AuthenticationResponse.self, from: Data(json.utf8))
            else {
                logger.info("passkey_sign_in_failed", [
                    "reason": .string("malformed_response"), "ip": .string(IPAddress.truncatedForLogs(request.clientIP)),
                ])
                return HTTPResponse(pages.signIn(
                    request: authorizationRequest, formToken: formToken, language: language, email: nil, problem: .passkeyNotAccepted,
                    status: SignInService.invalidCredentials.httpStatus))
            }
            return try firstStep(
                .passkey(response), refused: .passkeyNotAccepted, request: request, authorizationRequest, formToken: formToken,
                language: language, email: nil)
        case "second_factor":
            guard let (first, expiresAt) = try challenges.take(try form.optionalSecret("challenge", maxLength: 64), kind: .signIn) else {
                return HTTPResponse(pages.signIn(
                    request: authorizationRequest, formToken: formToken, language: language, email: nil, problem: .secondFactorExpired,
                    status: 401))
            }
            let code = try form.optionalSecret("code", maxLength: 64) ?? Redacted("")
            do {
                let signedIn = try signIn.complete(first, code: code, clientIP: request.clientIP)
                return try signedInResponse(
                    signedIn, request: request, authorizationRequest, formToken: formToken, language: language, email: first.account.email)
            } catch let error as LatchkeyError where error.code == .invalidOTP || error.code == .rateLimited {
                // The code step again, with a new challenge that ends when the first one would have.
                let challenge = try challenges.start(first, kind: .signIn, expiresAt: expiresAt)
                let problem: SignInProblem = error.code == .rateLimited ? .tooManyAttempts(retryAfter: error.retryAfter ?? 0) : .invalidCode
                var response = HTTPResponse(pages.secondFactor(
                    request: authorizationRequest, formToken: formToken, challenge: challenge.exposed, language: language, problem: problem,
                    status: error.httpStatus))
                if let retryAfter = error.retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
                return response
            }
        default:
            throw LatchkeyError(.invalidRequest, "The form is incomplete.")
        }
    }

    /// The sign-in's first credential, a password or a passkey: on to the code step (a password
    /// of an account with a second factor) or signed in; when refused, the sign-in page again with
    /// `refused` (or too many attempts, with `Retry-After`), `email` kept in its field.
    private func firstStep(
        _ credential: SignInCredential, refused: SignInProblem, request: HTTPRequest, _ authorizationRequest: AuthorizationRequest,
        formToken: String, language: SupportedLanguage, email: String?
    ) throws -> HTTPResponse {
        let progress: SignInService.Progress
        do {
            progress = try signIn.begin(credential, clientIP: request.clientIP)
        } catch let error as LatchkeyError where error.code == .invalidCredentials || error.code == .rateLimited {
            // The sign-in page again, saying what went wrong; Retry-After comes with the error.
            let problem: SignInProblem = error.code == .rateLimited ? .tooManyAttempts(retryAfter: error.retryAfter ?? 0) : refused
            var response = HTTPResponse(pages.signIn(
                request: authorizationRequest, formToken: formToken, language: language, email: email, problem: problem,
                status: error.httpStatus))
            if let retryAfter = error.retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
            return response
        }
        switch progress {
        case .signedIn(let signedIn):
            return try signedInResponse(
                signedIn, request: request, authorizationRequest, formToken: formToken, language: language, email: email, refused: refused)
        case .needsSecondFactor(let first):
            let challenge = try challenges.start(first, kind: .signIn)
            return HTTPResponse(pages.secondFactor(
                request: authorizationRequest, formToken: formToken, challenge: challenge.exposed, language: language, problem: nil,
                status: 200))
        }
    }

    /// What follows a complete sign-in on the form: a browser session (ending the one the
    /// browser's cookie held), then the consent page or the code. When no session can start
    /// (the account went meanwhile), the sign-in page again with `refused`.
    private func signedInResponse(
        _ signedIn: SignInService.SignedIn, request: HTTPRequest, _ authorizationRequest: AuthorizationRequest, formToken: String,
        language: SupportedLanguage, email: String?, refused: SignInProblem = .invalidCredentials
    ) throws -> HTTPResponse {
        guard let (session, cookie) = try authorization.startBrowserSession(for: signedIn) else {
            return HTTPResponse(pages.signIn(
                request: authorizationRequest, formToken: formToken, language: language, email: email,
                problem: refused, status: 401))
        }
        // A sign-in replaces the browser's session: the one its cookie held (prompt=login,
        // max_age, another account) ends, on every server, rather than staying valid until it
        // expires for whoever else holds that cookie.
        try authorization.endBrowserSession(cookie: cookies.sessionValue(in: request))
        logger.info(
            "authorize_signed_in", ["account": .string(session.account.id), "client_id": .string(authorizationRequest.client.id)])
        var response =
            if authorizationRequest.needsConsent {
                HTTPResponse(pages.consent(
                    request: authorizationRequest, account: session.account, formToken: formToken, language: language))
            } else {
                try issueCode(authorizationRequest, session: session)
            }
        cookies.setSession(cookie, on: &response)
        let device = try signIn.recordDevice(
            signedIn, presented: deviceCookie.token(in: request),
            origin: LoginOrigin(clientIP: request.clientIP, userAgentHeader: request.headers["User-Agent"]))
        deviceCookie.set(device, on: &response)
        return response
    }

    /// The browser's live session, if its sign-in is recent enough for the request's `max_age`.
    private func recentSession(_ request: HTTPRequest, for authorizationRequest: AuthorizationRequest) throws -> BrowserSession? {
        let session = try authorization.browserSession(cookie: cookies.sessionValue(in: request))
        return session.flatMap { authorizationRequest.acceptsSignIn(at: $0.assurance.authTime, now: clock.now()) ? $0 : nil }
    }

    /// A validated authorization request, or the response that ends the request early.
    private enum Validated {
        case valid(AuthorizationRequest)
        /// An error page for the browser or an error redirect to the client.
        case answered(HTTPResponse)
    }

    /// The validated authorization request, or the response that tells the browser (an error
    /// page) or the client (an error redirect) why there is none.
    private func validated(
        _ parameters: () throws -> FormParameters, request: HTTPRequest, language: SupportedLanguage
    ) throws -> Validated {
        switch try AuthorizationRequest.validate(parameters, clients: clients) {
        case .untrusted(let error):
            .answered(untrusted(error, request: request, language: language))
        case .redirect(let error):
            .answered(redirectError(error.redirectURI, state: error.state, error.error, error.description))
        case .valid(let valid):
            .valid(valid)
        }
    }

    private func issueCode(_ request: AuthorizationRequest, session: BrowserSession) throws -> HTTPResponse {
        let code = try authorization.issueCode(for: request, session: session)
        logger.info("authorization_code_issued", ["account": .string(session.account.id), "client_id": .string(request.client.id)])
        return redirect(request.redirectURI, state: request.state, [("code", code.exposed)])
    }

    private func redirectError(_ request: AuthorizationRequest, _ error: String, _ description: String) -> HTTPResponse {
        redirectError(request.redirectURI, state: request.state, error, description)
    }

    /// The error redirect (RFC 6749 §4.1.2.1), its `error` and `error_description` in the
    /// characters the RFC allows (``OAuthErrorText``).
    private func redirectError(_ redirectURI: String, state: String?, _ error: String, _ description: String) -> HTTPResponse {
        redirect(redirectURI, state: state, [
            ("error", OAuthErrorText.sanitized(error)), ("error_description", OAuthErrorText.sanitized(description)),
        ])
    }

    /// 303 to the client's redirect URI with `parameters`, `state` and `iss`.
    private func redirect(_ redirectURI: String, state: String?, _ parameters: [(String, String)]) -> HTTPResponse {
        var all = parameters
        if let state { all.append(("state", state)) }
        all.append(("iss", issuer))
        return HTTPResponse(
            status: 303, headers: HTTPHeaders([("Location", AuthorizationRequest.redirectLocation(redirectURI, all))]))
    }

    private func untrusted(_ error: LatchkeyError, request: HTTPRequest, language: SupportedLanguage) -> HTTPResponse {
        logger.info("authorize_rejected", [
            "reason": .string(error.cause?.rawValue ?? error.code.rawValue), "ip": .string(IPAddress.truncatedForLogs(request.clientIP)),
        ])
        return errorPage(error, language: language)
    }

    /// Renders a page with a form token for the browser's CSRF cookie (see ``BrowserCookies/withFormToken(_:_:_:)``).
    private func withFormToken(_ request: HTTPRequest, _ render: (String) -> HTTPResponse) -> HTTPResponse {
        cookies.withFormToken(request, authorization, render)
    }
}
