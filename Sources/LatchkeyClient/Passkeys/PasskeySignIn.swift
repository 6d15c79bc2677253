public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Sign-in with a passkey, no address typed (WebAuthn's discoverable credentials), through
/// Latchkey's `POST /auth/passkeys/authentication/options` and `…/verify`: fetch the options
/// (``authenticationOptions()``), let the platform show its sheet or the keyboard's suggestion
/// (``PasskeyAuthorization``), and send its answer (``signIn(with:)``). The tokens are those of a
/// password sign-in (``FirstPartyLogin``), renewed the same way: hand them to
/// ``AuthSession/signIn(_:)``. A passkey sign-in counts as both factors, so it is recent enough
/// for every account change for five minutes. With a ``DeviceTokenStore`` it sends and keeps the
/// device token as ``FirstPartyLogin`` does.
public struct PasskeySignIn: Sendable {
    /// The server's base URL; the routes are below it.
    public let baseURL: URL
    /// The app's relying party: its `webcredentials:` associated domain.
    public let relyingParty: PasskeyRelyingParty
    private let http: ClientHTTP
    private let login: FirstPartyLogin

    /// A client for the server at `baseURL`, signing in with the passkeys of `relyingParty`;
    /// `now` dates the received tokens' expiry, and `deviceTokens` keeps this device's token, as
    /// ``FirstPartyLogin``'s.
    public init(
        baseURL: URL, relyingParty: PasskeyRelyingParty, session: URLSession = .shared, deviceTokens: (any DeviceTokenStore)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.baseURL = baseURL
        self.relyingParty = relyingParty
        self.http = ClientHTTP(session: session, now: now)
        self.login = FirstPartyLogin(baseURL: baseURL, session: session, deviceTokens: deviceTokens, now: now)
    }

    /// New options for one passkey sign-in: a challenge good once, within five minutes. Fetch
    /// them again for each attempt, and for each AutoFill request.
    ///
    /// - Throws: `invalid_configuration` (`relying_party_mismatch`), `rate_limited`,
    ///   `unexpected_response`, or a server/transport error.
    public func authenticationOptions() async throws -> PasskeyAssertionRequest {
        let reply = try await http.postJSON(baseURL.appendingPathComponent("auth/passkeys/authentication/options"), [:])
        guard reply.isSuccess else { throw reply.error }
        return try PasskeyAssertionRequest(options: PasskeyOptionsReader(reply: reply), expected: relyingParty)
    }

    /// Signs in with the platform's `assertion` and returns the new session's tokens.
    ///
    /// - Throws: `passkey_refused` — the server answers every cause alike (an unknown or removed
    ///   passkey, a challenge used or older than five minutes, a failed check), so fetch new
    ///   options and let the person try again or sign in another way; `user_handle_missing` when
    ///   the passkey gave no user handle. `rate_limited` (the password sign-in's limits apply), or
    ///   a server/transport error.
    public func signIn(with assertion: PasskeyAssertion) async throws -> StoredTokens {
        var fields: [String: Any] = ["credential": try assertion.responseJSON(), "mode": "json"]
        if let device = login.presentedDeviceToken() { fields["device_token"] = device.value.exposed }
        let body = try PasskeyClient.encode(fields)
        let request = ClientHTTP.jsonRequest("POST", baseURL.appendingPathComponent("auth/passkeys/authentication/verify"), body: body)
        let reply = try await http.send(request)
        if !reply.isSuccess, reply.error.code == .invalidCredentials {
            throw LatchkeyClientError(.passkeyRefused, status: reply.status, serverCode: reply.error.serverCode)
        }
        return try login.signedIn(from: reply)
    }
}
