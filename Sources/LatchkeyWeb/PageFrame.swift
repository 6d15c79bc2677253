import LatchkeyCore

/// What every page shares: the document around its content (language and direction, the
/// viewport for phones, no referrer, the style sheet, the product's name above the content),
/// and that style sheet.
package enum PageFrame {
    /// The style sheet every page links (`/assets/latchkey.css`).
    package static let stylesheetDocument = WebDocument.asset(stylesheet, contentType: "text/css; charset=utf-8")

    /// A whole HTML page in `language` titled `title`, with `productName` above `body`, and
    /// `scripts` (markup: only `<script src>` and JSON data blocks, as the CSP allows) after it.
    static func html(title: String, productName: String, language: SupportedLanguage, body: String, scripts: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="\(language.rawValue)" dir="\(language.direction)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>\((title + " · " + language.isolated(productName)).htmlEscaped)</title>
        <link rel="stylesheet" href="/assets/latchkey.css">
        </head>
        <body>
        <main>
        <p class="brand"><bdi>\(productName.htmlEscaped)</bdi></p>
        \(body)
        </main>
        \(scripts)</body>
        </html>
        """
    }

    /// Colours meet WCAG 2.1: text 4.5:1 or more, input borders and focus rings 3:1 or more
    /// against the white card (1.4.11). The card keeps a margin from the screen's edges on a
    /// phone; lists and alignment follow the page's direction (logical properties only).
    static let stylesheet = """
    *, *::before, *::after { box-sizing: border-box; }
    body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; padding: 1rem; background: #f5f5f7; color: #1d1d1f; line-height: 1.45; }
    main { max-width: 26rem; margin: 1rem auto; padding: 1.5rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.1); }
    @media (min-width: 40rem) { main { margin-top: 3rem; padding: 2rem; } }
    .brand { margin: 0 0 .4rem; font-weight: 700; color: #3a3a3c; }
    h1 { font-size: 1.4rem; margin-top: 0; }
    label { display: block; margin: 1rem 0 .3rem; font-weight: 600; }
    input { width: 100%; padding: .6rem; font-size: 1rem; color: inherit; background: #fff; border: 1px solid #6e6e73; border-radius: 8px; }
    input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid #0a63c9; outline-offset: 2px; }
    input[aria-invalid="true"] { border: 2px solid #b3261e; }
    .hint, .field-error { margin: .35rem 0 0; font-size: .9rem; }
    .hint { color: #48484a; }
    .field-error { color: #8a1c12; font-weight: 600; }
    button, a.button { display: block; margin-top: 1.2rem; width: 100%; padding: .7rem; font-size: 1rem; text-align: center; text-decoration: none; border: 0; border-radius: 8px; background: #0a63c9; color: #fff; cursor: pointer; }
    button:disabled { opacity: .6; cursor: progress; }
    button.secondary { background: #e5e5ea; color: #1d1d1f; }
    button.link { display: inline; width: auto; margin: 0; padding: 0; background: none; color: #0a63c9; text-decoration: underline; font-size: inherit; }
    a { color: #0a63c9; }
    #status:empty { display: none; }
    #status { padding: .7rem; border-radius: 8px; background: #eef4fb; }
    #status.error, .problem { padding: .7rem; border-radius: 8px; background: #fdecea; color: #8a1c12; }
    .scopes { margin: .5rem 0 0; padding-inline-start: 1.5rem; }
    .scopes li { margin: .25rem 0; }
    .links, .not-you { margin-top: 1.2rem; text-align: center; }
    .or { margin: 1.2rem 0 0; text-align: center; color: #48484a; }
    #passkey #status { margin-top: 1rem; }
    .qr-code { text-align: center; }
    .qr-code svg { max-width: 100%; height: auto; }
    .secret code, .recovery-codes code { font-size: 1.1rem; letter-spacing: .05em; }
    .recovery-codes { columns: 2; padding-inline-start: 1.5rem; }
    """
}
