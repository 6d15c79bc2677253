public import Foundation

/// Turns a URL the app was opened with into a ``ResetLink``, accepting only the app's own
/// reset links: universal links (`https://<host><path>`) on the configured hosts and
/// custom-scheme links (`<scheme>://reset-password…` or `<scheme>:/reset-password…`).
///
/// The checks are ``AccountLinkParser``'s, for the one path: the token is read from the
/// fragment (`#token=…`) or the query (`?token=…`), and everything else is rejected with
/// ``LatchkeyClientError`` `invalid_link` whose single reason says why: `insecure_scheme`
/// (http), `wrong_scheme`, `wrong_host`, `wrong_path`, `user_info`, `missing_token`,
/// `conflicting_tokens` (two different or repeated tokens) or `malformed_token` (not a
/// plausible token: see ``plausibleTokenLengths``). An app that also opens sign-up or address
/// change links uses one ``AccountLinkParser`` for all of them.
public struct ResetLinkParser: Sendable {
    /// The token lengths accepted: from 16 characters (96 bits in base64url, less than
    /// any sound server issues) to ``PasswordRecovery/maximumTokenLength``. Latchkey's
    /// tokens are 43 characters (32 random bytes), but a server configured otherwise, or
    /// Directus (whose reset tokens are JWTs), sends other lengths; the server judges.
    public static let plausibleTokenLengths = AccountLinkParser.plausibleTokenLengths

    private let parser: AccountLinkParser

    /// A parser for the given hosts (compared case-insensitively), path and custom URL
    /// schemes (without `://`, compared case-insensitively). With
    /// `allowsInsecureLoopback`, `http` links are accepted too when their host is a
    /// loopback address (`127.0.0.1`, `::1`, `localhost`) among `universalLinkHosts` —
    /// for a server in local development, never for an app.
    public init(
        universalLinkHosts: [String], path: String = AccountLink.Kind.resetPassword.defaultPath, customSchemes: [String],
        allowsInsecureLoopback: Bool = false
    ) {
        parser = AccountLinkParser(
            universalLinkHosts: universalLinkHosts, customSchemes: customSchemes, paths: [.resetPassword: path],
            allowsInsecureLoopback: allowsInsecureLoopback)
    }

    /// The reset link in `url`.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_link` with the reason (see the type).
    public func parse(_ url: URL) throws -> ResetLink {
        ResetLink(token: try parser.parse(url).token)
    }
}
