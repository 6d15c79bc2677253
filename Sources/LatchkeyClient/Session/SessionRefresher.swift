/// How an ``AuthSession`` renews and ends its tokens: through the OAuth token and
/// revocation endpoints, or through the first-party `/auth/refresh` and `/auth/logout`
/// routes — whichever the session was signed in with.
public struct SessionRefresher: Sendable {
    private enum Method: Sendable {
        case oauth(OAuthClient, AuthorizationServerMetadata?)
        case firstParty(FirstPartyLogin)
    }

    private let method: Method
    /// With ``matchingTokens(oauth:firstParty:)``: the login for tokens without metadata.
    private var firstPartyForPlainTokens: FirstPartyLogin?

    /// Refresh with `grant_type=refresh_token` at the token endpoint; sign out by revoking
    /// the refresh token at the revocation endpoint. The endpoints are those of the
    /// metadata stored with the tokens (``StoredTokens/metadata``, saved at sign-in by
    /// ``OAuthClient/storedTokens(_:for:)``), so an app that restarts offline can still
    /// refresh; `metadata`, when given, is used for tokens stored without any.
    public static func oauth(_ client: OAuthClient, metadata: AuthorizationServerMetadata? = nil) -> SessionRefresher {
        SessionRefresher(method: .oauth(client, metadata))
    }

    /// Refresh with `POST /auth/refresh`; sign out with `POST /auth/logout`.
    public static func firstParty(_ login: FirstPartyLogin) -> SessionRefresher {
        SessionRefresher(method: .firstParty(login))
    }

    /// For an app offering both sign-ins: tokens stored with server metadata (from the
    /// browser sign-in, ``OAuthClient/storedTokens(_:for:)``) are refreshed and revoked as
    /// ``oauth(_:metadata:)`` does, tokens without it (from ``FirstPartyLogin``) as
    /// ``firstParty(_:)`` does.
    public static func matchingTokens(oauth: OAuthClient, firstParty: FirstPartyLogin) -> SessionRefresher {
        SessionRefresher(method: .oauth(oauth, nil), firstPartyForPlainTokens: firstParty)
    }

    /// The tokens that follow `tokens`, whose refresh token is `refreshToken`.
    ///
    /// - Throws: `session_expired` when the server rejects the refresh token;
    ///   `invalid_configuration` (`missing_metadata`) for OAuth tokens stored without
    ///   metadata when none was configured; any other error leaves the token as it was.
    func refresh(_ tokens: StoredTokens, with refreshToken: ClientSecret) async throws -> StoredTokens {
        switch resolved(for: tokens) {
        case .oauth(let client, let configured):
            let metadata = try Self.metadata(tokens, configured)
            return client.storedTokens(try await client.refresh(refreshToken, metadata: metadata), following: tokens, metadata: metadata)
        case .firstParty(let login):
            return try await login.refresh(refreshToken).succeeding(tokens)
        }
    }

    /// Ends the login of `tokens` (their refresh token) on the server.
    func revoke(_ tokens: StoredTokens) async throws {
        guard let refreshToken = tokens.refreshToken else { return }
        switch resolved(for: tokens) {
        case .oauth(let client, let configured): try await client.revoke(refreshToken, metadata: Self.metadata(tokens, configured))
        case .firstParty(let login): try await login.signOut(refreshToken)
        }
    }

    /// The method for `tokens`: with ``matchingTokens(oauth:firstParty:)`` decided by them.
    private func resolved(for tokens: StoredTokens) -> Method {
        guard let login = firstPartyForPlainTokens, tokens.metadata == nil else { return method }
        return .firstParty(login)
    }

    private static func metadata(_ tokens: StoredTokens, _ configured: AuthorizationServerMetadata?) throws -> AuthorizationServerMetadata {
        guard let metadata = tokens.metadata ?? configured else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["missing_metadata"])
        }
        return metadata
    }
}
