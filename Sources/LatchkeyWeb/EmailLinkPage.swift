package import LatchkeyCore
import Foundation

/// A page a mailed link opens to confirm something with one request — the confirmation of a
/// new account's address (`/verify-email`) — and its script (`/assets/email-link.js`).
///
/// The token travels in the URL fragment, which browsers never send to the server, so it
/// reaches no server log, proxy or `Referer`, and a mail scanner that fetches the link spends
/// nothing: only the script, run by a person's browser, sends the token, in a `POST` body. The
/// script removes it from the address bar first, sends it once, and shows the outcome in the
/// page's language: done (with a way on to the app, `LATCHKEY_APP_URL`), the link no longer
/// works, or try again. No third-party assets; the same strict CSP as the reset page.
package struct EmailLinkPage: Sendable {
    /// The path of the script every such page loads.
    package static let scriptPath = "/assets/email-link.js"

    /// The name people know the service by (`LATCHKEY_PRODUCT_NAME`).
    package let productName: String
    /// Where people continue afterwards (`LATCHKEY_APP_URL`); nil: no button.
    package let appURL: String?
    /// The path the token is posted to (`{"token": …}`).
    package let endpoint: String
    /// The page's texts in a language.
    package let texts: @Sendable (SupportedLanguage) -> EmailLinkPageText

    /// A page posting its token to `endpoint`, worded by `texts`.
    package init(
        productName: String, appURL: String?, endpoint: String, texts: @escaping @Sendable (SupportedLanguage) -> EmailLinkPageText
    ) {
        self.productName = productName
        self.appURL = appURL
        self.endpoint = endpoint
        self.texts = texts
    }

    /// The page in `language`.
    package func document(language: SupportedLanguage) -> WebDocument {
        .html(html(language: language), language: language, contentSecurityPolicy: ResetPage.contentSecurityPolicy)
    }

    /// The script (`/assets/email-link.js`).
    package static let scriptDocument = WebDocument.asset(script, contentType: "text/javascript; charset=utf-8")

    func html(language: SupportedLanguage) -> String {
        let text = texts(language)
        let product = language.isolated(productName)
        let messages = ["done": text.done(product), "invalid_token": text.invalidLink, "failed": text.failed]
        let messagesJSON = (try? JSONSerialization.data(withJSONObject: messages, options: [.sortedKeys]))
            .flatMap { String(data: $0, encoding: .utf8) }?
            .replacingOccurrences(of: "<", with: "\\u003c") ?? "{}"
        let nextStep = appURL.map { "<a class=\"button\" href=\"\($0.htmlEscaped)\">\(text.continueTo(product).htmlEscaped)</a>" } ?? ""
        let body = """
            <h1>\(text.title.htmlEscaped)</h1>
            <p id="status" role="status" aria-live="polite" data-endpoint="\(endpoint.htmlEscaped)">\(text.working.htmlEscaped)</p>
            <div id="next-step" hidden>\(nextStep)</div>
            """
        let scripts = """
            <script type="application/json" id="messages">\(messagesJSON)</script>
            <script src="\(Self.scriptPath)"></script>

            """
        return PageFrame.html(title: text.title, productName: productName, language: language, body: body, scripts: scripts)
    }

    static let script = #"""
    "use strict";
    (function () {
      var messages = JSON.parse(document.getElementById("messages").textContent);
      var status = document.getElementById("status");
      var nextStep = document.getElementById("next-step");
      function show(text, isError) {
        status.textContent = text;
        status.className = isError ? "error" : "";
      }
      // A link opened again in the same tab only changes the fragment: run for it too.
      function confirm() {
        var token = new URLSearchParams(window.location.hash.slice(1)).get("token");
        // The token leaves the address bar (and the history entry) before anything else happens.
        window.history.replaceState(null, "", window.location.pathname + window.location.search);
        if (!token) { show(messages.invalid_token, true); return; }
        nextStep.hidden = true;
        fetch(status.getAttribute("data-endpoint"), {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ token: token }),
          credentials: "same-origin",
          referrerPolicy: "no-referrer",
          cache: "no-store"
        }).then(function (response) {
          if (response.ok) {
            show(messages.done, false);
            nextStep.hidden = !nextStep.firstElementChild;
            return;
          }
          return response.json().catch(function () { return {}; }).then(function (json) {
            var code = (json.error || {}).code;
            show(code === "invalid_token" ? messages.invalid_token : messages.failed, true);
          });
        }).catch(function () { show(messages.failed, true); });
      }
      window.addEventListener("hashchange", confirm);
      confirm();
    })();
    """#
}
