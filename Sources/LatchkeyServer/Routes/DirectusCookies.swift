import Foundation
import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP

/// The cookies of Directus's `cookie` and `session` modes at `/auth/login`, `/auth/refresh`
/// and `/auth/logout`, and the check that keeps other sites from using them.
///
/// - `directus_refresh_token`: the refresh token. `HttpOnly`, `SameSite=Strict`, `Path` the
///   auth routes (`/auth` under the public URL's path), `Max-Age` the refresh idle lifetime,
///   `Secure` whenever the public URL is https.
/// - `directus_session_token` (`session` mode): the access token, an ES256 JWT that a resource
///   server on this origin can verify with the JWKS. `HttpOnly`, `SameSite=Lax`, `Path=/`,
///   `Max-Age` the access token lifetime, `Secure` likewise.
///
/// Cookies travel with every request a browser makes, also one another site starts, so a
/// request that reads or sets them must come from the server's own origin: its `Origin` header,
/// when present, must be the public URL's origin; without one, `Sec-Fetch-Site` (when present)
/// must be `same-origin` or `none`. A request with neither header is not from a browser and
/// carries no ambient cookies, so it passes. Anything else is `403 FORBIDDEN`, before any
/// token is read or any password checked.
struct DirectusCookies {
    /// The refresh token cookie's name, as Directus names it.
    static let refreshTokenName = "directus_refresh_token"
    /// The session cookie's name, as Directus names it.
    static let sessionTokenName = "directus_session_token"

    /// The origin browsers send for pages of the public URL (`https://host[:port]`).
    let publicOrigin: String
    /// The path the refresh cookie is limited to.
    let refreshTokenPath: String
    /// Whether the cookies carry `Secure`.
    let secure: Bool
    /// The refresh cookie's lifetime in seconds.
    let refreshTokenLifetime: Int
    /// The session cookie's lifetime in seconds.
    let sessionTokenLifetime: Int

    /// The cookies of the server at `publicURL`; `secure` when browsers reach it over https.
    init(publicURL: URL, secure: Bool, refreshTokenLifetime: Int, sessionTokenLifetime: Int) {
        let components = URLComponents(url: publicURL, resolvingAgainstBaseURL: false)
        let scheme = (components?.scheme ?? "https").lowercased()
        let host = (components?.percentEncodedHost ?? "").lowercased()
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components?.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        publicOrigin = "\(scheme)://\(host)\(port)"
        var path = components?.path ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        refreshTokenPath = path + "/auth"
        self.secure = secure
        self.refreshTokenLifetime = refreshTokenLifetime
        self.sessionTokenLifetime = sessionTokenLifetime
    }

    /// Throws `forbidden` unless `request` comes from the public origin or from no browser.
    func checkSameOrigin(_ request: HTTPRequest) throws {
        if let origin = request.headers["Origin"] {
            guard origin.lowercased() == publicOrigin else { throw Self.crossOrigin }
        } else if let site = request.headers["Sec-Fetch-Site"] {
            guard site == "same-origin" || site == "none" else { throw Self.crossOrigin }
        }
    }

    /// The refresh token cookie of `request`, if it carries exactly one.
    func refreshToken(in request: HTTPRequest) -> Redacted<String>? {
        request.cookie(Self.refreshTokenName).map(Redacted.init)
    }

    /// The session cookie of `request`, if it carries exactly one.
    func sessionToken(in request: HTTPRequest) -> Redacted<String>? {
        request.cookie(Self.sessionTokenName).map(Redacted.init)
    }

    /// Sets the refresh token cookie on `response`.
    func setRefreshToken(_ token: Redacted<String>, on response: inout HTTPResponse) {
        response.setCookie(
            Self.refreshTokenName, token.exposed, path: refreshTokenPath, sameSite: "Strict", secure: secure,
            maxAge: refreshTokenLifetime)
    }

    /// Sets the session cookie on `response`.
    func setSessionToken(_ token: Redacted<String>, on response: inout HTTPResponse) {
        response.setCookie(
            Self.sessionTokenName, token.exposed, path: "/", sameSite: "Lax", secure: secure, maxAge: sessionTokenLifetime)
    }

    /// Makes the browser forget whichever of the two cookies `request` carried.
    func clear(from request: HTTPRequest, on response: inout HTTPResponse) {
        if request.cookie(Self.refreshTokenName) != nil {
            response.setCookie(Self.refreshTokenName, "", path: refreshTokenPath, sameSite: "Strict", secure: secure, maxAge: 0)
        }
        if request.cookie(Self.sessionTokenName) != nil {
            response.setCookie(Self.sessionTokenName, "", path: "/", sameSite: "Lax", secure: secure, maxAge: 0)
        }
    }

    private static let crossOrigin = LatchkeyError(.forbidden, "Directus cookies may only be used from this server's own origin.")
}
