package import LatchkeyCore

/// The enrolment page (`/oauth/two-step-sign-in`): a person turns two-step sign-in on from a browser.
/// Server-rendered, without scripts, under the sign-in pages' CSP; every form carries the form
/// token bound to the browser's CSRF cookie.
///
/// Three steps: the address and password (checked as a sign-in); the authenticator secret as a
/// QR code made on the server (an inline SVG), as an `otpauth://` link that opens the app on this
/// device (Apple's Passwords app on iOS), and written out, with a field for the code the app
/// then shows (the page carries a challenge instead of the password); and the recovery codes,
/// shown once.
package struct EnrolmentPage: Sendable {
    /// The name people know the service by (`LATCHKEY_PRODUCT_NAME`).
    package let productName: String

    /// The pages of the product called `productName`.
    package init(productName: String) {
        self.productName = productName
    }

    /// The first step: address and password. `problem` (wrong credentials, too many attempts,
    /// took too long) is shown above the form.
    package func start(formToken: String, language: SupportedLanguage, email: String?, problem: SignInProblem?, status: Int) -> WebDocument {
        let signIn = language.catalogue.signInPage
        let text = language.catalogue.secondFactorPage
        let problemText: String? =
            switch problem {
            case .invalidCredentials: signIn.invalidCredentials
            case .tooManyAttempts(let retryAfter): language.catalogue.rateLimit.message(retryAfter: retryAfter)
            case .secondFactorExpired: text.expired
            case .invalidCode: text.invalidCode
            case .passkeyNotAccepted: language.catalogue.passkeySignIn.notAccepted
            case nil: nil
            }
        let fieldState = problem == .invalidCredentials ? #" aria-invalid="true" aria-describedby="problem""# : ""
        let body = """
            <h1>\(text.enrolTitle.htmlEscaped)</h1>
            <p>\(text.enrolStart.htmlEscaped)</p>
            \(problemText.map { "<p id=\"problem\" class=\"problem\" role=\"alert\">\($0.htmlEscaped)</p>" } ?? "")
            <form method="post" action="/oauth/two-step-sign-in">
              <input type="hidden" name="csrf_token" value="\(formToken.htmlEscaped)">
              <input type="hidden" name="step" value="start">
              <input type="hidden" name="lang" value="\(language.rawValue)">
              <label for="email">\(signIn.emailLabel.htmlEscaped)</label>
              <input id="email" name="email" type="email" autocomplete="username" required maxlength="320" dir="ltr" value="\((email ?? "").htmlEscaped)"\(fieldState)>
              <label for="password">\(signIn.passwordLabel.htmlEscaped)</label>
              <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="4096"\(fieldState)>
              <button type="submit">\(text.continueButton.htmlEscaped)</button>
            </form>
            """
        return page(title: text.enrolTitle, body: body, language: language, status: status)
    }

    /// The second step: the QR code of `provisioningURL`, the link, the `secret` written out,
    /// and the code field, with `challenge` standing for the password step.
    package func confirm(
        formToken: String, challenge: String, secret: String, provisioningURL: String, language: SupportedLanguage,
        problem: SignInProblem?, status: Int
    ) -> WebDocument {
        let text = language.catalogue.secondFactorPage
        let problemText = problem?.codePageText(in: language)
        let qr = (try? QRCode(provisioningURL))?.svg(label: text.openInApp) ?? ""
        let grouped = stride(from: 0, to: secret.count, by: 4).map { offset -> String in
            let start = secret.index(secret.startIndex, offsetBy: offset)
            return String(secret[start..<(secret.index(start, offsetBy: 4, limitedBy: secret.endIndex) ?? secret.endIndex)])
        }.joined(separator: " ")
        let fieldState = problemText == nil ? "" : #" aria-invalid="true" aria-describedby="problem""#
        let body = """
            <h1>\(text.enrolTitle.htmlEscaped)</h1>
            <p>\(text.scanIntro.htmlEscaped)</p>
            <p class="qr-code">\(qr)</p>
            <p class="links"><a href="\(provisioningURL.htmlEscaped)" dir="ltr">\(text.openInApp.htmlEscaped)</a></p>
            <p>\(text.typeKey.htmlEscaped)</p>
            <p class="secret"><code dir="ltr">\(grouped.htmlEscaped)</code></p>
            \(problemText.map { "<p id=\"problem\" class=\"problem\" role=\"alert\">\($0.htmlEscaped)</p>" } ?? "")
            <form method="post" action="/oauth/two-step-sign-in">
              <input type="hidden" name="csrf_token" value="\(formToken.htmlEscaped)">
              <input type="hidden" name="step" value="confirm">
              <input type="hidden" name="lang" value="\(language.rawValue)">
              <input type="hidden" name="challenge" value="\(challenge.htmlEscaped)">
              <p>\(text.confirmIntro.htmlEscaped)</p>
              <label for="code">\(text.codeLabel.htmlEscaped)</label>
              <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="64" dir="ltr"\(fieldState)>
              <button type="submit">\(text.turnOn.htmlEscaped)</button>
            </form>
            """
        return page(title: text.enrolTitle, body: body, language: language, status: status)
    }

    /// The last step: two-step sign-in is on; the recovery codes, shown once.
    package func enabled(recoveryCodes: [String], language: SupportedLanguage) -> WebDocument {
        let text = language.catalogue.secondFactorPage
        let body = """
            <h1>\(text.enabledTitle.htmlEscaped)</h1>
            <p>\(text.recoveryCodesIntro.htmlEscaped)</p>
            <ul class="recovery-codes" dir="ltr">\(recoveryCodes.map { "<li><code>\($0.htmlEscaped)</code></li>" }.joined())</ul>
            """
        return page(title: text.enabledTitle, body: body, language: language, status: 200)
    }

    /// A message instead of the form (the account has two-step sign-in already), with `status`.
    package func message(_ message: String, language: SupportedLanguage, status: Int) -> WebDocument {
        let text = language.catalogue.secondFactorPage
        let body = """
            <h1>\(text.enrolTitle.htmlEscaped)</h1>
            <p id="problem" class="problem" role="alert">\(message.htmlEscaped)</p>
            """
        return page(title: text.enrolTitle, body: body, language: language, status: status)
    }

    private func page(title: String, body: String, language: SupportedLanguage, status: Int) -> WebDocument {
        .html(
            PageFrame.html(title: title, productName: productName, language: language, body: body), status: status,
            language: language, contentSecurityPolicy: SignInPage.contentSecurityPolicy(redirectURI: nil))
    }
}
