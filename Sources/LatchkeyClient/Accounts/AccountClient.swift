public import Foundation

/// The signed-in person's own account, through the ``AuthSession`` they are signed in with:
/// read it, change its password or address, see and sign out its devices, and delete it —
/// Directus's `/users/me` routes, and Latchkey's `/users/me/sessions`.
///
/// The server takes these only from the service's own apps (a password sign-in, or an OAuth
/// client registered first-party); another client's token is `request_rejected` (`403`).
///
/// **Re-authentication.** Changing the password or the address and deleting the account
/// need a sign-in within the last five minutes or the current password. Without either the
/// call throws `reauthentication_required`: ask the person for their password and call
/// again with `currentPassword` (or have them sign in again). A wrong one is
/// `invalid_credentials` and counts as a failed sign-in (`rate_limited` past the limit). For an
/// account with two-step sign-in the recent sign-in must have included the code, and the
/// password goes with a `code` (from the authenticator app, or a recovery code): without one,
/// or with a wrong one, the call throws `invalid_otp`.
///
/// What every call promises:
/// - Requests carry the session's access token, renewed first when it is about to expire. A
///   reply that refuses the token itself (`401` with a `Bearer` challenge: the server acted
///   on nothing) renews it once and sends the request again, whatever its method; refused
///   again, the call throws `session_expired` (`access_token_refused`).
/// - After ``changePassword(to:currentPassword:code:email:)`` the session renews its access token
///   at once (the server's credential version moved: the old one stops working); the
///   change never reports a failure once the server made it.
/// - After ``deleteAccount(currentPassword:code:)`` the session's tokens are removed and it sends
///   ``AuthSessionEvent/signedOut(_:)`` with ``AuthSessionEvent/SignOutReason/accountDeleted``.
/// - Passwords travel only in request bodies, as ``ClientSecret``; no error carries one.
public struct AccountClient: Sendable {
    /// The server's base URL; the routes are `users/me` and `users/me/sessions` below it.
    public let baseURL: URL
    let session: AuthSession

    /// A client for the account `session` is signed in to, at the server at `baseURL`;
    /// requests use the session's `URLSession` (a pinned one, if so configured).
    public init(baseURL: URL, session: AuthSession) {
        self.baseURL = baseURL
        self.session = session
    }

    /// The account (`GET /users/me`).
    ///
    /// - Throws: `session_expired` when not signed in or the server ended the session, or
    ///   a server/transport error.
    public func current() async throws -> UserAccount {
        let (reply, _) = try await session.authorizedReply(to: ClientHTTP.jsonRequest("GET", route("users/me"), nil))
        guard reply.isSuccess else { throw reply.error }
        return try UserAccount(reply: reply)
    }

    /// Sets `newPassword` (`PATCH /users/me`). The server ends every other login and browser
    /// session of the account and mails its owner; this session stays signed in and renews
    /// its access token at once.
    ///
    /// - Parameters:
    ///   - currentPassword: the password now, when the last sign-in is older than five minutes.
    ///   - email: the account's address if the app knows it, for the local "no email in the
    ///     password" rule.
    /// - Returns: the account.
    /// - Throws: `weak_password` with `reasons` (checked locally first, then by the server,
    ///   which also judges strength: `too_weak`), `reauthentication_required`,
    ///   `invalid_credentials` (a wrong `currentPassword`), `rate_limited`, `session_expired`,
    ///   or a server/transport error.
    public func changePassword(
        to newPassword: ClientSecret, currentPassword: ClientSecret? = nil, code: ClientSecret? = nil, email: String? = nil
    ) async throws -> UserAccount {
        let broken = PasswordRules.check(newPassword, email: email)
        guard broken.isEmpty else { throw LatchkeyClientError(.weakPassword, reasons: broken.map(\.code)) }
        let (reply, token) = try await send(
            "PATCH", "users/me", ["password": newPassword], currentPassword: currentPassword, code: code)
        guard reply.isSuccess else { throw reply.error }
        await session.accessTokenOutdated(token)
        return try UserAccount(reply: reply)
    }

