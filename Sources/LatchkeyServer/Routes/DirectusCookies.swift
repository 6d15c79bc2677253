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
/// With `LATCHKEY_COOKIE_HOST_PREFIX` (``hostPrefix``) both names carry the `__Host-` prefix
/// (`__Host-directus_refresh_token`, `__Host-directus_session_token`), which browsers accept
/// only from this host itself, `Secure`, with `Path=/` and no `Domain`: a sibling subdomain can
/// then no longer plant a cookie of that name for the parent domain (cookie tossing) to break the
/// refresh or sign the browser into another account. Only the configured names are read, so a
/// planted cookie without the prefix is ignored.
///
/// Cookies travel with every request a browser makes, also one another site starts, so a
/// request that reads or sets them must come from the server's own origin: its `Origin` header,
/// when present, must be the public URL's origin or one of `LATCHKEY_AUTH_COOKIE_ORIGINS`
/// (apps that route `/auth/` to Latchkey through their own origin); without one,
/// `Sec-Fetch-Site` (when present) must be `same-origin` or `none`. A request with neither header is not from a browser and
/// carries no ambient cookies, so it passes. Anything else is `403 FORBIDDEN`, before any
/// token is read or any password checked.
struct DirectusCookies {
    /// The refresh token cookie's name, as Directus names it.
    static let directusRefreshTokenName = "directus_refresh_token"
    /// The session cookie's name, as Directus names it.
    static let directusSessionTokenName = "directus_session_token"
    /// The prefix that binds a cookie to this host (RFC 6265bis §4.1.3.2).
    static let hostPrefix = "__Host-"

    /// The origins whose pages may use the cookies: the public URL's and the configured ones,
    /// as browsers send them (`https://host[:port]`).
    let allowedOrigins: Set<String>
    /// The refresh cookie's name: Directus's, or with ``hostPrefix``.
    let refreshTokenName: String
    /// The session cookie's name: Directus's, or with ``hostPrefix``.
    let sessionTokenName: String
    /// The path the refresh cookie is limited to (`/` with the prefix, which requires it).
    let refreshTokenPath: String
    /// Whether the cookies carry `Secure` (always with the prefix).
    let secure: Bool
    /// The refresh cookie's lifetime in seconds.
    let refreshTokenLifetime: Int
    /// The session cookie's lifetime in seconds.
    let sessionTokenLifetime: Int

    /// The cookies of the server at `publicURL`, usable also from `otherOrigins` (serialized
    /// origins); `secure` when browsers reach it over https; `hostPrefixed` names them
    /// `__Host-…` (the configuration allows it only with `secure`).
    init(
        publicURL: URL, otherOrigins: [String] = [], secure: Bool, hostPrefixed: Bool = false, refreshTokenLifetime: Int,
        sessionTokenLifetime: Int
    ) {
        allowedOrigins = Set(otherOrigins + [publicURL.webOrigin].compactMap { $0 })
        var path = URLComponents(url: publicURL, resolvingAgainstBaseURL: false)?.path ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        let prefix = hostPrefixed ? Self.hostPrefix : ""
        refreshTokenName = prefix + Self.directusRefreshTokenName
        sessionTokenName = prefix + Self.directusSessionTokenName
        refreshTokenPath = hostPrefixed ? "/" : path + "/auth"
        self.secure = secure || hostPrefixed
        self.refreshTokenLifetime = refreshTokenLifetime
        self.sessionTokenLifetime = sessionTokenLifetime
    }

    /// Throws `forbidden` unless `request` comes from the public origin or from no browser.
    func checkSameOrigin(_ request: HTTPRequest) throws {
        if let origin = request.headers["Origin"] {
            guard allowedOrigins.contains(origin.lowercased()) else { throw Self.crossOrigin }
        } else if let site = request.headers["Sec-Fetch-Site"] {
            guard site == "same-origin" || site == "none" else { throw Self.crossOrigin }
        }
    }

    /// The refresh token cookie of `request` under the configured name, if it carries exactly one.
    func refreshToken(in request: HTTPRequest) -> Redacted<String>? {
        request.cookie(refreshTokenName).map(Redacted.init)
    }

    /// The session cookie of `request` under the configured name, if it carries exactly one.
    func sessionToken(in request: HTTPRequest) -> Redacted<String>? {
        request.cookie(sessionTokenName).map(Redacted.init)
    }

    /// Sets the refresh token cookie on `response`.
    func setRefreshToken(_ token: Redacted<String>, on response: inout HTTPResponse) {
        response.setCookie(
            refreshTokenName, token.exposed, path: refreshTokenPath, sameSite: "Strict", secure: secure,
            maxAge: refreshTokenLifetime)
    }

    /// Sets the session cookie on `response`.
    func setSessionToken(_ token: Redacted<String>, on response: inout HTTPResponse) {
        response.setCookie(
            sessionTokenName, token.exposed, path: "/", sameSite: "Lax", secure: secure, maxAge: sessionTokenLifetime)
    }

    /// Makes the browser forget whichever of the two cookies `request` carried.
    func clear(from request: HTTPRequest, on response: inout HTTPResponse) {
        if request.cookie(refreshTokenName) != nil {
            response.setCookie(refreshTokenName, "", path: refreshTokenPath, sameSite: "Strict", secure: secure, maxAge: 0)
        }
        if request.cookie(sessionTokenName) != nil {
            response.setCookie(sessionTokenName, "", path: "/", sameSite: "Lax", secure: secure, maxAge: 0)
        }
    }

    private static let crossOrigin = LatchkeyError(.forbidden, "Directus cookies may only be used from this server's own origin.")
}

extension URL {
    /// The origin a browser sends in `Origin` for pages of this `http`/`https` URL: scheme and
    /// host in lower case, the port only when it is not the scheme's default; nil without a host.
    var webOrigin: String? {
        guard let components = URLComponents(url: self, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), let host = components.percentEncodedHost, !host.isEmpty
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        return "\(scheme)://\(host.lowercased())\(port)"
    }
}
