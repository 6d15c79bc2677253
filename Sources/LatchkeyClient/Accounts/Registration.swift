public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Sign-up against a Latchkey server (or Directus's `/users/register` routes): ask for an
/// account, then confirm its address with the mailed link, which creates it.
///
/// The server answers a sign-up the same way whether or not the address already has an
/// account (the address's owner learns which by mail), so ``register(email:password:)``
/// succeeding means "if the address is new, a confirmation link is on its way" — never
/// "an account was made". Inputs are checked locally first (``EmailSyntax``,
/// ``PasswordRules`` with the address), so a typo costs no round trip. Every failure is a
/// ``LatchkeyClientError``: `invalid_email`, `weak_password` (with `reasons`),
/// `registration_closed`, `invalid_token`, `rate_limited` (with the server's
/// ``LatchkeyClientError/retryAfter``), `server_unavailable`, `network_unavailable`,
/// `request_rejected` (a `verificationURL` not on the server's allow list), `unexpected_response`.
public struct Registration: Sendable {
    /// The server's base URL; the routes are `users/register` and `users/register/verify-email` below it.
    public let baseURL: URL
    /// The link base the confirmation mail should point to (`verification_url`), such as the
    /// app's universal link; it must be on the server's `LATCHKEY_RESET_URL_ALLOW_LIST`. Nil
    /// lets the server use its own page, `/verify-email`.
    public let verificationURL: URL?
    /// The language of the mail (`en`, `pt`, `es`, `ar`) and of the account; nil lets the
    /// server choose from `Accept-Language`.
    public let locale: String?
    private let http: ClientHTTP

    /// A client for the server at `baseURL`; `now` counts a `Retry-After` date.
    public init(
        baseURL: URL, verificationURL: URL? = nil, locale: String? = nil, session: URLSession = .shared,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.baseURL = baseURL
        self.verificationURL = verificationURL
        self.locale = locale
        self.http = ClientHTTP(session: session, now: now)
    }

    /// Asks for an account for `email` with `password` (`POST /users/register`). The server
    /// mails a confirmation link to a new address, and to an address that has an account a
    /// note saying so; it answers alike for both, so success says nothing about the address.
    /// The account exists only once the link is used (``verifyEmail(token:)``), with the
    /// password of the sign-up whose link is used.
    ///
    /// - Throws: `invalid_email` and `weak_password` (`too_short`, `too_long`,
    ///   `contains_email`; checked locally first, then by the server, which also judges
    ///   strength: `too_weak`), `registration_closed` when the server takes no sign-ups
    ///   (`403`), or a server/transport error.
    public func register(email: String, password: ClientSecret) async throws {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard EmailSyntax.isPlausible(address) else { throw LatchkeyClientError(.invalidEmail) }
        let broken = PasswordRules.check(password, email: address)
        guard broken.isEmpty else { throw LatchkeyClientError(.weakPassword, reasons: broken.map(\.code)) }
        var fields = ["email": address, "password": password.exposed]
        if let verificationURL { fields["verification_url"] = verificationURL.absoluteString }
        if let locale { fields["locale"] = locale }
        let reply = try await http.postJSON(baseURL.appendingPathComponent("users/register"), fields)
        guard reply.isSuccess else {
            let error = reply.error
            // Sign-up is the one thing this route forbids: it is closed on this server.
            if reply.status == 403, error.code == .requestRejected {
                throw LatchkeyClientError(.registrationClosed, status: 403, serverCode: error.serverCode)
            }
            throw error
        }
    }

    /// Confirms the address with the token of a sign-up's link (an ``AccountLink`` of kind
    /// ``AccountLink/Kind/verifyEmail``), which creates the account
    /// (`POST /users/register/verify-email`). The person then signs in with the address and
    /// the password chosen at sign-up; nothing is signed in by this call.
    ///
    /// - Throws: `invalid_token` for every reason the link cannot be used (unknown, used,
    ///   expired, superseded by a newer sign-up), or a server/transport error.
    public func verifyEmail(token: ClientSecret) async throws {
        try LinkToken.checkShape(token)
        let reply = try await http.postJSON(baseURL.appendingPathComponent("users/register/verify-email"), ["token": token.exposed])
        guard reply.isSuccess else { throw reply.error }
    }
}
