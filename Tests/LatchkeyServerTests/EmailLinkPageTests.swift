import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyServer
import LatchkeyWeb
import LatchkeyTestSupport
import Testing

/// `GET /verify-email`, `/confirm-email` and `/undo-email-change`: in every language, with every
/// text of their surface, under the pages' strict policy, and the script they load.
@Suite struct EmailLinkPageTests {
    @Test("the three pages carry every text of their language, in its direction, under a strict CSP", arguments: SupportedLanguage.allCases)
    func pages(language: SupportedLanguage) throws {
        let app = try makeApplication()
        var pages: [String] = []
        for kind in EmailLinkPage.Kind.allCases {
            let response = app.router.handle(HTTPRequest(method: "GET", path: kind.path, query: [(name: "lang", value: language.rawValue)]))
            #expect(response.status == 200)
            #expect(response.headers["Content-Language"] == language.rawValue)
            #expect(response.headers["Content-Security-Policy"]?.contains("script-src 'self'") == true)
            #expect(response.headers["Cache-Control"] == "no-store")
            let page = String(decoding: response.body, as: UTF8.self)
            #expect(page.contains("<html lang=\"\(language.rawValue)\" dir=\"\(language.catalogue.direction.rawValue)\">"))
            #expect(page.contains("<script src=\"\(EmailLinkPage.scriptPath)\"></script>"))
            pages.append(page)
        }
        let all = pages.joined()
        for (name, text) in LanguageCatalogueTests.texts(language.catalogue.emailLinkPages) {
            #expect(all.contains(text.htmlEscaped) || all.contains(text), "\(language).emailLinkPages.\(name) is not on the pages")
        }
        #expect(pages[0].contains("data-api=\"/users/register/verify-email\""))
        #expect(pages[1].contains("data-api=\"/users/email/confirm\""))
        #expect(pages[2].contains("data-api=\"/users/email/undo\""))
        #expect(pages[2].contains("href=\"/reset-password?lang=\(language.rawValue)\""))
        #expect(!pages[0].contains("/reset-password") && !pages[1].contains("/reset-password"))
    }

    @Test("the page follows Accept-Language without ?lang=, and its script is served to this origin only")
    func languageAndScript() throws {
        let app = try makeApplication()
        let page = app.router.handle(HTTPRequest(
            method: "GET", path: "/undo-email-change", headers: HTTPHeaders([("Accept-Language", "pt-BR,pt;q=0.9")])))
        #expect(page.headers["Content-Language"] == "pt")
        let script = app.router.handle(HTTPRequest(method: "GET", path: EmailLinkPage.scriptPath))
        #expect(script.status == 200)
        #expect(script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(script.headers["Cross-Origin-Resource-Policy"] == "same-origin")
        #expect(String(decoding: script.body, as: UTF8.self).contains("history.replaceState"))
    }

    @Test("a new account's page leads on to the app when LATCHKEY_APP_URL is set, and says it is ready in the product's name")
    func verifyLeadsToTheApp() throws {
        let app = try makeApplication(["LATCHKEY_APP_URL": "https://app.example.com/welcome", "LATCHKEY_PRODUCT_NAME": "Acme"])
        let page = String(decoding: app.router.handle(HTTPRequest(method: "GET", path: "/verify-email")).body, as: UTF8.self)
        #expect(page.contains(#"<a class="button" href="https://app.example.com/welcome">Continue to Acme</a>"#))
        #expect(page.contains("your Acme account is ready"))
        let plain = String(decoding: try makeApplication().router.handle(HTTPRequest(method: "GET", path: "/verify-email")).body, as: UTF8.self)
        #expect(!plain.contains("next-step"))
    }
}
