public import Foundation

/// Two-step sign-in for the signed-in person's own account, through the ``AuthSession`` they
/// are signed in with: Directus's `/users/me/tfa/generate`, `/enable` and `/disable`, and
/// Latchkey's `/users/me/tfa/recovery-codes`.
///
/// Turning it on is two calls: ``generate(password:)`` (the password, always) gives the secret
/// to show — as a QR code of ``AuthenticatorSecret/provisioningURL``, or as a link that opens the
/// authenticator app on this device (Apple's Passwords app on iOS) — and ``enable(_:code:)``
/// confirms it with the first code the app shows and returns the recovery codes, which the
/// app shows once and never stores. The server keeps the generated secret for ten minutes and
/// enrols only that one.
///
/// What every call promises: requests carry the session's access token as ``AccountClient``'s
/// do (renewed once on a refused token); secrets and codes travel only in request bodies, as
/// ``ClientSecret``, and no error carries one.
public struct SecondFactorClient: Sendable {
    /// The server's base URL; the routes are below it.
    public let baseURL: URL
    private let session: AuthSession

    /// A client for the account `session` is signed in to, at the server at `baseURL`.
    public init(baseURL: URL, session: AuthSession) {
        self.baseURL = baseURL
        self.session = session
    }

    /// A new authenticator secret, not yet enrolled (`POST /users/me/tfa/generate`).
    ///
    /// - Throws: `invalid_credentials` (a wrong `password`, counted as a failed sign-in),
    ///   `request_rejected` (the account has two-step sign-in already), `rate_limited`,
    ///   `session_expired`, or a server/transport error.
    public func generate(password: ClientSecret) async throws -> AuthenticatorSecret {
        let reply = try await send("users/me/tfa/generate", ["password": password])
        guard let data = try reply.jsonObject()["data"] as? [String: Any], let secret = data["secret"] as? String,
            let url = data["otpauth_url"] as? String, let provisioningURL = URL(string: url), provisioningURL.scheme == "otpauth"
        else { throw LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_secret_response"], status: reply.status) }
        return AuthenticatorSecret(secret: ClientSecret(secret), provisioningURL: ClientSecret(provisioningURL.absoluteString))
    }

    /// Enrols the generated secret with `code`, the first code the authenticator app shows for
    /// it (`POST /users/me/tfa/enable`). `secret`, when given, is sent back as Directus's clients
    /// do, and the server checks it is the one it generated; without it the server enrols the one
    /// it keeps. Returns the ten recovery codes: show them once.
    ///
    /// - Throws: `invalid_otp` (a wrong code: ask again), `request_rejected` (the secret expired
    ///   after ten minutes, or is not the one generated: generate again), `rate_limited`,
    ///   `session_expired`, or a server/transport error.
    public func enable(_ secret: AuthenticatorSecret? = nil, code: ClientSecret) async throws -> [ClientSecret] {
        var fields = ["otp": code]
        if let secret { fields["secret"] = secret.secret }
        return try recoveryCodes(in: try await send("users/me/tfa/enable", fields))
    }

    /// Turns two-step sign-in off with `code` (from the app, or a recovery code) (`POST
    /// /users/me/tfa/disable`). The server mails the owner.
    ///
    /// - Throws: `invalid_otp`, `rate_limited`, `session_expired`, or a server/transport error.
    public func disable(code: ClientSecret) async throws {
        _ = try await send("users/me/tfa/disable", ["otp": code])
    }

    /// Replaces every recovery code with ten new ones, with `code` from the authenticator app
    /// (not a recovery code) (`POST /users/me/tfa/recovery-codes`).
    ///
    /// - Throws: `invalid_otp`, `rate_limited`, `session_expired`, or a server/transport error.
    public func renewRecoveryCodes(code: ClientSecret) async throws -> [ClientSecret] {
        try recoveryCodes(in: try await send("users/me/tfa/recovery-codes", ["otp": code]))
    }

    /// `POST route` with `fields` as its JSON body through the session; the successful reply.
    private func send(_ route: String, _ fields: [String: ClientSecret]) async throws -> HTTPReply {
        let request = ClientHTTP.jsonRequest("POST", baseURL.appendingPathComponent(route), fields.mapValues(\.exposed))
        let (reply, _) = try await session.authorizedReply(to: request)
        guard reply.isSuccess else { throw reply.error }
        return reply
    }

    /// `{"data": {"recovery_codes": […]}}`.
    private func recoveryCodes(in reply: HTTPReply) throws -> [ClientSecret] {
        guard let data = try reply.jsonObject()["data"] as? [String: Any], let codes = data["recovery_codes"] as? [String],
            !codes.isEmpty, codes.count <= 32
        else { throw LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_recovery_codes"], status: reply.status) }
        return codes.map(ClientSecret.init)
    }
}

/// An authenticator secret the server generated and keeps for ten minutes, to show once.
public struct AuthenticatorSecret: Sendable, Equatable, CustomStringConvertible {
    /// The secret in base32, for typing it into an app by hand.
    public let secret: ClientSecret
    /// The `otpauth://totp/…` URL: the text of a QR code, or a link that opens the
    /// authenticator app on this device.
    public let provisioningURL: ClientSecret

    /// "AuthenticatorSecret(<redacted>)": never the secret.
    public var description: String { "AuthenticatorSecret(<redacted>)" }
}
