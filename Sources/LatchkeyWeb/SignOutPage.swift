package import LatchkeyCore

/// The HTML pages of `/oauth/logout`: the question whether to sign out (a form with the CSRF
/// form token, like the sign-in pages), the page after signing out, and errors. Server-rendered,
/// without scripts, in the person's language, under a CSP that lets the form post only to this
/// origin and redirect only to the client's registered post-logout redirect URI.
package struct SignOutPage: Sendable {
    /// The name people know the service by (`LATCHKEY_PRODUCT_NAME`).
    package let productName: String

    /// The pages of the product called `productName`.
    package init(productName: String) {
        self.productName = productName
    }

    /// Asks whether to sign this browser out, showing the signed-in `account` when there is one;
    /// its one button posts `request`'s parameters back with the form token.
    package func confirm(request: LogoutRequest, account: Account?, formToken: String, language: SupportedLanguage) -> WebDocument {
        let text = language.catalogue.signOutPage
        let signedInAs = account.map {
            "<p>\(language.catalogue.signInPage.signedInAs.htmlEscaped) <strong dir=\"ltr\">\($0.email.htmlEscaped)</strong></p>"
        }
        let fields = (request.formFields + [("csrf_token", formToken), ("step", "sign_out")])
            .map { "  <input type=\"hidden\" name=\"\($0.name.htmlEscaped)\" value=\"\($0.value.htmlEscaped)\">" }
            .joined(separator: "\n")
        let body = """
            <h1>\(text.confirmTitle.htmlEscaped)</h1>
            <p>\(text.confirmIntro(language.isolated(productName)).htmlEscaped)</p>
            \(signedInAs ?? "")
            <form method="post" action="/oauth/logout">
            \(fields)
              <button type="submit">\(text.signOut.htmlEscaped)</button>
            </form>
            """
        return page(title: text.confirmTitle, body: body, language: language, status: 200, redirectURI: request.postLogoutRedirectURI)
    }

    /// The page after signing out, when the app named no post-logout redirect URI.
    package func signedOut(language: SupportedLanguage) -> WebDocument {
        let text = language.catalogue.signOutPage
        let body = """
            <h1>\(text.signedOutTitle.htmlEscaped)</h1>
            <p>\(text.signedOutBody(language.isolated(productName)).htmlEscaped)</p>
            """
        return page(title: text.signedOutTitle, body: body, language: language, status: 200, redirectURI: nil)
    }

    /// An error page; never a redirect. `detail` (the English reason, for the app's developer)
    /// follows the message in parentheses, isolated.
    /// `title` replaces the usual one (the link does not work), e.g. when the fault is the server's.
    package func error(_ message: String, title: String? = nil, detail: String? = nil, language: SupportedLanguage, status: Int) -> WebDocument {
        let text = language.catalogue.signOutPage
        let detailMarkup = detail.map { " (<bdi dir=\"ltr\" lang=\"en\">\($0.htmlEscaped)</bdi>)" } ?? ""
        let body = """
            <h1>\((title ?? text.errorTitle).htmlEscaped)</h1>
            <p id="problem" class="problem" role="alert">\(message.htmlEscaped)\(detailMarkup)</p>
            """
        return page(title: title ?? text.errorTitle, body: body, language: language, status: status, redirectURI: nil)
    }

    private func page(title: String, body: String, language: SupportedLanguage, status: Int, redirectURI: String?) -> WebDocument {
        .html(
            PageFrame.html(title: title, productName: productName, language: language, body: body), status: status,
            language: language, contentSecurityPolicy: SignInPage.contentSecurityPolicy(redirectURI: redirectURI))
    }
}
