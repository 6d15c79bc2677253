import LatchkeyCore
import Foundation

/// `/assets/passkey-sign-in.js`: the sign-in page's passkey sign-in (W3C Web Authentication
/// Level 3, a discoverable credential, no address typed), served as a file so that the page's
/// CSP allows only this origin's scripts (`script-src 'self'`: no inline script, no `eval`).
///
/// Where the browser has WebAuthn, the script shows the page's "Sign in with a passkey" button;
/// without it (or without JavaScript) the page is the password form alone. It asks this origin
/// for a sign-in challenge (`POST /auth/passkeys/authentication/options`) and hands it to
/// `navigator.credentials.get`:
/// - on load, with `mediation: "conditional"` when
///   `PublicKeyCredential.isConditionalMediationAvailable()` says yes, so the browser offers
///   the passkeys among the email field's suggestions (`autocomplete="username webauthn"`);
/// - on the button, in the browser's own window (that request aborts the conditional one).
///
/// The credential (`toJSON()` where the browser has it, else the same W3C JSON written out) goes
/// to the sign-in form's action as a form post of its own — the form's hidden fields (the
/// authorization request and the form token), `step=passkey` and `credential` — so the server
/// signs in as it does for a password and the browser follows its answer (the consent page, or
/// the redirect to the app). A ceremony cancelled or failed in the browser, or refused options
/// (too many attempts), is said in the page's status line and the button works again; nothing is
/// posted. The script keeps nothing (no storage, no cookie) and defines no global.
package enum PasskeySignInScript {
    /// The stable path the sign-in page includes it from.
    package static let path = "/assets/passkey-sign-in.js"

    /// The script, served as JavaScript.
    package static let document = WebDocument.asset(text, contentType: "text/javascript; charset=utf-8")

    /// The texts the script shows, in `language`, by key (`waiting`, `not_finished`,
    /// `rate_limited`, and `wait:SECONDS` for each ``WaitTime`` step), as the JSON object the page
    /// carries in a data block (`<` escaped, so the text cannot end the block).
    static func messagesJSON(language: SupportedLanguage) -> String {
        let text = language.catalogue.passkeySignIn
        var messages = ["waiting": text.waiting, "not_finished": text.notFinished, "rate_limited": language.catalogue.rateLimit.tooMany]
        for wait in WaitTime.steps {
            messages["wait:\(wait.seconds)"] = language.catalogue.rateLimit.tryAgainIn(wait)
        }
        return (try? JSONSerialization.data(withJSONObject: messages, options: [.sortedKeys]))
            .flatMap { String(data: $0, encoding: .utf8) }?
            .replacingOccurrences(of: "<", with: "\\u003c") ?? "{}"
    }

    static let text = #"""
    "use strict";
    (function () {
      var container = document.getElementById("passkey");
      var button = document.getElementById("passkey-button");
      var status = document.getElementById("status");
      var form = document.getElementById("sign-in");
      if (!container || !button || !status || !form || !window.PublicKeyCredential || !navigator.credentials ||
          !window.fetch || !window.AbortController) {
        return;
      }
      var messages = JSON.parse(document.getElementById("passkey-messages").textContent);

      function show(text, isError) {
        status.textContent = text;
        status.className = isError ? "error" : "";
      }

      // "Please try again in …": the shortest wait the page has words for that lasts at least
      // as long as the server asked.
      function waitText(seconds) {
        var steps = Object.keys(messages).filter(function (key) { return key.indexOf("wait:") === 0; })
          .map(function (key) { return Number(key.slice(5)); }).sort(function (a, b) { return a - b; });
        var step = steps.filter(function (candidate) { return candidate >= seconds; })[0] || steps[steps.length - 1];
        return messages["wait:" + step];
      }

      function fromBase64URL(text) {
        var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
        while (base64.length % 4) { base64 += "="; }
        var binary = window.atob(base64);
        var bytes = new Uint8Array(binary.length);
        for (var i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
        return bytes.buffer;
      }

      function toBase64URL(buffer) {
        var bytes = new Uint8Array(buffer);
        var binary = "";
        for (var i = 0; i < bytes.length; i++) { binary += String.fromCharCode(bytes[i]); }
        return window.btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      }

      // PublicKeyCredentialRequestOptions from the server's JSON form.
      function requestOptions(json) {
        if (typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function") {
          return PublicKeyCredential.parseRequestOptionsFromJSON(json);
        }
        return {
          challenge: fromBase64URL(json.challenge),
          rpId: json.rpId,
          timeout: json.timeout,
          userVerification: json.userVerification,
          allowCredentials: (json.allowCredentials || []).map(function (descriptor) {
            return { type: descriptor.type, id: fromBase64URL(descriptor.id), transports: descriptor.transports };
          })
        };
      }

      // The assertion in its W3C JSON form (AuthenticationResponseJSON).
      function credentialJSON(credential) {
        if (typeof credential.toJSON === "function") { return credential.toJSON(); }
        var response = credential.response;
        var json = {
          id: credential.id,
          rawId: toBase64URL(credential.rawId),
          type: credential.type,
          clientExtensionResults: {},
          response: {
            clientDataJSON: toBase64URL(response.clientDataJSON),
            authenticatorData: toBase64URL(response.authenticatorData),
            signature: toBase64URL(response.signature)
          }
        };
        if (response.userHandle) { json.response.userHandle = toBase64URL(response.userHandle); }
        if (credential.authenticatorAttachment) { json.authenticatorAttachment = credential.authenticatorAttachment; }
        return json;
      }

      // A new sign-in challenge from this origin; a refusal carries the wait a 429 asked for.
      function fetchOptions() {
        return window.fetch("/auth/passkeys/authentication/options", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: "{}",
          credentials: "same-origin",
          referrerPolicy: "no-referrer",
          cache: "no-store"
        }).then(function (response) {
          if (response.status === 200) {
            return response.json().then(function (json) { return requestOptions(json.data.public_key); });
          }
          var refused = new Error("options refused");
          refused.retryAfter = response.status === 429 ? Number(response.headers.get("Retry-After")) || 0 : null;
          throw refused;
        });
      }

      function field(target, name, value) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        target.appendChild(input);
      }

      // Posts the credential as the sign-in form's passkey step: the form's hidden fields (the
      // authorization request and the form token), step=passkey and the credential.
      function submit(credential) {
        var post = document.createElement("form");
        post.method = "post";
        post.action = form.getAttribute("action");
        post.hidden = true;
        Array.prototype.forEach.call(form.querySelectorAll("input[type=hidden]"), function (input) {
          if (input.name !== "step") { field(post, input.name, input.value); }
        });
        field(post, "step", "passkey");
        field(post, "credential", JSON.stringify(credentialJSON(credential)));
        document.body.appendChild(post);
        post.submit();
      }

      var busy = false;
      var conditionalRequest = null;

      // The browser offers the passkeys among the email field's suggestions, where it can.
      function offerInAutofill() {
        if (typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") { return; }
        PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
          if (!available || busy) { return; }
          return fetchOptions().then(function (publicKey) {
            if (busy) { return; }
            var controller = new AbortController();
            conditionalRequest = controller;
            return navigator.credentials.get({ publicKey: publicKey, mediation: "conditional", signal: controller.signal })
              .then(function (credential) {
                if (credential && conditionalRequest === controller && !busy) {
                  busy = true;
                  submit(credential);
                }
              });
          });
        }).catch(function () {
          // Aborted for the button, or not offered: the button and the password remain.
        });
      }

      button.addEventListener("click", function () {
        if (busy) { return; }
        busy = true;
        if (conditionalRequest) {
          conditionalRequest.abort();
          conditionalRequest = null;
        }
        button.disabled = true;
        show(messages.waiting, false);
        fetchOptions().then(function (publicKey) {
          return navigator.credentials.get({ publicKey: publicKey });
        }).then(function (credential) {
          if (!credential) { throw new Error("no credential"); }
          submit(credential);
        }).catch(function (error) {
          busy = false;
          button.disabled = false;
          if (error && typeof error.retryAfter === "number") {
            show(messages.rate_limited + " " + waitText(error.retryAfter), true);
          } else {
            show(messages.not_finished, true);
          }
          offerInAutofill();
        });
      });

      // Back to this page from the next one (the back/forward cache): ready again.
      window.addEventListener("pageshow", function (event) {
        if (!event.persisted) { return; }
        busy = false;
        button.disabled = false;
        show("", false);
        offerInAutofill();
      });

      container.hidden = false;
      offerInAutofill();
    })();
    """#
}
