public import Foundation

/// Turns a URL the app was opened with into a ``ResetLink``, accepting only the app's own
/// reset links: universal links (`https://<host><path>`) on the configured hosts and
/// custom-scheme links (`<scheme>://reset-password…` or `<scheme>:/reset-password…`).
///
/// The token is read from the fragment (`#token=…`, what Latchkey sends, since fragments
/// stay out of server logs) or from the query (`?token=…`). Everything else is rejected
/// with ``LatchkeyClientError`` `invalid_link` whose single reason says why:
/// `insecure_scheme` (http), `wrong_scheme`, `wrong_host`, `wrong_path`, `user_info`,
/// `missing_token`, `conflicting_tokens` (two different or repeated tokens) or
/// `malformed_token` (not a plausible token: see ``plausibleTokenLengths``).
public struct ResetLinkParser: Sendable {
    /// The token lengths accepted: from 16 characters (96 bits in base64url, less than
    /// any sound server issues) to ``PasswordRecovery/maximumTokenLength``. Latchkey's
    /// tokens are 43 characters (32 random bytes), but a server configured otherwise, or
    /// Directus (whose reset tokens are JWTs), sends other lengths; the server judges.
    public static let plausibleTokenLengths = 16...PasswordRecovery.maximumTokenLength

    private let universalLinkHosts: Set<String>
    private let path: String
    private let customSchemes: Set<String>
    private let allowsInsecureLoopback: Bool

    /// A parser for the given hosts (compared case-insensitively), path and custom URL
    /// schemes (without `://`, compared case-insensitively). With
    /// `allowsInsecureLoopback`, `http` links are accepted too when their host is a
    /// loopback address (`127.0.0.1`, `::1`, `localhost`) among `universalLinkHosts` —
    /// for a server in local development, never for an app.
    public init(
        universalLinkHosts: [String], path: String = "/reset-password", customSchemes: [String],
        allowsInsecureLoopback: Bool = false
    ) {
        self.universalLinkHosts = Set(universalLinkHosts.map { $0.lowercased() })
        self.path = path.hasPrefix("/") ? path : "/" + path
        self.customSchemes = Set(customSchemes.map { $0.lowercased() })
        self.allowsInsecureLoopback = allowsInsecureLoopback
    }

    /// The reset link in `url`.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_link` with the reason (see the type).
    public func parse(_ url: URL) throws -> ResetLink {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased()
        else { throw Self.invalid("wrong_scheme") }
        guard components.user == nil, components.password == nil else { throw Self.invalid("user_info") }
        let route: String
        let host = components.host?.lowercased() ?? ""
        let isLoopback = ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host)
        if scheme == "https" || (scheme == "http" && allowsInsecureLoopback && isLoopback) {
            guard let host = components.host?.lowercased(), universalLinkHosts.contains(host) else {
                throw Self.invalid("wrong_host")
            }
            route = components.percentEncodedPath
        } else if customSchemes.contains(scheme) {
            // `app://reset-password` puts the route in the host; `app:/reset-password` and
            // `app:///reset-password` in the path.
            let host = components.host?.lowercased() ?? ""
            route = host.isEmpty ? components.percentEncodedPath : "/" + host + components.percentEncodedPath
        } else if scheme == "http" {
            throw Self.invalid("insecure_scheme")
        } else {
            throw Self.invalid("wrong_scheme")
        }
        guard route == path || route == path + "/" else { throw Self.invalid("wrong_path") }
        let candidates = try Self.tokens(in: components.percentEncodedFragment)
            + Self.tokens(in: components.percentEncodedQuery)
        guard let token = candidates.first else { throw Self.invalid("missing_token") }
        guard candidates.allSatisfy({ $0 == token }) else { throw Self.invalid("conflicting_tokens") }
        // base64url, plus `.` for the JWTs Directus sends; nothing that needs percent-encoding.
        guard Self.plausibleTokenLengths.contains(token.utf8.count),
            token.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(Base64URL.isAlphabet)
        else {
            throw Self.invalid("malformed_token")
        }
        return ResetLink(token: ClientSecret(token))
    }

    /// The raw `token` values of a `name=value&…` fragment or query; at most one each.
    private static func tokens(in formEncoded: String?) throws -> [String] {
        guard let formEncoded else { return [] }
        let values = formEncoded.split(separator: "&").compactMap { pair -> String? in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.first == "token" ? (parts.count == 2 ? String(parts[1]) : "") : nil
        }
        guard values.count <= 1 else { throw invalid("conflicting_tokens") }
        return values
    }

    private static func invalid(_ reason: String) -> LatchkeyClientError {
        LatchkeyClientError(.invalidLink, reasons: [reason])
    }
}
