import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyWeb
import LatchkeyTestSupport
import Testing

/// Each language's catalogue, checked through the surfaces that show it. Every test iterates
/// `SupportedLanguage.allCases`, so a new language is checked as soon as it has a case.
@Suite struct LanguageCatalogueTests {
    /// The texts of one surface (every `String` field), by field name.
    static func texts(_ surface: Any) -> [(name: String, text: String)] {
        Mirror(reflecting: surface).children.compactMap { child in
            (child.value as? String).map { (child.label ?? "?", $0) }
        }
    }

    /// The texts of every surface of `language`'s catalogue, by surface and field name.
    static func allTexts(_ language: SupportedLanguage) -> [(name: String, text: String)] {
        Mirror(reflecting: language.catalogue).children.flatMap { surface in
            texts(surface.value).map { ("\(surface.label ?? "?").\($0.name)", $0.text) }
        }
    }

    @Test("every text of every surface is written out, without stray spaces", arguments: SupportedLanguage.allCases)
    func writtenOut(language: SupportedLanguage) {
        let texts = Self.allTexts(language)
        #expect(texts.count == Self.allTexts(.en).count)
        for (name, text) in texts {
            #expect(!text.isEmpty, "\(language).\(name) is empty")
            #expect(text == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(language).\(name) has stray spaces")
        }
    }

    @Test("no two languages share a catalogue")
    func catalogueIsTheLanguagesOwn() {
        for surface in ["resetPage.title", "signInPage.consentTitle", "passwordChangedMail.ifNotYou"] {
            let texts = SupportedLanguage.allCases.compactMap { language in Self.allTexts(language).first { $0.name == surface }?.text }
            #expect(Set(texts).count == SupportedLanguage.allCases.count, "\(surface) repeats across languages")
        }
    }

    @Test("both mails carry every text of their language", arguments: SupportedLanguage.allCases)
    func mails(language: SupportedLanguage) throws {
        let templates = MailTemplates()
        let reset = try templates.render(
            .passwordReset(link: Redacted("https://app.example.com/reset-password#token=t"), validMinutes: 30), to: "a@example.com",
            language: language, id: "r")
        let changed = try templates.render(
            .passwordChanged(resetPageURL: "https://app.example.com/reset-password", changedAt: Date()), to: "a@example.com",
            language: language, id: "c")
        let catalogue = language.catalogue
        for (message, texts) in [(reset, Self.texts(catalogue.passwordResetMail)), (changed, Self.texts(catalogue.passwordChangedMail))] {
            #expect(message.htmlBody.contains("<html lang=\"\(language.rawValue)\" dir=\"\(catalogue.direction.rawValue)\">"))
            for (name, text) in texts {
                #expect(message.htmlBody.contains(text.htmlEscaped), "\(language).\(name) is not in the mail \(message.subject)")
            }
        }
        #expect(reset.textBody.contains(catalogue.passwordResetMail.validity(30)))
    }

    @Test("the reset page carries every text of its language, in its direction", arguments: SupportedLanguage.allCases)
    func resetPage(language: SupportedLanguage) throws {
        let page = ResetPage(productName: "Acme").document(language: language)
        #expect(page.language == language)
        #expect(page.text.contains("<html lang=\"\(language.rawValue)\" dir=\"\(language.catalogue.direction.rawValue)\">"))
        // The script's messages are a JSON object in the page; the rest is HTML markup.
        let json = try #require(page.text.firstMatch(of: #/<script type="application/json" id="messages">(.*?)</script>/#)?.output.1)
        let messages = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
        for (name, text) in Self.texts(language.catalogue.resetPage) {
            #expect(page.text.contains(">\(text.htmlEscaped)<") || page.text.contains(">\(text.htmlEscaped) <")
                || messages.values.contains(text), "\(language).resetPage.\(name) is not on the page")
        }
        // The next step names the product: advice to sign in, or a button to the app.
        let product = language.isolated("Acme")
        #expect(page.text.contains(">\(language.catalogue.resetPage.signInNow(product).htmlEscaped)<"))
        let withApp = ResetPage(productName: "Acme", appURL: "https://app.example.com/open").document(language: language)
        #expect(withApp.text.contains(
            "<a class=\"button\" href=\"https://app.example.com/open\">\(language.catalogue.resetPage.continueTo(product).htmlEscaped)</a>"))
        // Too many attempts, and the words for every wait the script may need.
        #expect(messages["rate_limited"] == language.catalogue.rateLimit.tooMany)
        for wait in WaitTime.steps {
            #expect(messages["wait:\(wait.seconds)"] == language.catalogue.rateLimit.tryAgainIn(wait))
        }
    }

    @Test("the sign-in, consent and error pages carry every text of their language, in its direction",
          arguments: SupportedLanguage.allCases)
    func signInPages(language: SupportedLanguage) throws {
        let harness = try OAuthFlowTests.Harness()
        _ = try harness.clients.create(
            id: "partner", redirectURIs: ["https://partner.example/cb"], confidential: false, firstParty: false, scopes: [],
            now: harness.clock.now())
        let query = OAuthFlowTests.authorizationQuery(redirect: "https://partner.example/cb")
            .map { $0.0 == "client_id" ? ("client_id", "partner") : $0 }
        guard case .valid(let request) = try AuthorizationRequest.validate(
            { try FormParameters(query.map { (name: $0.0, value: $0.1) }) }, clients: harness.clients)
        else {
            Issue.record("the authorization request is not valid")
            return
        }
        let text = language.catalogue.signInPage
        let renderer = SignInPage(productName: "Acme")
        let pages = [
            renderer.signIn(request: request, formToken: "f", language: language, email: nil, problem: .invalidCredentials, status: 401),
            renderer.signIn(request: request, formToken: "f", language: language, email: nil, problem: .tooManyAttempts(retryAfter: 90), status: 429),
            renderer.consent(request: request, account: harness.account, formToken: "f", language: language),
            renderer.error(text.invalidRequest, detail: "The client is not registered.", language: language, status: 400),
            renderer.error(text.expiredForm, language: language, status: 403),
            renderer.error(text.tryAgainLater, title: text.unavailableTitle, language: language, status: 500),
            renderer.error(text.tryAgainInAMoment, title: text.unavailableTitle, language: language, status: 503),
        ]
        for page in pages {
            #expect(page.language == language)
            #expect(page.text.contains("<html lang=\"\(language.rawValue)\" dir=\"\(language.catalogue.direction.rawValue)\">"))
        }
        let all = pages.map(\.text).joined()
        for (name, text) in Self.texts(text) {
            #expect(all.contains(">\(text.htmlEscaped)<") || all.contains(">\(text.htmlEscaped) <") || all.contains("> \(text.htmlEscaped)<")
                    || all.contains(">\(text.htmlEscaped) (<bdi"),
                    "\(language).signInPage.\(name) is not on the pages")
        }
        #expect(all.contains(">\(language.catalogue.rateLimit.message(retryAfter: 90).htmlEscaped)<"))
        #expect(all.contains("> \(text.consentIntro(language.isolated("Acme")).htmlEscaped)<"))
    }
}
