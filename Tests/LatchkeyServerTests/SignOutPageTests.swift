import Foundation
@testable import LatchkeyCore
import LatchkeyServer
import LatchkeyWeb
import LatchkeyTestSupport
import Testing

/// The pages of `/oauth/logout` in every language: each carries the texts of its language, in
/// its direction, and only the confirmation's form may lead to the client's post-logout URI.
@Suite struct SignOutPageTests {
    @Test("the sign-out question, the signed-out page and the error pages carry every text of their language, in its direction",
          arguments: SupportedLanguage.allCases)
    func everyText(language: SupportedLanguage) throws {
        let harness = try SignOutFlowTests.harness()
        let request = try LogoutRequest.validate(
            try FormParameters([
                (name: "client_id", value: "notes"), (name: "post_logout_redirect_uri", value: SignOutFlowTests.signedOutURI),
                (name: "state", value: "s"),
            ]),
            clients: harness.clients, tokens: harness.app.tokens)
        let text = language.catalogue.signOutPage
        let renderer = SignOutPage(productName: "Acme")
        let confirm = renderer.confirm(request: request, account: harness.account, formToken: "f", language: language)
        let pages = [
            confirm,
            renderer.signedOut(language: language),
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
        for (name, text) in LanguageCatalogueTests.texts(text) {
            #expect(all.contains(">\(text.htmlEscaped)<") || all.contains(">\(text.htmlEscaped) (<bdi"),
                    "\(language).signOutPage.\(name) is not on the pages")
        }
        let product = language.isolated("Acme")
        #expect(confirm.text.contains("<p>\(text.confirmIntro(product).htmlEscaped)</p>"))
        #expect(all.contains("<p>\(text.signedOutBody(product).htmlEscaped)</p>"))
        #expect(confirm.text.contains(">\(language.catalogue.signInPage.signedInAs.htmlEscaped) <strong dir=\"ltr\">person@example.com</strong>"))

        #expect(confirm.contentSecurityPolicy?.contains("form-action 'self' com.example.notes:;") == true)
        for page in pages.dropFirst() {
            #expect(page.contentSecurityPolicy?.contains("form-action 'self';") == true)
        }
    }

    @Test("each language says sign-out in its own words")
    func ownWords() {
        for field in [\SignOutPageText.confirmTitle, \.signedOutTitle, \.errorTitle] {
            let texts = SupportedLanguage.allCases.map { $0.catalogue.signOutPage[keyPath: field] }
            #expect(Set(texts).count == SupportedLanguage.allCases.count)
        }
    }
}
