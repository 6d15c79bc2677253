package import LatchkeyCore
import Foundation

/// The reset page (`GET /reset-password`) with its script and style: the page for people without the app.
///
/// The token travels in the URL fragment, which browsers never send to the server, so it
/// reaches no server log, proxy or `Referer`. The script reads it, removes it from the
/// address bar, validates it, and asks for the new password twice. No third-party assets;
/// a strict CSP allows only this origin's script, style and API.
package enum ResetPage {
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// The page in `language`.
    package static func document(language: SupportedLanguage) -> WebDocument {
        .html(html(language: language), language: language, contentSecurityPolicy: contentSecurityPolicy)
    }

    /// The page's script (`/assets/reset-password.js`).
    package static let scriptDocument = WebDocument.asset(script, contentType: "text/javascript; charset=utf-8")

    /// The style sheet every page links (`/assets/latchkey.css`).
    package static let stylesheetDocument = WebDocument.asset(stylesheet, contentType: "text/css; charset=utf-8")

    static func html(language: SupportedLanguage) -> String {
        let text = language.catalogue.resetPage
        let direction = language.direction
        let messages: [String: String] = [
            "mismatch": text.mismatch, "invalid_token": text.invalidLink, "too_short": text.tooShort,
            "too_long": text.tooLong, "too_weak": text.tooWeak, "contains_email": text.containsEmail,
            "rate_limited": text.tooMany, "failed": text.failed, "saved": text.saved, "request_sent": text.requestSent,
        ]
        let messagesJSON = (try? JSONSerialization.data(withJSONObject: messages, options: [.sortedKeys]))
            .flatMap { String(data: $0, encoding: .utf8) }?
            .replacingOccurrences(of: "<", with: "\\u003c") ?? "{}"
                return """
        <!DOCTYPE html>
        <html lang="\(language.rawValue)" dir="\(direction)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>\(text.title.htmlEscaped)</title>
        <link rel="stylesheet" href="/assets/latchkey.css">
        </head>
        <body>
        <main>
        <h1>\(text.title.htmlEscaped)</h1>
        <p id="status" role="status" aria-live="polite"></p>
        <form id="request-form" hidden>
          <p>\(text.requestIntro.htmlEscaped)</p>
          <label for="email">\(text.emailLabel.htmlEscaped)</label>
          <input id="email" name="email" type="email" autocomplete="email" required maxlength="254">
          <button type="submit">\(text.sendLink.htmlEscaped)</button>
        </form>
        <p id="checking" hidden>\(text.checking.htmlEscaped)</p>
        <form id="reset-form" hidden>
          <p>\(text.chooseFor.htmlEscaped) <strong id="email-hint" dir="ltr"></strong></p>
          <label for="password">\(text.newPassword.htmlEscaped)</label>
          <input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="128">
          <label for="password-repeat">\(text.repeatPassword.htmlEscaped)</label>
          <input id="password-repeat" name="password-repeat" type="password" autocomplete="new-password" required minlength="8" maxlength="128">
          <button type="submit">\(text.save.htmlEscaped)</button>
        </form>
        <p id="request-new" hidden><a href="/reset-password">\(text.requestNew.htmlEscaped)</a></p>
        </main>
        <script type="application/json" id="messages">\(messagesJSON)</script>
        <script src="/assets/reset-password.js"></script>
        </body>
        </html>
        """
    }

    static let stylesheet = """
    body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; background: #f5f5f7; color: #1d1d1f; }
    main { max-width: 26rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.1); }
    h1 { font-size: 1.4rem; margin-top: 0; }
    label { display: block; margin: 1rem 0 .3rem; font-weight: 600; }
    input { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem; border: 1px solid #c7c7cc; border-radius: 8px; }
    button { margin-top: 1.2rem; width: 100%; padding: .7rem; font-size: 1rem; border: 0; border-radius: 8px; background: #0a63c9; color: #fff; }
    #status:empty { display: none; }
    #status { padding: .7rem; border-radius: 8px; background: #eef4fb; }
    #status.error { background: #fdecea; color: #8a1c12; }
    .problem { padding: .7rem; border-radius: 8px; background: #fdecea; color: #8a1c12; }
    button.secondary { background: #e5e5ea; color: #1d1d1f; }
    .links { margin-top: 1.2rem; text-align: center; }
    """

    static let script = #"""
    "use strict";
    (function () {
      var messages = JSON.parse(document.getElementById("messages").textContent);
      var status = document.getElementById("status");
      var requestForm = document.getElementById("request-form");
      var resetForm = document.getElementById("reset-form");
      var checking = document.getElementById("checking");
      var requestNew = document.getElementById("request-new");

      function show(text, isError) {
        status.textContent = text;
        status.className = isError ? "error" : "";
      }

      function post(path, body) {
        return fetch(path, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Accept-Language": document.documentElement.lang },
          body: JSON.stringify(body),
          credentials: "same-origin",
          referrerPolicy: "no-referrer",
          cache: "no-store"
        }).then(function (response) {
          return response.json().catch(function () { return {}; }).then(function (json) {
            return { status: response.status, json: json };
          });
        });
      }

      function errorText(result) {
        var error = (result.json && result.json.error) || {};
        if (error.code === "weak_password" && error.reasons && error.reasons.length) {
          return error.reasons.map(function (r) { return messages[r] || messages.too_weak; }).join(" ");
        }
        return messages[error.code] || messages.failed;
      }

      function invalidLink() {
        checking.hidden = true;
        resetForm.hidden = true;
        show(messages.invalid_token, true);
        requestNew.hidden = false;
      }

      var params = new URLSearchParams(window.location.hash.slice(1));
      var token = params.get("token");
      if (window.location.hash) {
        history.replaceState(null, "", window.location.pathname + window.location.search);
      }

      if (!token) {
        requestForm.hidden = false;
        requestForm.addEventListener("submit", function (event) {
          event.preventDefault();
          post("/auth/password/request", { email: document.getElementById("email").value }).then(function (result) {
            if (result.status === 200) {
              requestForm.hidden = true;
              show(messages.request_sent, false);
            } else {
              show(errorText(result), true);
            }
          }, function () { show(messages.failed, true); });
        });
        return;
      }

      checking.hidden = false;
      post("/auth/password/validate", { token: token }).then(function (result) {
        if (result.status !== 200) { return invalidLink(); }
        checking.hidden = true;
        document.getElementById("email-hint").textContent = result.json.email_hint || "";
        resetForm.hidden = false;
      }, function () { show(messages.failed, true); });

      resetForm.addEventListener("submit", function (event) {
        event.preventDefault();
        var password = document.getElementById("password").value;
        if (password !== document.getElementById("password-repeat").value) {
          show(messages.mismatch, true);
          return;
        }
        post("/auth/password/reset", { token: token, password: password }).then(function (result) {
          if (result.status === 200) {
            token = null;
            resetForm.hidden = true;
            show(messages.saved, false);
          } else if (result.json && result.json.error && result.json.error.code === "invalid_token") {
            invalidLink();
          } else {
            show(errorText(result), true);
          }
        }, function () { show(messages.failed, true); });
      });
    })();
    """#
}
