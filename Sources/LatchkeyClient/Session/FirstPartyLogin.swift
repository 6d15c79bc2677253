public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Email-and-password sign-in for the operator's own app, through the Directus-compatible
/// routes `POST /auth/login`, `/auth/refresh` and `/auth/logout` (JSON mode), which
/// Latchkey and Directus both serve.
///
/// Prefer ``OAuthClient`` (the browser-based flow) where possible; this exists for apps
/// written against Directus and for first-party native login screens.
///
/// **Recognised device.** With a ``DeviceTokenStore`` (the app's ``KeychainTokenStore``, or the
/// ``FileTokenStore``), every sign-in — also the second step of a two-step one — sends the
/// device token kept for ``baseURL`` as `device_token` and keeps the one the server answers (a
/// new one when the server did not issue the one sent). A recognised device with the right
/// password gets in even while the server caps the guessing on the account.
public struct FirstPartyLogin: Sendable {
    /// The server's base URL; the routes are `auth/login`, `auth/refresh`, `auth/logout` below it.
    public let baseURL: URL
    /// Where the device token for ``baseURL`` is kept; nil: none is sent or kept.
    public let deviceTokens: (any DeviceTokenStore)?
    private let http: ClientHTTP
    private let now: @Sendable () -> Date

    /// A client for the server at `baseURL`; `now` dates the received tokens' expiry and
    /// counts a `Retry-After` date (``LatchkeyClientError/retryAfter``); `deviceTokens` keeps
    /// this device's token for the server (usually the same store as the session's tokens).
    public init(
        baseURL: URL, session: URLSession = .shared, deviceTokens: (any DeviceTokenStore)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.baseURL = baseURL
        self.deviceTokens = deviceTokens
        self.http = ClientHTTP(session: session, now: now)
        self.now = now
    }

    /// Signs in with `email` and `password` (and `code`, the second factor's, for an account
    /// that has one) and returns the new session's tokens.
    ///
    /// - Throws: `invalid_email` (checked locally), `invalid_credentials` (one answer
    ///   for a wrong address, a wrong password and a disabled account), `invalid_otp` (the
    ///   password was right; the account's code is missing or wrong), `rate_limited`, or a
    ///   server/transport error.
    public func signIn(email: String, password: ClientSecret, code: ClientSecret? = nil) async throws -> StoredTokens {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard EmailSyntax.isPlausible(address) else { throw LatchkeyClientError(.invalidEmail) }
        var body = ["email": address, "password": password.exposed, "mode": "json"]
        if let code { body["otp"] = code.exposed }
        if let device = presentedDeviceToken() { body["device_token"] = device.value.exposed }
        return try signedIn(from: try await http.postJSON(baseURL.appendingPathComponent("auth/login"), body))
    }

    /// Signs in with `email` and `password`: the tokens, or — for an account with two-step
    /// sign-in — a ``SecondFactorChallenge`` that takes the code from the authenticator app or a
    /// recovery code (``SecondFactorChallenge/complete(code:)``).
    ///
    /// - Throws: what ``signIn(email:password:code:)`` throws, but not `invalid_otp` for a
    ///   missing code.
    public func beginSignIn(email: String, password: ClientSecret) async throws -> FirstPartySignInStep {
        do {
            return .signedIn(try await signIn(email: email, password: password))
        } catch let error as LatchkeyClientError where error.code == .invalidOTP {
            return .secondFactorRequired(SecondFactorChallenge(login: self, email: email, password: password))
        }
    }

    /// Trades `refreshToken` for new tokens; the server rotates it (single use).
    ///
    /// - Throws: `session_expired` when the server rejects the refresh token (unknown,
    ///   expired, revoked, or already used — which also ends the login), or a
    ///   server/transport error (the token may still be good).
    public func refresh(_ refreshToken: ClientSecret) async throws -> StoredTokens {
        do {
            return try await tokens(from: http.postJSON(
                baseURL.appendingPathComponent("auth/refresh"), ["refresh_token": refreshToken.exposed, "mode": "json"]))
        } catch let error as LatchkeyClientError where error.code == .invalidToken || error.code == .invalidCredentials {
            throw LatchkeyClientError(.sessionExpired, status: error.status, serverCode: error.serverCode)
        }
    }

    /// Ends the login `refreshToken` belongs to; an unknown token counts as success.
    public func signOut(_ refreshToken: ClientSecret) async throws {
        let reply = try await http.postJSON(baseURL.appendingPathComponent("auth/logout"), ["refresh_token": refreshToken.exposed])
        guard reply.isSuccess else { throw reply.error }
    }

    /// The device token to send with a sign-in, when a store keeps one for ``baseURL``.
    func presentedDeviceToken() -> DeviceToken? {
        deviceTokens?.presentedDeviceToken(for: baseURL)
    }

    /// The tokens of a sign-in's reply (``tokens(from:)``), after keeping its `data.device_token`
    /// (when the store is set and the token is well formed) as this device's for ``baseURL``.
    func signedIn(from reply: HTTPReply) throws -> StoredTokens {
        let tokens = try tokens(from: reply)
        if let deviceTokens, let data = (try? reply.jsonObject())?["data"] as? [String: Any],
            let answered = (data["device_token"] as? String).flatMap(DeviceToken.init)
        {
            deviceTokens.keepDeviceToken(answered, for: baseURL)
        }
        return tokens
    }

    /// `{"data": {"access_token", "refresh_token", "expires"}}`, `expires` in milliseconds: the
    /// tokens of every first-party sign-in (a password, a passkey), or the error of a refusal.
    func tokens(from reply: HTTPReply) throws -> StoredTokens {
        let receivedAt = now()
        guard reply.isSuccess else { throw reply.error }
        guard let data = try reply.jsonObject()["data"] as? [String: Any],
            let accessToken = data["access_token"] as? String, !accessToken.isEmpty,
            let expires = data["expires"] as? NSNumber
        else { throw LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_token_response"], status: reply.status) }
        return StoredTokens(
            accessToken: ClientSecret(accessToken), refreshToken: (data["refresh_token"] as? String).map(ClientSecret.init),
            expiresAt: receivedAt.addingTimeInterval(expires.doubleValue / 1000))
    }
}
