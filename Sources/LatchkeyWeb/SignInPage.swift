package import LatchkeyCore
import Foundation

/// The HTML pages of `/oauth/authorize`: sign-in, consent and error. Server-rendered, without
/// third-party assets, in the person's language, under a CSP that lets forms post only to this
/// origin and redirect only to the client's registered redirect URI. Only the sign-in form has
/// a script, this origin's file ``PasskeySignInScript`` (no inline script, no `eval`): it offers
/// "Sign in with a passkey" where the browser has WebAuthn; without it the form works as before.
///
/// Names and descriptions that come from elsewhere (the client's name, the operator's scope
/// descriptions, an English error detail) are isolated with `<bdi>`, so they keep their own
/// direction inside a sentence of any language.
package struct SignInPage: Sendable {
    /// The name people know the service by (`LATCHKEY_PRODUCT_NAME`).
    package let productName: String

    /// The pages of the product called `productName`.
    package init(productName: String) {
        self.productName = productName
    }

    /// The sign-in form for `request`; `problem` is shown above it (wrong credentials, too
    /// many attempts, a passkey not accepted), and for wrong credentials both fields are marked
    /// invalid and described by it.
    ///
    /// Below the form, hidden until ``PasskeySignInScript`` finds WebAuthn in the browser, the
    /// "Sign in with a passkey" button; the email field's `autocomplete="username webauthn"`
    /// lets the browser offer passkeys among its suggestions (conditional mediation). The
    /// script posts the passkey to this form's action with the form's hidden fields and
    /// `step=passkey`, so it carries the form token like every other post.
    package func signIn(
        request: AuthorizationRequest, formToken: String, language: SupportedLanguage, email: String?, problem: SignInProblem?,
        status: Int
    ) -> WebDocument {
        let text = language.catalogue.signInPage
        let problemText: String? =
            switch problem {
            case .invalidCredentials: text.invalidCredentials
            case .tooManyAttempts(let retryAfter): language.catalogue.rateLimit.message(retryAfter: retryAfter)
            case .invalidCode: language.catalogue.secondFactorPage.invalidCode
            case .secondFactorExpired: language.catalogue.secondFactorPage.expired
            case .passkeyNotAccepted: language.catalogue.passkeySignIn.notAccepted
            case nil: nil
            }
        let passkey = language.catalogue.passkeySignIn
        let fieldState = problem == .invalidCredentials ? #" aria-invalid="true" aria-describedby="problem""# : ""
        let body = """
            <h1>\(text.signInTitle.htmlEscaped)</h1>
            <p>\(text.signInTo.htmlEscaped) <strong><bdi>\(request.client.shownName.htmlEscaped)</bdi></strong></p>
            \(problemText.map { "<p id=\"problem\" class=\"problem\" role=\"alert\">\($0.htmlEscaped)</p>" } ?? "")
            <form id="sign-in" method="post" action="/oauth/authorize">
            \(Self.hiddenFields(request, formToken: formToken, step: "sign_in"))
              <label for="email">\(text.emailLabel.htmlEscaped)</label>
              <input id="email" name="email" type="email" autocomplete="username webauthn" required maxlength="320" dir="ltr" value="\((email ?? request.loginHint ?? "").htmlEscaped)"\(fieldState)>
              <label for="password">\(text.passwordLabel.htmlEscaped)</label>
              <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="4096"\(fieldState)>
              <button type="submit">\(text.signIn.htmlEscaped)</button>
            </form>
            <div id="passkey" hidden>
              <p class="or">\(passkey.or.htmlEscaped)</p>
              <button type="button" id="passkey-button" class="secondary">\(passkey.signInWithPasskey.htmlEscaped)</button>
              <p id="status" role="status" aria-live="polite"></p>
            </div>
            <p class="links"><a href="/reset-password?lang=\(language.rawValue)">\(text.forgotPassword.htmlEscaped)</a></p>
            """
        let scripts = """
            <script type="application/json" id="passkey-messages">\(PasskeySignInScript.messagesJSON(language: language))</script>
            <script src="\(PasskeySignInScript.path)"></script>

            """
        return .html(
            PageFrame.html(title: text.signInTitle, productName: productName, language: language, body: body, scripts: scripts),
            status: status, language: language,
            contentSecurityPolicy: Self.contentSecurityPolicy(redirectURI: request.redirectURI, script: true))
    }

    /// The consent form: `request.client` (by its display name) asks for `request.scope` (each
    /// by what it lets the client do) on behalf of `account`. Besides allow and deny, its third
    /// button ("Not you?", `decision=switch_account`) signs the browser out and shows the
    /// sign-in form again.
    package func consent(
        request: AuthorizationRequest, account: Account, formToken: String, language: SupportedLanguage
    ) -> WebDocument {
        let text = language.catalogue.signInPage
        let scopes = request.scope.isEmpty ? "" : """
            <p>\(text.scopesIntro.htmlEscaped)</p>
            <ul class="scopes">\(request.scope.map { "<li>\(Self.scopeItem($0, client: request.client, text: text))</li>" }.joined())</ul>
            """
        let body = """
            <h1>\(text.consentTitle.htmlEscaped)</h1>
            <p id="consent-intro"><strong><bdi>\(request.client.shownName.htmlEscaped)</bdi></strong> \(text.consentIntro(language.isolated(productName)).htmlEscaped)</p>
            <p>\(text.signedInAs.htmlEscaped) <strong dir="ltr">\(account.email.htmlEscaped)</strong></p>
            \(scopes)
            <form method="post" action="/oauth/authorize">
            \(Self.hiddenFields(request, formToken: formToken, step: "consent"))
              <button type="submit" name="decision" value="allow">\(text.allow.htmlEscaped)</button>
              <button type="submit" name="decision" value="deny" class="secondary">\(text.deny.htmlEscaped)</button>
              <p class="not-you"><span>\(text.notYou.htmlEscaped)</span> <button type="submit" name="decision" value="switch_account" class="link">\(text.useAnotherAccount.htmlEscaped)</button></p>
            </form>
            """
        return page(title: text.consentTitle, body: body, language: language, status: 200, redirectURI: request.redirectURI)
    }

    /// An error page that sends the person back to the app; never a redirect. `detail` (the
    /// English reason, for the app's developer) follows the message in parentheses, isolated.
    /// `title` replaces the usual one (the link does not work), e.g. when the fault is the server's.
    package func error(_ message: String, title: String? = nil, detail: String? = nil, language: SupportedLanguage, status: Int) -> WebDocument {
        let text = language.catalogue.signInPage
        let detailMarkup = detail.map { " (<bdi dir=\"ltr\" lang=\"en\">\($0.htmlEscaped)</bdi>)" } ?? ""
        let body = """
            <h1>\((title ?? text.errorTitle).htmlEscaped)</h1>
            <p id="problem" class="problem" role="alert">\(message.htmlEscaped)\(detailMarkup)</p>
            """
        return page(title: title ?? text.errorTitle, body: body, language: language, status: status, redirectURI: nil)
    }

    /// What `scope` lets the client do: the client's own description, else the catalogue's
    /// for a standard scope, else the scope's id as code.
    private static func scopeItem(_ scope: String, client: OAuthClient, text: SignInPageText) -> String {
        if let description = client.scopeDescriptions[scope] { return "<bdi>\(description.htmlEscaped)</bdi>" }
        switch scope {
        case "openid": return text.openidScope.htmlEscaped
        case "email": return text.emailScope.htmlEscaped
        default: return "<code dir=\"ltr\">\(scope.htmlEscaped)</code>"
        }
    }

    static func hiddenFields(_ request: AuthorizationRequest, formToken: String, step: String) -> String {
        (request.formFields + [("csrf_token", formToken), ("step", step)])
            .map { "  <input type=\"hidden\" name=\"\($0.name.htmlEscaped)\" value=\"\($0.value.htmlEscaped)\">" }
            .joined(separator: "\n")
    }

    func page(title: String, body: String, language: SupportedLanguage, status: Int, redirectURI: String?) -> WebDocument {
        .html(
            PageFrame.html(title: title, productName: productName, language: language, body: body), status: status,
            language: language, contentSecurityPolicy: Self.contentSecurityPolicy(redirectURI: redirectURI))
    }

    /// Browsers apply `form-action` to the redirect that follows a form post too, so the
    /// client's redirect URI (its origin, or its scheme for a private-use scheme) is allowed.
    /// A CSP source cannot name an IPv6 literal (CSP3 `host-part`), so `http:`/`https:` stands for one.
    /// With `script`, this origin's script files may run and call this origin (`script-src
    /// 'self'; connect-src 'self'`): never an inline script, `eval` or another origin's.
    package static func contentSecurityPolicy(redirectURI: String?, script: Bool = false) -> String {
        var formAction = "'self'"
        if let redirectURI, let target = try? RedirectURI(redirectURI) {
            switch target.kind {
            case .privateUseScheme:
                formAction += " " + (redirectURI.split(separator: ":", maxSplits: 1).first.map { $0 + ":" } ?? "")
            case .loopback:
                formAction += redirectURI.hasPrefix("http://[::1]") ? " http:" : " http://127.0.0.1:*"
            case .https:
                if redirectURI.hasPrefix("https://[") {
                    formAction += " https:"
                } else if let url = URL(string: redirectURI), let host = url.host {
                    formAction += " https://\(host)\(url.port.map { ":\($0)" } ?? "")"
                }
            }
        }
        let scripts = script ? " script-src 'self'; connect-src 'self';" : ""
        return "default-src 'none';\(scripts) style-src 'self'; img-src 'self'; form-action \(formAction); frame-ancestors 'none'; base-uri 'none'"
    }
}
