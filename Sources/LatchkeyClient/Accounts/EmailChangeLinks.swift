public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The two links of an address change (``AccountClient/changeEmail(to:currentPassword:)``):
/// the one mailed to the new address confirms it, the one then mailed to the old address
/// undoes the change. Neither needs a signed-in session — a link may be opened on another
/// device — only the link's token.
///
/// Every failure is a ``LatchkeyClientError``: `invalid_token` (unknown, used, expired,
/// superseded, or the address taken meanwhile), `rate_limited`, `server_unavailable`,
/// `network_unavailable`, `unexpected_response`.
public struct EmailChangeLinks: Sendable {
    /// The server's base URL; the routes are `users/email/confirm` and `users/email/undo` below it.
    public let baseURL: URL
    private let http: ClientHTTP

    /// A client for the server at `baseURL`; `now` counts a `Retry-After` date.
    public init(baseURL: URL, session: URLSession = .shared, now: @escaping @Sendable () -> Date = { Date() }) {
        self.baseURL = baseURL
        self.http = ClientHTTP(session: session, now: now)
    }

    /// Confirms the new address with the token of its link (kind
    /// ``AccountLink/Kind/confirmEmailChange``): the account's address changes, the signed-in
    /// devices stay signed in, and the old address is mailed a link that undoes it
    /// (`POST /users/email/confirm`).
    ///
    /// - Throws: `invalid_token`, or a server/transport error.
    public func confirm(token: ClientSecret) async throws {
        try await post("users/email/confirm", token)
    }

    /// Undoes an address change with the token of the link mailed to the old address (kind
    /// ``AccountLink/Kind/undoEmailChange``): the old address is back and **every** login of
    /// the account ends — an ``AuthSession`` signed in to it finds out at its next refresh
    /// (`session_expired`, and ``AuthSessionEvent/signedOut(_:)``). Whoever changed the
    /// address knew the password or held a signed-in device: suggest a new password
    /// (``PasswordRecovery``). `POST /users/email/undo`.
    ///
    /// - Throws: `invalid_token`, or a server/transport error.
    public func undo(token: ClientSecret) async throws {
        try await post("users/email/undo", token)
    }

    private func post(_ route: String, _ token: ClientSecret) async throws {
        try LinkToken.checkShape(token)
        let reply = try await http.postJSON(baseURL.appendingPathComponent(route), ["token": token.exposed])
        guard reply.isSuccess else { throw reply.error }
    }
}
