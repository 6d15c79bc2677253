public import Foundation

/// The signed-in account's passkeys, through the ``AuthSession`` it is signed in with: make one
/// (``registrationOptions(currentPassword:code:)``, the platform's sheet, then
/// ``finishRegistration(_:name:)``), list, rename and remove them — Latchkey's
/// `/auth/passkeys/registration/…` and `/users/me/passkeys` routes.
///
/// **Re-authentication.** Adding and removing a passkey are account changes: they need a sign-in
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

    /// The account's passkeys, newest first (`GET /users/me/passkeys`).
    ///
    /// - Throws: `session_expired`, `unexpected_response`, or a server/transport error.
    public func passkeys() async throws -> [Passkey] {
        let (reply, _) = try await session.authorizedReply(to: ClientHTTP.jsonRequest("GET", route("users/me/passkeys"), nil))
        guard reply.isSuccess else { throw reply.error }
        return try Passkey.list(in: reply)
    }

    /// Renames `passkey` (`PATCH /users/me/passkeys/{id}`) to `name`, trimmed.
    ///
    /// - Returns: the passkey as renamed.
    /// - Throws: `request_rejected` (`invalid_passkey_name`, checked locally: see
    ///   ``Passkey/validName(_:)``), `passkey_not_found` (removed meanwhile), `session_expired`, or
    ///   a server/transport error.
    public func renamePasskey(_ passkey: Passkey, to name: String) async throws -> Passkey {
        let body = try Self.encode(["name": try Self.checkedName(name)])
        let (reply, _) = try await session.authorizedReply(to: ClientHTTP.jsonRequest("PATCH", try route(for: passkey), body: body))
        if reply.status == 404 { throw LatchkeyClientError(.passkeyNotFound, status: 404) }
        guard reply.isSuccess else { throw reply.error }
        return try Passkey(json: (try? reply.jsonObject())?["data"], status: reply.status)
    }

    /// Removes `passkey` from the account (`DELETE /users/me/passkeys/{id}`): it signs in no
    /// more, though it stays on the person's devices until they delete it there. The server
    /// mails the owner. A passkey that is already gone (`404`) counts as success: what the person
    /// asked for is so.
    ///
    /// - Throws: `last_sign_in_method` (the account has no password and no other passkey),
    ///   `reauthentication_required`, `invalid_credentials` (a wrong `currentPassword`),
    ///   `invalid_otp`, `rate_limited`, `session_expired`, or a server/transport error.
    public func deletePasskey(_ passkey: Passkey, currentPassword: ClientSecret? = nil, code: ClientSecret? = nil) async throws {
        var fields: [String: String] = [:]
        if let currentPassword { fields["current_password"] = currentPassword.exposed }
        if let code { fields["otp"] = code.exposed }
        let request = ClientHTTP.jsonRequest("DELETE", try route(for: passkey), fields.isEmpty ? nil : fields)
        let (reply, _) = try await session.authorizedReply(to: request)
        guard reply.isSuccess || reply.status == 404 else { throw reply.error }
    }

    private func route(_ path: String) -> URL {
        baseURL.appendingPathComponent(path)
    }

    /// `users/me/passkeys/{id}`; the ID is checked to be base64url, so it is one path segment.
    private func route(for passkey: Passkey) throws -> URL {
        guard !passkey.id.isEmpty, passkey.id.utf8.count <= 1364, Base64URL.isAlphabet(passkey.id) else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["invalid_passkey_id"])
        }
        return route("users/me/passkeys").appendingPathComponent(passkey.id)
    }

    private static func checkedName(_ name: String) throws -> String {
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
