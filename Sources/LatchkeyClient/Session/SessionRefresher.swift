/// How an ``AuthSession`` renews and ends its tokens: through the OAuth token and
/// revocation endpoints, or through the first-party `/auth/refresh` and `/auth/logout`
/// routes — whichever the session was signed in with.
public struct SessionRefresher: Sendable {
    private enum Method: Sendable {
        case oauth(OAuthClient, AuthorizationServerMetadata)
        case firstParty(FirstPartyLogin)
    }

    private let method: Method

    /// Refresh with `grant_type=refresh_token` at `metadata`'s token endpoint; sign out
    /// by revoking the refresh token at its revocation endpoint.
    public static func oauth(_ client: OAuthClient, metadata: AuthorizationServerMetadata) -> SessionRefresher {
        SessionRefresher(method: .oauth(client, metadata))
    }

    /// Refresh with `POST /auth/refresh`; sign out with `POST /auth/logout`.
    public static func firstParty(_ login: FirstPartyLogin) -> SessionRefresher {
        SessionRefresher(method: .firstParty(login))
    }

    /// The tokens that follow `refreshToken`.
    ///
    /// - Throws: `session_expired` when the server rejects the refresh token; any other
    ///   error leaves the token as it was.
    func refresh(_ refreshToken: ClientSecret) async throws -> StoredTokens {
        switch method {
        case .oauth(let client, let metadata):
            client.storedTokens(try await client.refresh(refreshToken, metadata: metadata), previousRefreshToken: refreshToken)
        case .firstParty(let login):
            try await login.refresh(refreshToken)
        }
    }

    /// Ends the login of `refreshToken` on the server.
    func revoke(_ refreshToken: ClientSecret) async throws {
        switch method {
        case .oauth(let client, let metadata): try await client.revoke(refreshToken, metadata: metadata)
        case .firstParty(let login): try await login.signOut(refreshToken)
        }
    }
}
