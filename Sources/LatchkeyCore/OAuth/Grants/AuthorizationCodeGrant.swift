/// `grant_type=authorization_code` (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.5): a code from
/// `/oauth/authorize`, the redirect URI it was issued for and the PKCE verifier; see
/// ``TokenService/redeem(code:client:redirectURI:codeVerifier:)`` for what is checked.
package struct AuthorizationCodeGrant: TokenGrant {
    private let tokens: TokenService

    /// The grant, redeeming codes with `tokens`.
    package init(tokens: TokenService) {
        self.tokens = tokens
    }

    package var grantType: String { "authorization_code" }

    package var parameters: [TokenGrantParameter] {
        [.init("code", required: true), .init("redirect_uri", required: true), .init("code_verifier", required: true)]
    }

    package func issue(_ form: FormParameters, client: OAuthClient, origin: LoginOrigin) throws -> TokenService.IssuedTokens {
        try tokens.redeem(
            code: try form.secret("code", maxLength: TokenService.maximumOpaqueTokenLength), client: client,
            redirectURI: try form.required("redirect_uri", maxLength: RedirectURI.maximumLength),
            codeVerifier: try form.secret("code_verifier", maxLength: 128), origin: origin)
    }
}
