import Foundation

/// The account's passkeys (Latchkey's `/users/me/passkeys`): list, rename, remove. Making one is
/// ``PasskeyClient``'s. Removing one needs the re-authentication every account change needs.
extension AccountClient {
    /// The account's passkeys, newest first (`GET /users/me/passkeys`).
    ///
    /// - Throws: `session_expired`, `unexpected_response`, or a server/transport error.
    public func passkeys() async throws -> [Passkey] {
        let request = ClientHTTP.jsonRequest("GET", baseURL.appendingPathComponent("users/me/passkeys"), nil)
        let (reply, _) = try await session.authorizedReply(to: request)
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
        let body = try PasskeyClient.encode(["name": try PasskeyClient.checkedName(name)])
        let (reply, _) = try await session.authorizedReply(to: ClientHTTP.jsonRequest("PATCH", try passkeyRoute(for: passkey), body: body))
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
        let request = ClientHTTP.jsonRequest("DELETE", try passkeyRoute(for: passkey), fields.isEmpty ? nil : fields)
        let (reply, _) = try await session.authorizedReply(to: request)
        guard reply.isSuccess || reply.status == 404 else { throw reply.error }
    }

    /// `users/me/passkeys/{id}`; the ID is checked to be base64url, so it is one path segment.
    private func passkeyRoute(for passkey: Passkey) throws -> URL {
        guard !passkey.id.isEmpty, passkey.id.utf8.count <= 1364, Base64URL.isAlphabet(passkey.id) else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["invalid_passkey_id"])
        }
        return baseURL.appendingPathComponent("users/me/passkeys").appendingPathComponent(passkey.id)
    }
}
