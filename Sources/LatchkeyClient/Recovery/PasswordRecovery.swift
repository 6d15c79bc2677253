public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The password reset flow against a Latchkey server (or a Directus server's
/// `/auth/password/*` routes): ask for a link, check the link's token, set the new
/// password.
///
/// Inputs are checked locally first (``EmailSyntax``, ``PasswordRules``), so a typo costs
/// no round trip. Every failure is a ``LatchkeyClientError``: `invalid_email`,
/// `invalid_token`, `weak_password` (with `reasons`), `rate_limited`,
/// `server_unavailable`, `network_unavailable`, `request_rejected`,
/// `unexpected_response`. Successful replies may be `200` with JSON (Latchkey) or `204`
/// without a body (Directus).
public struct PasswordRecovery: Sendable {
    /// The longest reset token sent; longer ones are refused locally as `invalid_token`.
    public static let maximumTokenLength = LinkToken.maximumLength

    /// The server's base URL; the routes are `auth/password/request`, `/validate`, `/reset` below it.
    public let baseURL: URL
    /// The link base the mail should point to (`reset_url`); it must be on the server's
    /// `LATCHKEY_RESET_URL_ALLOW_LIST`. Nil lets the server use its own page.
    public let resetURL: URL?
    /// The language of the mail (`en`, `pt`, `es`, `ar`); nil lets the server choose.
    public let locale: String?
    private let http: ClientHTTP

    /// A client for the server at `baseURL`.
    public init(baseURL: URL, resetURL: URL? = nil, locale: String? = nil, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.resetURL = resetURL
        self.locale = locale
        self.http = ClientHTTP(session: session)
    }

    /// Asks the server to mail a reset link to `email`. Succeeds the same way whether or
    /// not an account exists (the server does not say).
    ///
    /// - Throws: `invalid_email` (checked locally first), or a server/transport error.
    public func requestReset(email: String) async throws {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard EmailSyntax.isPlausible(address) else { throw LatchkeyClientError(.invalidEmail) }
        var fields = ["email": address]
        if let resetURL { fields["reset_url"] = resetURL.absoluteString }
        if let locale { fields["locale"] = locale }
        let reply = try await http.postJSON(route("request"), fields)
        guard reply.isSuccess else { throw reply.error }
    }

    /// Checks that `token` (from a ``ResetLink``) can still be used, without using it up.
    /// Latchkey only: Directus has no such route (its reply is `request_rejected`).
    ///
    /// - Throws: `invalid_token` for an unknown, used or expired token, or a
    ///   server/transport error.
    public func validate(token: ClientSecret) async throws -> ResetTokenStatus {
        try LinkToken.checkShape(token)
        let reply = try await http.postJSON(route("validate"), ["token": token.exposed])
        guard reply.isSuccess else { throw reply.error }
        let object = try reply.jsonObject()
        guard object["valid"] as? Bool == true else { throw LatchkeyClientError(.invalidToken, status: reply.status) }
        let expiresAt = (object["expires_at"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
        return ResetTokenStatus(emailHint: object["email_hint"] as? String, expiresAt: expiresAt)
    }

    /// Sets `newPassword` for the account of `token`, using the token up. The server then
    /// ends every session of the account (``AuthSession/completePasswordReset(_:token:newPassword:email:)``
    /// clears the local one too).
    ///
    /// - Parameter email: the account's address if the app knows it, for the local
    ///   "no email in the password" rule.
    /// - Throws: `weak_password` with `reasons` (checked locally first, then by the
    ///   server, which also judges strength: `too_weak`), `invalid_token`, or a
    ///   server/transport error. A refused password leaves the token usable.
    public func resetPassword(token: ClientSecret, newPassword: ClientSecret, email: String? = nil) async throws {
        try LinkToken.checkShape(token)
        let broken = PasswordRules.check(newPassword, email: email)
        guard broken.isEmpty else { throw LatchkeyClientError(.weakPassword, reasons: broken.map(\.code)) }
        let reply = try await http.postJSON(route("reset"), ["token": token.exposed, "password": newPassword.exposed])
        guard reply.isSuccess else { throw reply.error }
    }

    private func route(_ name: String) -> URL {
        baseURL.appendingPathComponent("auth/password/" + name)
    }
}
