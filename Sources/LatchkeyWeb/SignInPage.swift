package import LatchkeyCore
import Foundation

/// The HTML pages of `/oauth/authorize`: sign-in, consent and error. Server-rendered,
/// without scripts or third-party assets, in the person's language, under a CSP that lets
/// forms post only to this origin and redirect only to the client's registered redirect URI.
package enum SignInPage {
    /// The sign-in form for `request`; `problem` is shown above it (wrong credentials, too many attempts).
    package static func signIn(
        request: AuthorizationRequest, formToken: String, language: SupportedLanguage, email: String?, problem: String?,
        status: Int
    ) -> WebDocument {
        let text = language.catalogue.signInPage
        let body = """
            <h1>\(text.signInTitle.htmlEscaped)</h1>
            <p>\(text.signInTo.htmlEscaped) <strong dir="ltr">\(request.client.id.htmlEscaped)</strong></p>
            \(problem.map { "<p class=\"problem\" role=\"alert\">\($0.htmlEscaped)</p>" } ?? "")
            <form method="post" action="/oauth/authorize">
            \(hiddenFields(request, formToken: formToken, step: "sign_in"))
              <label for="email">\(text.emailLabel.htmlEscaped)</label>
              <input id="email" name="email" type="email" autocomplete="username" required maxlength="320" dir="ltr" value="\((email ?? request.loginHint ?? "").htmlEscaped)">
              <label for="password">\(text.passwordLabel.htmlEscaped)</label>
              <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="4096">
              <button type="submit">\(text.signIn.htmlEscaped)</button>
            </form>
            <p class="links"><a href="/reset-password?lang=\(language.rawValue)">\(text.forgotPassword.htmlEscaped)</a></p>
            """
        return page(title: text.signInTitle, body: body, language: language, status: status, redirectURI: request.redirectURI)
    }

    /// The consent form: `request.client` asks for `request.scope` on behalf of `account`.
    package static func consent(
        request: AuthorizationRequest, account: Account, formToken: String, language: SupportedLanguage
    ) -> WebDocument {
        let text = language.catalogue.signInPage
        let scopes = request.scope.isEmpty ? "" : """
            <p>\(text.scopesIntro.htmlEscaped)</p>
            <ul>\(request.scope.map { "<li dir=\"ltr\">\($0.htmlEscaped)</li>" }.joined())</ul>
            """
        let body = """
            <h1>\(text.consentTitle.htmlEscaped)</h1>
            <p><strong dir="ltr">\(request.client.id.htmlEscaped)</strong> \(text.consentIntro.htmlEscaped)</p>
            <p>\(text.signedInAs.htmlEscaped) <strong dir="ltr">\(account.email.htmlEscaped)</strong></p>
            \(scopes)
            <form method="post" action="/oauth/authorize">
            \(hiddenFields(request, formToken: formToken, step: "consent"))
              <button type="submit" name="decision" value="allow">\(text.allow.htmlEscaped)</button>
              <button type="submit" name="decision" value="deny" class="secondary">\(text.deny.htmlEscaped)</button>
            </form>
            """
        return page(title: text.consentTitle, body: body, language: language, status: 200, redirectURI: request.redirectURI)
    }

    /// An error page that sends the person back to the app; never a redirect.
    package static func error(_ message: String, language: SupportedLanguage, status: Int) -> WebDocument {
        let text = language.catalogue.signInPage
        let body = """
            <h1>\(text.errorTitle.htmlEscaped)</h1>
            <p class="problem" role="alert">\(message.htmlEscaped)</p>
            """
        return page(title: text.errorTitle, body: body, language: language, status: status, redirectURI: nil)
    }

    private static func hiddenFields(_ request: AuthorizationRequest, formToken: String, step: String) -> String {
        (request.formFields + [("csrf_token", formToken), ("step", step)])
            .map { "  <input type=\"hidden\" name=\"\($0.name.htmlEscaped)\" value=\"\($0.value.htmlEscaped)\">" }
            .joined(separator: "\n")
    }

    private static func page(title: String, body: String, language: SupportedLanguage, status: Int, redirectURI: String?)
        -> WebDocument
    {
        let html = """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)" dir="\(language.direction)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(title.htmlEscaped)</title>
            <link rel="stylesheet" href="/assets/latchkey.css">
            </head>
            <body>
            <main>
            \(body)
            </main>
            </body>
            </html>
            """
        return .html(html, status: status, language: language, contentSecurityPolicy: contentSecurityPolicy(redirectURI: redirectURI))
    }

    /// Browsers apply `form-action` to the redirect that follows a form post too, so the
    /// client's redirect URI (its origin, or its scheme for a private-use scheme) is allowed.
    /// A CSP source cannot name an IPv6 literal (CSP3 `host-part`), so `http:`/`https:` stands for one.
    package static func contentSecurityPolicy(redirectURI: String?) -> String {
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
        return "default-src 'none'; style-src 'self'; img-src 'self'; form-action \(formAction); frame-ancestors 'none'; base-uri 'none'"
    }
}
