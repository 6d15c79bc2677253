package import LatchkeyCore

/// A page or asset the web layer produced: what to send, not how. The application's routes
/// turn it into an HTTP response (status, `Content-Type`, CSP, `Content-Language`).
package struct WebDocument: Sendable, Equatable {
    /// The status the page stands for: 200, or the error it explains (400, 401, 403, 429…).
    package var status: Int
    /// The media type with its charset, e.g. `text/html; charset=utf-8`.
    package var contentType: String
    /// The document's text.
    package var text: String
    /// The page's Content-Security-Policy; nil for assets (the server's default then applies).
    package var contentSecurityPolicy: String?
    /// The language the page is written in; nil for assets.
    package var language: SupportedLanguage?

    /// An HTML page in `language` under `contentSecurityPolicy`.
    package static func html(_ text: String, status: Int = 200, language: SupportedLanguage, contentSecurityPolicy: String)
        -> WebDocument
    {
        WebDocument(
            status: status, contentType: "text/html; charset=utf-8", text: text,
            contentSecurityPolicy: contentSecurityPolicy, language: language)
    }

    /// A static asset (script or style sheet) of media type `contentType`.
    package static func asset(_ text: String, contentType: String) -> WebDocument {
        WebDocument(status: 200, contentType: contentType, text: text, contentSecurityPolicy: nil, language: nil)
    }
}
