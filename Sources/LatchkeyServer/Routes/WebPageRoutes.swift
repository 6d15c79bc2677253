import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyWeb

/// `GET /reset-password` (the page for people without the app), its script, the style sheet
/// every page links, the reset-token script other sites' reset pages may include, the pages
/// mailed links open (`/verify-email`, `/confirm-email`, `/undo-email-change`) with their script,
/// the sign-in page's passkey script, and the site icon.
struct WebPageRoutes {
    /// The reset page, with the product's name and where people go after a reset.
    let resetPage: ResetPage
    /// The pages mailed links open.
    let emailLinkPage: EmailLinkPage

    var routes: [Route] {
        let favicon = HTTPResponse(
            status: 200,
            headers: HTTPHeaders([("Content-Type", Favicon.contentType), ("Cache-Control", "public, max-age=86400")]),
            body: Favicon.data)
        return [
            Route("GET", "/reset-password", name: "reset_page") { request in
                HTTPResponse(resetPage.document(language: Self.language(of: request)))
            },
            Route("GET", "/assets/reset-password.js", name: "reset_script", cacheable: true) { _ in
                HTTPResponse(ResetPage.scriptDocument)
            },
            Route("GET", "/assets/latchkey.css", name: "stylesheet", cacheable: true) { _ in
                HTTPResponse(PageFrame.stylesheetDocument)
            },
            Route("GET", EmailLinkPage.Kind.verify.path, name: "verify_email_page") { request in
                HTTPResponse(emailLinkPage.document(.verify, language: Self.language(of: request)))
            },
            Route("GET", EmailLinkPage.Kind.confirm.path, name: "confirm_email_page") { request in
                HTTPResponse(emailLinkPage.document(.confirm, language: Self.language(of: request)))
            },
            Route("GET", EmailLinkPage.Kind.undo.path, name: "undo_email_change_page") { request in
                HTTPResponse(emailLinkPage.document(.undo, language: Self.language(of: request)))
            },
            Route("GET", EmailLinkPage.scriptPath, name: "email_link_script", cacheable: true) { _ in
                HTTPResponse(EmailLinkPage.scriptDocument)
            },
            Route("GET", PasskeySignInScript.path, name: "passkey_sign_in_script", cacheable: true) { _ in
                HTTPResponse(PasskeySignInScript.document)
            },
            // Meant for pages on other origins (an app's own reset page), so it may be loaded cross-origin.
            Route("GET", ResetTokenScript.path, name: "reset_token_script", cacheable: true) { _ in
                var response = HTTPResponse(ResetTokenScript.document)
                response.headers.set("Cross-Origin-Resource-Policy", "cross-origin")
                return response
            },
            // Every browser asks for it on its first visit to a page: answered from memory.
            Route("GET", "/favicon.ico", name: "favicon", cacheable: true, lane: .eventThread) { _ in favicon },
        ]
    }

    /// A page's language: `?lang=`, else `Accept-Language`'s, else English.
    private static func language(of request: HTTPRequest) -> SupportedLanguage {
        SupportedLanguage.negotiate(explicit: request.queryValue("lang"), acceptLanguage: request.headers["Accept-Language"], accountLocale: nil)
    }
}

extension HTTPResponse {
    /// The response that carries `document`: its status and media type, its CSP and language
    /// for a page, five minutes of caching for an asset.
    init(_ document: WebDocument) {
        self.init(status: document.status, headers: HTTPHeaders([("Content-Type", document.contentType)]), body: Data(document.text.utf8))
        if let policy = document.contentSecurityPolicy { headers.set("Content-Security-Policy", policy) }
        if let language = document.language {
            headers.set("Content-Language", language.rawValue)
        } else {
            headers.set("Cache-Control", "public, max-age=300")
        }
    }
}
