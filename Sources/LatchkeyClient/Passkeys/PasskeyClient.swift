public import Foundation

/// Makes a passkey for the signed-in account, through the ``AuthSession`` it is signed in with:
/// ``registrationOptions(currentPassword:code:)``, the platform's sheet
/// (``PasskeyAuthorization/register(_:)``), then ``finishRegistration(_:name:)`` — Latchkey's
/// `/auth/passkeys/registration/…` routes. Listing, renaming and removing them are account
/// calls, on ``AccountClient`` (``AccountClient/passkeys()``), like the signed-in devices.
///
/// **Re-authentication.** Adding a passkey is an account change: it needs a sign-in
/// within the last five minutes (with its second factor when the account has one; a passkey
/// sign-in is both), or the current password (and `code`) in the call. Without either the call
/// throws `reauthentication_required`: ask for the password, as ``AccountClient`` documents.
///
/// What every call promises: requests carry the session's access token as ``AccountClient``'s
/// do (renewed once on a refused token); the relying party the server names is the app's own
/// before any sheet is shown; passwords travel only in request bodies, as ``ClientSecret``.
public struct PasskeyClient: Sendable {
    /// The server's base URL; the routes are below it.
    public let baseURL: URL
    /// The app's relying party: its `webcredentials:` associated domain.
    public let relyingParty: PasskeyRelyingParty
    private let session: AuthSession

    /// A client for the account `session` is signed in to, at the server at `baseURL`, making
    /// passkeys for `relyingParty`.
    public init(baseURL: URL, relyingParty: PasskeyRelyingParty, session: AuthSession) {
        self.baseURL = baseURL
        self.relyingParty = relyingParty
        self.session = session
    }

    /// Asks the server for a new passkey's options (`POST /auth/passkeys/registration/options`):
    /// a challenge good for one registration within five minutes, and the account's passkeys to
    /// exclude.
    ///
    /// - Parameters:
    ///   - currentPassword: the password now, when the last sign-in is older than five minutes.
    ///   - code: the second factor's code with `currentPassword`, for an account that has one.
    /// - Throws: `reauthentication_required`, `invalid_credentials` (a wrong `currentPassword`),
    ///   `invalid_otp`, `rate_limited`, `session_expired`; `invalid_configuration`
    ///   (`relying_party_mismatch`, `es256_not_offered`, `discoverable_credential_not_required`)
    ///   when the server is not set up for this app; `unexpected_response`; a server/transport error.
    public func registrationOptions(currentPassword: ClientSecret? = nil, code: ClientSecret? = nil) async throws
        -> PasskeyRegistrationRequest
    {
        var fields: [String: String] = [:]
        if let currentPassword { fields["current_password"] = currentPassword.exposed }
        if let code { fields["otp"] = code.exposed }
        let request = ClientHTTP.jsonRequest("POST", route("auth/passkeys/registration/options"), fields)
        let (reply, _) = try await session.authorizedReply(to: request)
        guard reply.isSuccess else { throw reply.error }
        return try PasskeyRegistrationRequest(options: PasskeyOptionsReader(reply: reply), expected: relyingParty)
    }

    /// Registers the passkey the platform made (`POST /auth/passkeys/registration/verify`) under
    /// `name` (trimmed; nil or blank: the server names it "Passkey" and the date). The server
    /// mails the owner.
    ///
    /// - Returns: the new passkey as the list shows it.
    /// - Throws: `passkey_refused` with the failed check in ``LatchkeyClientError/reasons``
    ///   (`challenge_not_found` for options older than five minutes or used already: start
    ///   again); `passkey_exists`; `request_rejected` (`invalid_passkey_name`, checked locally: see
    ///   ``Passkey/validName(_:)``); `session_expired`; a server/transport error.
    public func finishRegistration(_ registration: PasskeyRegistration, name: String? = nil) async throws -> Passkey {
        var body: [String: Any] = ["credential": try registration.responseJSON()]
        if let name, !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            body["name"] = try Self.checkedName(name)
        }
        let request = ClientHTTP.jsonRequest("POST", route("auth/passkeys/registration/verify"), body: try Self.encode(body))
        let (reply, _) = try await session.authorizedReply(to: request)
        guard reply.isSuccess else { throw reply.error }
        return try Passkey(json: (try? reply.jsonObject())?["data"], status: reply.status)
    }

    private func route(_ path: String) -> URL {
        baseURL.appendingPathComponent(path)
    }

    static func checkedName(_ name: String) throws -> String {
        guard let valid = Passkey.validName(name) else { throw LatchkeyClientError(.requestRejected, reasons: ["invalid_passkey_name"]) }
        return valid
    }

    static func encode(_ body: [String: Any]) throws -> Data {
        do {
            return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        } catch {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["unencodable_request"])
        }
    }
}
