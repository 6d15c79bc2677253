/// One grant type of the token endpoint (RFC 6749 §4): what a client sends with a
/// `grant_type` and what it gets for it. Each grant is one file in `OAuth/Grants/`, listed in
/// ``TokenGrants/all(tokens:)``; the token route dispatches through ``TokenGrants`` and the
/// metadata and the OpenAPI document list what is registered there.
package protocol TokenGrant: Sendable {
    /// The `grant_type` value this grant answers.
    var grantType: String { get }
    /// The token request's parameters besides those of client authentication (RFC 6749 §4):
    /// name and whether it is required, for the OpenAPI document.
    var parameters: [TokenGrantParameter] { get }
    /// Issues tokens for the request `form` from `client`, which has already authenticated when
    /// it is confidential, sent from `origin` (which a grant that starts a login keeps). Throws
    /// the grant's OAuth error (`invalid_grant`, `invalid_request`, …).
    func issue(_ form: FormParameters, client: OAuthClient, origin: LoginOrigin) throws -> TokenService.IssuedTokens
}

/// A parameter of a token request for one grant.
package struct TokenGrantParameter: Sendable, Equatable {
    /// The parameter's name.
    package let name: String
    /// Whether the grant refuses a request without it.
    package let required: Bool

    /// A parameter named `name`.
    package init(_ name: String, required: Bool) {
        self.name = name
        self.required = required
    }
}
