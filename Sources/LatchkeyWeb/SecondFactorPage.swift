package import LatchkeyCore

extension SignInPage {
    /// The sign-in's code step, after a right password for an account with a second factor: one
    /// field for the authenticator app's code or a recovery code, with the challenge that binds
    /// it to the password step (`challenge`, a hidden field) and the form token, so it posts
    /// like every other form of `/oauth/authorize`. `problem` (a wrong code, too many) is shown
    /// above it; a wrong code marks the field.
    package func secondFactor(
        request: AuthorizationRequest, formToken: String, challenge: String, language: SupportedLanguage, problem: SignInProblem?,
        status: Int
    ) -> WebDocument {
        let text = language.catalogue.secondFactorPage
        let problemText = problem?.codePageText(in: language)
        let fieldState = problemText == nil ? #" aria-describedby="hint""# : #" aria-invalid="true" aria-describedby="problem hint""#
        let body = """
            <h1>\(text.codeTitle.htmlEscaped)</h1>
            <p>\(text.codeIntro(language.isolated(productName)).htmlEscaped)</p>
            \(problemText.map { "<p id=\"problem\" class=\"problem\" role=\"alert\">\($0.htmlEscaped)</p>" } ?? "")
            <form method="post" action="/oauth/authorize">
            \(Self.hiddenFields(request, formToken: formToken, step: "second_factor"))
              <input type="hidden" name="challenge" value="\(challenge.htmlEscaped)">
              <label for="code">\(text.codeLabel.htmlEscaped)</label>
              <input id="code" name="code" type="text" inputmode="text" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" required maxlength="64" dir="ltr" autofocus\(fieldState)>
              <p id="hint" class="hint">\(text.recoveryHint.htmlEscaped)</p>
              <button type="submit">\(text.verify.htmlEscaped)</button>
            </form>
            """
        return page(title: text.codeTitle, body: body, language: language, status: status, redirectURI: request.redirectURI)
    }
}
