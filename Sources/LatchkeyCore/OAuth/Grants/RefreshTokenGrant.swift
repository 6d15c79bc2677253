/// `grant_type=refresh_token` (RFC 6749 §6): rotates the client's refresh token; an optional
/// `scope` may only repeat granted scopes. See ``TokenService/refresh(_:clientID:requestedScope:)``.
package struct RefreshTokenGrant: TokenGrant {
    private let tokens: TokenService

    /// The grant, rotating tokens with `tokens`.
    package init(tokens: TokenService) {
        self.tokens = tokens
    }

    package var grantType: String { "refresh_token" }

    package var parameters: [TokenGrantParameter] {
        [.init("refresh_token", required: true), .init("scope", required: false)]
    }

    /// A rotation keeps the origin its login started from; `origin` is not used.
    package func issue(_ form: FormParameters, client: OAuthClient, origin: LoginOrigin) throws -> TokenService.IssuedTokens {
        let requestedScope = try form.optional("scope", maxLength: 1024).map { $0.split(separator: " ").map(String.init) }
        return try tokens.refresh(
            try form.secret("refresh_token", maxLength: TokenService.maximumOpaqueTokenLength), clientID: client.id,
            requestedScope: requestedScope)
    }
}
