public import Foundation

/// Turns a URL the app was opened with into an ``AccountLink``, accepting only the app's own
/// mailed links: universal links (`https://<host><path>`) on the configured hosts and
/// custom-scheme links (`<scheme>://verify-email…` or `<scheme>:/verify-email…`), whose path
/// names the link's kind (``AccountLink/Kind/defaultPath`` unless configured otherwise).
///
/// The token is read from the fragment (`#token=…`, what Latchkey sends, since fragments
/// stay out of server logs) or from the query (`?token=…`). Everything else is rejected
/// with ``LatchkeyClientError`` `invalid_link` whose single reason says why:
/// `insecure_scheme` (http), `wrong_scheme`, `wrong_host`, `wrong_path` (no kind's path, or a
/// custom-scheme link with a port), `user_info`, `missing_token`, `conflicting_tokens` (two
/// different or repeated tokens) or `malformed_token` (not a plausible token: see
/// ``plausibleTokenLengths``).
///
/// Parsing is a pure function of the URL: no I/O, no clock, and no input makes it trap. A link
/// that is the app's own (right scheme, host and path) but damaged — `missing_token`,
/// `malformed_token`, `conflicting_tokens` — still has a ``kind(of:)``, so an app can tell the
/// person which link failed; for anyone else's URL that is nil, and the app ignores it.
public struct AccountLinkParser: Sendable {
    /// The token lengths accepted: from 16 characters (96 bits in base64url, less than any
    /// sound server issues) to 512. Latchkey's tokens are 43 characters (32 random bytes), but
    /// a server configured otherwise, or Directus (whose link tokens are JWTs: base64url parts
    /// joined by dots, none empty), sends other lengths; the server judges.
    public static let plausibleTokenLengths = 16...LinkToken.maximumLength

    private let universalLinkHosts: Set<String>
    private let customSchemes: Set<String>
    private let allowsInsecureLoopback: Bool
    /// The kind of each accepted path, without a trailing slash.
    private let kinds: [String: AccountLink.Kind]

    /// A parser for the given hosts (compared case-insensitively), custom URL schemes (without
    /// `://`, compared case-insensitively) and the kinds in `paths`, each on its path (a
    /// leading `/` is added when missing; a trailing one is not needed). Two kinds given one
    /// path: the first in ``AccountLink/Kind/all`` order takes it. With
    /// `allowsInsecureLoopback`, `http` links are accepted too when their host is a loopback
    /// address (`127.0.0.1`, `::1`, `localhost`) among `universalLinkHosts` — for a server in
    /// local development, never for an app.
    public init(
        universalLinkHosts: [String], customSchemes: [String],
        paths: [AccountLink.Kind: String] = Dictionary(uniqueKeysWithValues: AccountLink.Kind.all.map { ($0, $0.defaultPath) }),
        allowsInsecureLoopback: Bool = false
    ) {
        self.universalLinkHosts = Set(universalLinkHosts.map { $0.lowercased() })
        self.customSchemes = Set(customSchemes.map { $0.lowercased() })
        self.allowsInsecureLoopback = allowsInsecureLoopback
        var kinds: [String: AccountLink.Kind] = [:]
        for kind in AccountLink.Kind.all {
            guard let path = paths[kind] else { continue }
            let normalized = Self.withoutTrailingSlash(path.hasPrefix("/") ? path : "/" + path)
            if kinds[normalized] == nil { kinds[normalized] = kind }
        }
        self.kinds = kinds
    }

    /// The link in `url`.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_link` with the reason (see the type).
    public func parse(_ url: URL) throws -> AccountLink {
        let (kind, components) = try route(url)
        let candidates = try Self.tokens(in: components.percentEncodedFragment) + Self.tokens(in: components.percentEncodedQuery)
        guard let token = candidates.first else { throw Self.invalid("missing_token") }
        guard candidates.allSatisfy({ $0 == token }) else { throw Self.invalid("conflicting_tokens") }
        guard Self.isPlausible(token) else { throw Self.invalid("malformed_token") }
        return AccountLink(kind: kind, token: ClientSecret(token))
    }

    /// The kind of the app's link `url` is, judged by its scheme, host and path alone —
    /// whether or not its token is usable; nil for any other URL.
    public func kind(of url: URL) -> AccountLink.Kind? {
        try? route(url).kind
    }

    /// The kind `url`'s scheme, host and path name, and its parts.
    private func route(_ url: URL) throws -> (kind: AccountLink.Kind, components: URLComponents) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased()
        else { throw Self.invalid("wrong_scheme") }
        guard components.user == nil, components.password == nil else { throw Self.invalid("user_info") }
        let route: String
        let host = components.host?.lowercased() ?? ""
        let isLoopback = ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host)
        if scheme == "https" || (scheme == "http" && allowsInsecureLoopback && isLoopback) {
            guard !host.isEmpty, universalLinkHosts.contains(host) else { throw Self.invalid("wrong_host") }
            route = components.percentEncodedPath
        } else if customSchemes.contains(scheme) {
            // `app://verify-email` puts the route in the host; `app:/verify-email` and
            // `app:///verify-email` in the path. A port belongs to no route.
            guard components.port == nil else { throw Self.invalid("wrong_path") }
            route = host.isEmpty ? components.percentEncodedPath : "/" + host + components.percentEncodedPath
        } else if scheme == "http" {
            throw Self.invalid("insecure_scheme")
        } else {
            throw Self.invalid("wrong_scheme")
        }
        guard let kind = kinds[Self.withoutTrailingSlash(route)] else { throw Self.invalid("wrong_path") }
        return (kind, components)
    }

    /// Whether `token` can be a link token: a plausible length of base64url parts joined by
    /// dots, none of them empty; nothing that needs percent-encoding.
    static func isPlausible(_ token: String) -> Bool {
        plausibleTokenLengths.contains(token.utf8.count)
            && token.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && Base64URL.isAlphabet($0) }
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

    private static func withoutTrailingSlash(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    private static func invalid(_ reason: String) -> LatchkeyClientError {
        LatchkeyClientError(.invalidLink, reasons: [reason])
    }
}
