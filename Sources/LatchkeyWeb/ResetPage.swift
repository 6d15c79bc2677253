package import LatchkeyCore
import Foundation

/// The reset page (`GET /reset-password`) and its script: the page for people without the app.
///
/// The token travels in the URL fragment, which browsers never send to the server, so it
/// reaches no server log, proxy or `Referer`. The script reads it, removes it from the
/// address bar and keeps it in the tab's `sessionStorage` (never a cookie or the URL), so a
/// reload still works; it validates the token, shows the password rules, and asks for the new
/// password twice. A form is disabled while its request is in flight, so a double click sends
/// one request. Errors are shown at the field they concern (`aria-invalid`,
/// `aria-describedby`); a rate limit says how long to wait. The page ends on a next step: a
/// button to the app (`LATCHKEY_APP_URL`), or the advice to sign in. Every link it makes keeps
/// its language. No third-party assets; a strict CSP allows only this origin's script, style and API.
package struct ResetPage: Sendable {
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// The name people know the service by (`LATCHKEY_PRODUCT_NAME`).
    package let productName: String
    /// Where people continue after a reset (`LATCHKEY_APP_URL`); nil: they are told to sign in.
    package let appURL: String?

    /// The page of the product called `productName`, ending on `appURL` when there is one.
    package init(productName: String, appURL: String? = nil) {
        self.productName = productName
        self.appURL = appURL
    }

    /// The page in `language`.
    package func document(language: SupportedLanguage) -> WebDocument {
        .html(html(language: language), language: language, contentSecurityPolicy: Self.contentSecurityPolicy)
    }

    /// The page's script (`/assets/reset-password.js`).
    package static let scriptDocument = WebDocument.asset(script, contentType: "text/javascript; charset=utf-8")

    /// The texts the script shows, by the API's error code (and `wait:SECONDS` for each
    /// ``WaitTime`` step), as the JSON object the page carries.
    func messages(language: SupportedLanguage) -> [String: String] {
        let text = language.catalogue.resetPage
        var messages: [String: String] = [
            "mismatch": text.mismatch, "invalid_token": text.invalidLink, "too_short": text.tooShort,
            "too_long": text.tooLong, "too_weak": text.tooWeak, "contains_email": text.containsEmail,
            "invalid_email": text.invalidEmail, "rate_limited": language.catalogue.rateLimit.tooMany, "failed": text.failed,
            "saved": text.saved, "request_sent": text.requestSent,
        ]
        for wait in WaitTime.steps {
            messages["wait:\(wait.seconds)"] = language.catalogue.rateLimit.tryAgainIn(wait)
        }
        return messages
    }

    func html(language: SupportedLanguage) -> String {
        let text = language.catalogue.resetPage
        let product = language.isolated(productName)
        let messagesJSON = (try? JSONSerialization.data(withJSONObject: messages(language: language), options: [.sortedKeys]))
            .flatMap { String(data: $0, encoding: .utf8) }?
            .replacingOccurrences(of: "<", with: "\\u003c") ?? "{}"
        let nextStep = appURL.map { "<a class=\"button\" href=\"\($0.htmlEscaped)\">\(text.continueTo(product).htmlEscaped)</a>" }
            ?? "<p>\(text.signInNow(product).htmlEscaped)</p>"
        let body = """
            <h1>\(text.title.htmlEscaped)</h1>
            <p id="status" role="status" aria-live="polite"></p>
            <form id="request-form" hidden novalidate>
              <p>\(text.requestIntro.htmlEscaped)</p>
              <label for="email">\(text.emailLabel.htmlEscaped)</label>
              <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" dir="ltr">
              <p id="email-error" class="field-error" hidden></p>
              <button type="submit">\(text.sendLink.htmlEscaped)</button>
            </form>
            <p id="checking" hidden>\(text.checking.htmlEscaped)</p>
            <form id="reset-form" hidden novalidate>
              <p>\(text.chooseFor.htmlEscaped) <strong id="email-hint" dir="ltr"></strong></p>
              <label for="password">\(text.newPassword.htmlEscaped)</label>
              <input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="128" aria-describedby="password-rules">
              <p id="password-rules" class="hint">\(text.passwordRules.htmlEscaped)</p>
              <p id="password-error" class="field-error" hidden></p>
              <label for="password-repeat">\(text.repeatPassword.htmlEscaped)</label>
              <input id="password-repeat" name="password-repeat" type="password" autocomplete="new-password" required minlength="8" maxlength="128">
              <p id="password-repeat-error" class="field-error" hidden></p>
              <button type="submit">\(text.save.htmlEscaped)</button>
            </form>
            <div id="next-step" hidden>\(nextStep)</div>
            <p id="request-new" hidden><a href="/reset-password?lang=\(language.rawValue)">\(text.requestNew.htmlEscaped)</a></p>
            """
        let scripts = """
            <script type="application/json" id="messages">\(messagesJSON)</script>
            <script src="/assets/reset-password.js"></script>

            """
        return PageFrame.html(title: text.title, productName: productName, language: language, body: body, scripts: scripts)
    }

    static let script = #"""
    "use strict";
    (function () {
      var messages = JSON.parse(document.getElementById("messages").textContent);
      var status = document.getElementById("status");
      var requestForm = document.getElementById("request-form");
      var resetForm = document.getElementById("reset-form");
      var checking = document.getElementById("checking");
      var nextStep = document.getElementById("next-step");
      var requestNew = document.getElementById("request-new");
      var storageKey = "latchkey.reset-token";
      // A language chosen in the address (?lang=) is also the language of the mails.
      var chosenLanguage = new URLSearchParams(window.location.search).get("lang");
      function withLanguage(body) {
        if (chosenLanguage) { body.locale = chosenLanguage; }
        return body;
      }

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

      // While a request is in flight its form is disabled and further submits are ignored.
      var busy = false;
      function setBusy(form, value) {
        busy = value;
        form.setAttribute("aria-busy", value ? "true" : "false");
        Array.prototype.forEach.call(form.elements, function (element) { element.disabled = value; });
      }

      function describedBy(input) {
        return (input.getAttribute("aria-describedby") || "").split(" ").filter(function (id) { return id; });
      }
      function fieldError(input, text) {
        var error = document.getElementById(input.id + "-error");
        error.textContent = text;
        error.hidden = false;
        input.setAttribute("aria-invalid", "true");
        var ids = describedBy(input);
        if (ids.indexOf(error.id) < 0) { ids.push(error.id); }
        input.setAttribute("aria-describedby", ids.join(" "));
        show("", false);
        input.focus();
      }
      function clearFieldErrors(form) {
        Array.prototype.forEach.call(form.querySelectorAll("input[id]"), function (input) {
          var error = document.getElementById(input.id + "-error");
          if (!error) { return; }
          error.hidden = true;
          error.textContent = "";
          input.removeAttribute("aria-invalid");
          var ids = describedBy(input).filter(function (id) { return id !== error.id; });
          if (ids.length) { input.setAttribute("aria-describedby", ids.join(" ")); } else { input.removeAttribute("aria-describedby"); }
        });
      }

      function post(path, body) {
        return fetch(path, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
          credentials: "same-origin",
          referrerPolicy: "no-referrer",
          cache: "no-store"
        }).then(function (response) {
          return response.json().catch(function () { return {}; }).then(function (json) {
            return { status: response.status, json: json, retryAfter: Number(response.headers.get("Retry-After")) || 0 };
          });
        });
      }

      function errorCode(result) {
        return ((result.json && result.json.error) || {}).code;
      }

      // "Please try again in …": the shortest wait the page has words for that lasts at least
      // as long as the server asked.
      function waitText(seconds) {
        var steps = Object.keys(messages).filter(function (key) { return key.indexOf("wait:") === 0; })
          .map(function (key) { return Number(key.slice(5)); }).sort(function (a, b) { return a - b; });
        var step = steps.filter(function (candidate) { return candidate >= seconds; })[0] || steps[steps.length - 1];
        return messages["wait:" + step];
      }

      function generalError(result) {
        if (errorCode(result) === "rate_limited") {
          return messages.rate_limited + " " + waitText(result.retryAfter);
        }
        return messages[errorCode(result)] || messages.failed;
      }

      function invalidLink() {
        forgetToken();
        checking.hidden = true;
        resetForm.hidden = true;
        show(messages.invalid_token, true);
        requestNew.hidden = false;
      }

      var token = new URLSearchParams(window.location.hash.slice(1)).get("token");
      if (window.location.hash) {
        history.replaceState(null, "", window.location.pathname + window.location.search);
      }
      if (token) { rememberToken(token); } else { token = storedToken(); }

      if (!token) {
        requestForm.hidden = false;
        requestForm.addEventListener("submit", function (event) {
          event.preventDefault();
          if (busy) { return; }
          clearFieldErrors(requestForm);
          var email = document.getElementById("email");
          if (email.value.indexOf("@") < 1) {
            fieldError(email, messages.invalid_email);
            return;
          }
          setBusy(requestForm, true);
          post("/auth/password/request", withLanguage({ email: email.value })).then(function (result) {
            if (result.status === 200) {
              requestForm.hidden = true;
              show(messages.request_sent, false);
              return;
            }
            setBusy(requestForm, false);
            if (errorCode(result) === "invalid_email") {
              fieldError(email, messages.invalid_email);
            } else {
              show(generalError(result), true);
            }
          }, function () {
            setBusy(requestForm, false);
            show(messages.failed, true);
          });
        });
        return;
      }

      checking.hidden = false;
      post("/auth/password/validate", { token: token }).then(function (result) {
        if (errorCode(result) === "invalid_token") { return invalidLink(); }
        checking.hidden = true;
        if (result.status !== 200) { return show(generalError(result), true); }
        document.getElementById("email-hint").textContent = result.json.email_hint || "";
        resetForm.hidden = false;
      }, function () {
        checking.hidden = true;
        show(messages.failed, true);
      });

      resetForm.addEventListener("submit", function (event) {
        event.preventDefault();
        if (busy || !token) { return; }
        clearFieldErrors(resetForm);
        var password = document.getElementById("password");
        var repeat = document.getElementById("password-repeat");
        if (password.value.length < 8) { return fieldError(password, messages.too_short); }
        if (password.value !== repeat.value) { return fieldError(repeat, messages.mismatch); }
        setBusy(resetForm, true);
        post("/auth/password/reset", withLanguage({ token: token, password: password.value })).then(function (result) {
          if (result.status === 200) {
            token = null;
            forgetToken();
            resetForm.hidden = true;
            show(messages.saved, false);
            nextStep.hidden = false;
            return;
          }
          setBusy(resetForm, false);
          var error = (result.json && result.json.error) || {};
          if (error.code === "invalid_token") {
            invalidLink();
          } else if (error.code === "weak_password" && error.reasons && error.reasons.length) {
            fieldError(password, error.reasons.map(function (r) { return messages[r] || messages.too_weak; }).join(" "));
          } else {
            show(generalError(result), true);
          }
        }, function () {
          setBusy(resetForm, false);
          show(messages.failed, true);
        });
      });
    })();
    """#
}
