import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP
import LatchkeyWeb

/// `GET` and `POST /oauth/two-step-sign-in`: turning two-step sign-in on from a browser
/// (``EnrolmentPage``), for people whose app has no settings screen for it.
///
/// Promises: the page needs no signed-in session — it asks for the address and password itself,
/// checked as a sign-in with every limit (an account that has a second factor already is told
/// so, and only after a right password); each post needs the form token bound to the browser's
/// CSRF cookie (403 otherwise); between the password and the code the page carries a
/// single-use challenge (``SignInChallenges``, 10 minutes), never the password; the secret is the
/// one ``AuthenticatorEnrolment`` generated and keeps server-side, shown as an inline-SVG QR code,
/// an `otpauth://` link and text; the recovery codes are shown once. It lives under `/oauth` so
/// the CSRF cookie (limited to `/oauth` over plain http) comes with it.
struct EnrolmentPageRoutes {
    let enrolment: AuthenticatorEnrolment
    let challenges: SignInChallenges
    let authorization: AuthorizationService
    let pages: EnrolmentPage
    let cookies: BrowserCookies
    let logger: Logger

    var routes: [Route] {
        let errorPage = ErrorShape.page { error, headers in
            let language = SupportedLanguage.negotiate(explicit: nil, acceptLanguage: headers["Accept-Language"], accountLocale: nil)
            let text = language.catalogue.signInPage
            return HTTPResponse(pages.message(error.isClientError ? text.invalidRequest : text.tryAgainLater, language: language, status: error.httpStatus))
        }
        return [
            Route("GET", "/oauth/two-step-sign-in", name: "two_step_sign_in_page", errorShape: errorPage) { request in
                let language = request.pageLanguage(uiLocales: request.queryValue("lang"))
                return cookies.withFormToken(request, authorization) { token in
                    HTTPResponse(pages.start(formToken: token, language: language, email: nil, problem: nil, status: 200))
                }
            },
            Route(
                "POST", "/oauth/two-step-sign-in", name: "two_step_sign_in_form", body: .form, errorShape: errorPage, lane: .passwordHashing
            ) { request in
                try submit(request)
            },
        ]
    }

    private func submit(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = try FormParameters(body: request)
        let language = request.pageLanguage(uiLocales: try? form.optional("lang", maxLength: 8))
        guard let formToken = try? form.optional("csrf_token", maxLength: 128),
            authorization.isValidFormToken(formToken, csrfCookie: cookies.csrfValue(in: request))
        else {
            logger.info("enrolment_form_rejected", ["ip": .string(IPAddress.truncatedForLogs(request.clientIP))])
            return HTTPResponse(pages.message(language.catalogue.signInPage.expiredForm, language: language, status: 403))
        }
        switch try form.optional("step", maxLength: 16) {
        case "start":
            let email = try form.optional("email", maxLength: 320) ?? ""
            let password = try form.optionalSecret("password", maxLength: 4096) ?? Redacted("")
            let generated: AuthenticatorEnrolment.Generated
            do {
                generated = try enrolment.generate(email: email, password: password, clientIP: request.clientIP)
            } catch let error as LatchkeyError where error.code == .invalidCredentials || error.code == .rateLimited {
                let problem: SignInProblem =
                    error.code == .rateLimited ? .tooManyAttempts(retryAfter: error.retryAfter ?? 0) : .invalidCredentials
                return refusal(error, pages.start(formToken: formToken, language: language, email: email, problem: problem, status: error.httpStatus))
            } catch let error as LatchkeyError where error.code == .invalidRequest {
                return HTTPResponse(pages.message(language.catalogue.secondFactorPage.alreadyOn, language: language, status: 400))
            }
            let challenge = try challenges.start(generated.passwordStep, kind: .enrolment)
            return HTTPResponse(pages.confirm(
                formToken: formToken, challenge: challenge.exposed, secret: generated.secret.exposed,
                provisioningURL: generated.provisioningURL.exposed, language: language, problem: nil, status: 200))
        case "confirm":
            guard let (first, expiresAt) = try challenges.take(try form.optionalSecret("challenge", maxLength: 64), kind: .enrolment),
                let pending = try enrolment.pendingSecret(for: first.account)
            else {
                return HTTPResponse(pages.start(formToken: formToken, language: language, email: nil, problem: .secondFactorExpired, status: 401))
            }
            let code = try form.optionalSecret("code", maxLength: 64) ?? Redacted("")
            do {
                let codes = try enrolment.enable(
                    .byPasswordStep(accountID: first.account.id, credentialVersion: first.account.credentialVersion), account: first.account,
                    secret: nil, code: code, clientIP: request.clientIP, acceptLanguage: request.headers["Accept-Language"])
                return HTTPResponse(pages.enabled(recoveryCodes: codes.map(\.exposed), language: language))
            } catch let error as LatchkeyError where error.code == .invalidCredentials {
                // The password was reset or the account disabled since the password step: start again.
                return HTTPResponse(pages.start(formToken: formToken, language: language, email: nil, problem: .secondFactorExpired, status: 401))
            } catch let error as LatchkeyError where error.code == .invalidOTP || error.code == .rateLimited {
                let challenge = try challenges.start(first, kind: .enrolment, expiresAt: expiresAt)
                let problem: SignInProblem = error.code == .rateLimited ? .tooManyAttempts(retryAfter: error.retryAfter ?? 0) : .invalidCode
                return refusal(error, pages.confirm(
                    formToken: formToken, challenge: challenge.exposed, secret: pending.secret.exposed,
                    provisioningURL: pending.provisioningURL.exposed, language: language, problem: problem, status: error.httpStatus))
            }
        default:
            throw LatchkeyError(.invalidRequest, "The form is incomplete.")
        }
    }

    /// `page` as the answer to `error`, with its `Retry-After`.
    private func refusal(_ error: LatchkeyError, _ page: WebDocument) -> HTTPResponse {
        var response = HTTPResponse(page)
        if let retryAfter = error.retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }
}
