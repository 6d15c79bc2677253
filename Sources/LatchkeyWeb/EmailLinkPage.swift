package import LatchkeyCore
import Foundation

/// The pages mailed links open, and their script: `GET /verify-email` (a sign-up's address
/// confirms itself and the account is made), `GET /confirm-email` (an account's new address
/// confirms the change) and `GET /undo-email-change` (the old address undoes it).
///
/// The token travels in the URL fragment, which browsers never send to the server. The script
/// reads it, removes it from the address bar and keeps it in the tab's `sessionStorage` (so a
/// reload still works, never a cookie or the URL), and posts it only when the person presses the
/// page's button — a mail scanner that opens the link, even one that runs its script, changes
/// nothing. The button is disabled
/// while its request is in flight. The page then says what happened: the change made or undone
/// (a new account offers the way on to the app, `LATCHKEY_APP_URL`; an undo suggests a new
/// password, with a link to the reset page in the page's language), the link no longer valid,
/// or how long to wait. No third-party assets; a strict CSP
/// allows only this origin's script, style and API.
package struct EmailLinkPage: Sendable {
    /// Which of the pages.
    package enum Kind: String, Sendable, CaseIterable {
        /// `/verify-email`, posting to `/users/register/verify-email`.
        case verify
        /// `/confirm-email`, posting to `/users/email/confirm`.
        case confirm
        /// `/undo-email-change`, posting to `/users/email/undo`.
        case undo

        /// The page's path.
        package var path: String {
            switch self {
            case .verify: "/verify-email"
            case .confirm: "/confirm-email"
            case .undo: "/undo-email-change"
            }
        }

        /// The API route the page posts the token to.
        var apiPath: String {
            switch self {
            case .verify: "/users/register/verify-email"
            case .confirm: "/users/email/confirm"
            case .undo: "/users/email/undo"
            }
        }
    }

    /// Where the script is served.
    package static let scriptPath = "/assets/email-link.js"

    /// The name people know the service by (`LATCHKEY_PRODUCT_NAME`).
    package let productName: String
    /// Where a new account continues (`LATCHKEY_APP_URL`); nil: the page says to sign in.
    package let appURL: String?

    /// The pages of the product called `productName`, a new account continuing to `appURL`.
    package init(productName: String, appURL: String? = nil) {
        self.productName = productName
        self.appURL = appURL
    }

    /// The page `kind` in `language`.
    package func document(_ kind: Kind, language: SupportedLanguage) -> WebDocument {
        .html(html(kind, language: language), language: language, contentSecurityPolicy: ResetPage.contentSecurityPolicy)
    }

    /// The pages' script.
    package static let scriptDocument = WebDocument.asset(script, contentType: "text/javascript; charset=utf-8")

    /// The texts the script shows, by the API's error code (and `wait:SECONDS` for each
    /// ``WaitTime`` step), as the JSON object the page carries.
    func messages(_ kind: Kind, language: SupportedLanguage) -> [String: String] {
        let text = language.catalogue.emailLinkPages
        let done =
            switch kind {
            case .verify: text.verified(language.isolated(productName))
            case .confirm: text.confirmed
            case .undo: text.undone
            }
        var messages: [String: String] = [
            "done": done, "working": text.working,
            "invalid_token": text.invalidLink, "rate_limited": language.catalogue.rateLimit.tooMany, "failed": text.failed,
        ]
        for wait in WaitTime.steps {
            messages["wait:\(wait.seconds)"] = language.catalogue.rateLimit.tryAgainIn(wait)
        }
        return messages
    }

    func html(_ kind: Kind, language: SupportedLanguage) -> String {
        let text = language.catalogue.emailLinkPages
        let (title, intro, button) =
            switch kind {
            case .verify: (text.verifyTitle, text.verifyIntro, text.verifyButton)
            case .confirm: (text.confirmTitle, text.confirmIntro, text.confirmButton)
            case .undo: (text.undoTitle, text.undoIntro, text.undoButton)
            }
        let messagesJSON = (try? JSONSerialization.data(withJSONObject: messages(kind, language: language), options: [.sortedKeys]))
            .flatMap { String(data: $0, encoding: .utf8) }?
            .replacingOccurrences(of: "<", with: "\\u003c") ?? "{}"
        let nextStep =
            switch kind {
            case .verify:
                appURL.map { url in
                    """
                    <div id="next-step" hidden>
                      <a class="button" href="\(url.htmlEscaped)">\(text.continueTo(language.isolated(productName)).htmlEscaped)</a>
                    </div>
                    """
                } ?? ""
            case .confirm: ""
            case .undo:
                """
                <div id="next-step" hidden>
                  <p>\(text.chooseNewPassword.htmlEscaped)</p>
                  <a class="button" href="/reset-password?lang=\(language.rawValue)">\(text.chooseNewPasswordLink.htmlEscaped)</a>
                </div>
                """
            }
        let body = """
            <h1>\(title.htmlEscaped)</h1>
            <p id="status" role="status" aria-live="polite"></p>
            <form id="link-form" data-api="\(kind.apiPath)" data-storage="latchkey.\(kind.rawValue)-email-token" hidden>
              <p>\(intro.htmlEscaped)</p>
              <button type="submit">\(button.htmlEscaped)</button>
            </form>
            \(nextStep)
            """
        let scripts = """
            <script type="application/json" id="messages">\(messagesJSON)</script>
            <script src="\(Self.scriptPath)"></script>

            """
        return PageFrame.html(title: title, productName: productName, language: language, body: body, scripts: scripts)
    }

    static let script = #"""
    "use strict";
    (function () {
      var messages = JSON.parse(document.getElementById("messages").textContent);
      var status = document.getElementById("status");
      var form = document.getElementById("link-form");
      var nextStep = document.getElementById("next-step");
      var storageKey = form.getAttribute("data-storage");

      function show(text, isError) {
        status.textContent = text;
        status.className = isError ? "error" : "";
      }

      // The token lives in this tab's sessionStorage (never a cookie or the URL), so a reload
      // finds it; it is forgotten once used or refused.
      function rememberToken(value) {
        try { window.sessionStorage.setItem(storageKey, value); } catch (e) { /* storage off: no reload */ }
      }
      function storedToken() {
        try { return window.sessionStorage.getItem(storageKey); } catch (e) { return null; }
      }
      function forgetToken() {
        try { window.sessionStorage.removeItem(storageKey); } catch (e) { /* nothing kept */ }
      }

      // "Please try again in …": the shortest wait the page has words for that lasts at least
      // as long as the server asked.
      function waitText(seconds) {
        var steps = Object.keys(messages).filter(function (key) { return key.indexOf("wait:") === 0; })
          .map(function (key) { return Number(key.slice(5)); }).sort(function (a, b) { return a - b; });
        var step = steps.filter(function (candidate) { return candidate >= seconds; })[0] || steps[steps.length - 1];
        return messages["wait:" + step];
      }

      var token = new URLSearchParams(window.location.hash.slice(1)).get("token");
      if (window.location.hash) {
        history.replaceState(null, "", window.location.pathname + window.location.search);
      }
      if (token) { rememberToken(token); } else { token = storedToken(); }
      if (!token) {
        show(messages.invalid_token, true);
        return;
      }
      form.hidden = false;

      var busy = false;
      function setBusy(value) {
        busy = value;
        form.setAttribute("aria-busy", value ? "true" : "false");
        Array.prototype.forEach.call(form.elements, function (element) { element.disabled = value; });
      }

      form.addEventListener("submit", function (event) {
        event.preventDefault();
        if (busy) { return; }
        setBusy(true);
        show(messages.working, false);
        fetch(form.getAttribute("data-api"), {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ token: token }),
          credentials: "same-origin",
          referrerPolicy: "no-referrer",
          cache: "no-store"
        }).then(function (response) {
          if (response.status === 204) {
            forgetToken();
            form.hidden = true;
            show(messages.done, false);
            if (nextStep) { nextStep.hidden = false; }
            return;
          }
          return response.json().catch(function () { return {}; }).then(function (json) {
            var code = ((json && json.error) || {}).code;
            if (code === "invalid_token") {
              forgetToken();
              form.hidden = true;
              show(messages.invalid_token, true);
            } else if (code === "rate_limited") {
              setBusy(false);
              show(messages.rate_limited + " " + waitText(Number(response.headers.get("Retry-After")) || 0), true);
            } else {
              setBusy(false);
              show(messages.failed, true);
            }
          });
        }, function () {
          setBusy(false);
          show(messages.failed, true);
        });
      });
    })();
    """#
}
