/// `/assets/latchkey-reset-token.js`: a script any reset page — also one written for Directus,
/// on another origin — can include to read the reset token from its URL.
///
/// Latchkey's mails put the token in the fragment (`#token=…`), which browsers never send to a
/// server, so it stays out of access logs, proxies and `Referer`; pages written for Directus
/// read `?token=…`. The script accepts both (the fragment first), removes the token from the
/// address bar and history at once, and offers it as `LatchkeyResetToken.read()` (null when
/// the URL has none). It reads nothing else, calls no server and defines nothing but that one
/// frozen object.
package enum ResetTokenScript {
    /// The stable path pages include it from.
    package static let path = "/assets/latchkey-reset-token.js"

    /// The script, served as JavaScript.
    package static let document = WebDocument.asset(text, contentType: "text/javascript; charset=utf-8")

    static let text = """
        /* Latchkey: the password-reset token of this page's URL, from #token=… (Latchkey's links)
           or ?token=… (pages written for Directus). Include the script, then call
           LatchkeyResetToken.read(). The token is removed from the address bar at once. */
        (function () {
          "use strict";
          // The token from one part of the URL, and that part without it (unchanged when it has none).
          function take(part, prefix) {
            var parameters = new URLSearchParams(part.slice(1));
            if (!parameters.has("token")) { return {token: null, rest: part}; }
            var token = parameters.get("token");
            parameters.delete("token");
            var rest = parameters.toString();
            return {token: token || null, rest: rest ? prefix + rest : ""};
          }
          var fragment = take(window.location.hash, "#");
          var query = take(window.location.search, "?");
          var token = fragment.token || query.token;
          if (fragment.rest !== window.location.hash || query.rest !== window.location.search) {
            history.replaceState(history.state, "", window.location.pathname + query.rest + fragment.rest);
          }
          window.LatchkeyResetToken = Object.freeze({
            read: function () { return token; }
          });
        })();

        """
}
