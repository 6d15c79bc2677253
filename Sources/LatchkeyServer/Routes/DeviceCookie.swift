import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP

/// The browser's device token (``DeviceToken``): an `HttpOnly`, `SameSite=Lax`, `Path=/`
/// cookie, `__Host-latchkey_device` and `Secure` when the public URL is https
/// (`latchkey_device` over plain http, where browsers refuse `__Host-`). Set by the sign-in
/// page and by `/auth/login` in cookie and session mode, kept for a year from the last
/// sign-in, and never cleared by signing out: it names the browser, not a session.
struct DeviceCookie {
    /// Whether the cookie gets `Secure` and the `__Host-` prefix.
    let secure: Bool

    /// The cookie's name.
    var name: String { secure ? "__Host-latchkey_device" : "latchkey_device" }

    /// The device token `request` carries, when it is shaped like one we issue.
    func token(in request: HTTPRequest) -> DeviceToken? {
        DeviceToken(presented: request.cookie(name).map(Redacted.init))
    }

    /// Sets the cookie to `token` on `response` (nil: no device was recorded, nothing is set).
    func set(_ token: DeviceToken?, on response: inout HTTPResponse) {
        guard let token else { return }
        response.setCookie(name, token.value.exposed, path: "/", sameSite: "Lax", secure: secure, maxAge: 365 * 86_400)
    }
}
