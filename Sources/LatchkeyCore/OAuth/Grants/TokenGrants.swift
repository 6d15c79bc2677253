/// The token endpoint's grants, by `grant_type`: the one list the token route dispatches
/// through and the metadata (`grant_types_supported`) and the OpenAPI document are made from.
package struct TokenGrants: Sendable {
    /// The grants, in the order they are listed.
    package let grants: [any TokenGrant]

    /// The registry of `grants`; each `grant_type` once.
    package init(_ grants: [any TokenGrant]) {
        precondition(Set(grants.map(\.grantType)).count == grants.count, "a grant type is registered twice")
        self.grants = grants
    }

    /// Every grant the server offers, issuing with `tokens`. A new grant is one file in this
    /// folder and one entry here.
    package static func all(tokens: TokenService) -> TokenGrants {
        TokenGrants([AuthorizationCodeGrant(tokens: tokens), RefreshTokenGrant(tokens: tokens)])
    }

    /// The `grant_type` values, in order.
    package var grantTypes: [String] {
        grants.map(\.grantType)
    }

    /// Issues tokens with the grant named `grantType` for a request from `origin`;
    /// `unsupported_grant_type` when there is none.
    package func issue(
        grantType: String, _ form: FormParameters, client: OAuthClient, origin: LoginOrigin
    ) throws -> TokenService.IssuedTokens {
        guard let grant = grants.first(where: { $0.grantType == grantType }) else {
            throw LatchkeyError(
                .unsupportedGrantType, "Supported grant types: " + grantTypes.joined(separator: ", ") + ".")
        }
        return try grant.issue(form, client: client, origin: origin)
    }
}