    /// Asks to move the account to `newEmail` (`PATCH /users/me`): the server mails a
    /// confirmation link to the new address (``EmailChangeLinks/confirm(token:)``) and
    /// answers the same whether or not that address has an account (then it mails it that
    /// someone tried, and nothing can be confirmed). The address changes only once the link
    /// is used; the old address is then mailed a link that undoes it.
    ///
    /// - Parameter currentPassword: the password now, when the last sign-in is older than five minutes.
    /// - Returns: the account as it is, its address unchanged.
    /// - Throws: `invalid_email` (checked locally first), `reauthentication_required`,
    ///   `invalid_credentials` (a wrong `currentPassword`), `rate_limited` (also past five
    ///   changes an hour), `session_expired`, or a server/transport error.
    public func changeEmail(to newEmail: String, currentPassword: ClientSecret? = nil, code: ClientSecret? = nil) async throws
        -> UserAccount
    {
        let address = newEmail.trimmingCharacters(in: .whitespacesAndNewlines)
        guard EmailSyntax.isPlausible(address) else { throw LatchkeyClientError(.invalidEmail) }
        let (reply, _) = try await send(
            "PATCH", "users/me", ["email": ClientSecret(address)], currentPassword: currentPassword, code: code)
        guard reply.isSuccess else { throw reply.error }
        return try UserAccount(reply: reply)
    }

    /// The devices signed in to the account, most recently used first; the one this session
    /// runs on has ``SignedInDevice/isCurrent`` (`GET /users/me/sessions`).
    ///
    /// - Throws: `session_expired`, or a server/transport error.
    public func devices() async throws -> [SignedInDevice] {
        let (reply, _) = try await session.authorizedReply(to: ClientHTTP.jsonRequest("GET", route("users/me/sessions"), nil))
        guard reply.isSuccess else { throw reply.error }
        return try SignedInDevice.list(in: reply)
    }

    /// Signs `device` out: its tokens stop working at once. For the current device this is
    /// ``AuthSession/signOut()``, which also forgets the tokens here; another one is ended on
    /// the server (`DELETE /users/me/sessions?id=…`). A device that is no longer signed in
    /// (`404`) counts as success: what the person asked for is already so.
    ///
    /// - Throws: what ``AuthSession/signOut()`` throws for the current device; otherwise
    ///   `session_expired`, or a server/transport error.
    public func signOut(device: SignedInDevice) async throws {
        if device.isCurrent {
            try await session.signOut()
            return
        }
        var components = URLComponents(url: route("users/me/sessions"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "id", value: device.id)]
        guard let url = components?.url else { throw LatchkeyClientError(.invalidConfiguration, reasons: ["invalid_base_url"]) }
        let (reply, _) = try await session.authorizedReply(to: ClientHTTP.jsonRequest("DELETE", url, nil))
        guard reply.isSuccess || reply.status == 404 else { throw reply.error }
    }

    /// Deletes the account and everything the server holds for it (`DELETE /users/me`); the
    /// server mails its owner. Every token of the account stops at once: the session's are
    /// removed and it sends ``AuthSessionEvent/signedOut(_:)`` (``AuthSessionEvent/SignOutReason/accountDeleted``).
    /// Ask the person to confirm first: nothing can bring the account back. The address can
    /// sign up again.
    ///
    /// - Parameter currentPassword: the password now, when the last sign-in is older than five minutes.
    /// - Throws: `reauthentication_required`, `invalid_credentials` (a wrong
    ///   `currentPassword`), `rate_limited`, `session_expired`, or a server/transport error;
    ///   nothing once the server deleted the account.
    public func deleteAccount(currentPassword: ClientSecret? = nil, code: ClientSecret? = nil) async throws {
        let (reply, _) = try await send("DELETE", "users/me", [:], currentPassword: currentPassword, code: code)
        guard reply.isSuccess else { throw reply.error }
        await session.accountDeleted()
    }

    /// Sends `method route` with `fields`, `current_password` and `otp` as its JSON body (none
    /// when all are empty); returns the reply and the access token it was sent with.
    private func send(
        _ method: String, _ route: String, _ fields: [String: ClientSecret], currentPassword: ClientSecret?, code: ClientSecret?
    ) async throws -> (HTTPReply, ClientSecret) {
        var body = fields.mapValues(\.exposed)
        if let currentPassword { body["current_password"] = currentPassword.exposed }
        if let code { body["otp"] = code.exposed }
        return try await session.authorizedReply(to: ClientHTTP.jsonRequest(method, self.route(route), body.isEmpty ? nil : body))
    }

    private func route(_ path: String) -> URL {
        baseURL.appendingPathComponent(path)
    }
}
