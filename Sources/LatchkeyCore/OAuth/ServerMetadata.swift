import LatchkeyJOSE

/// The authorization server's metadata (RFC 8414 §2, and OpenID Connect Discovery §3):
/// exactly what is implemented. Encodes to the wire form.
package struct ServerMetadata: Encodable, Sendable {
    package let issuer: String
    package let authorization_endpoint: String
    package let token_endpoint: String
    package let revocation_endpoint: String
    package let introspection_endpoint: String
    package let userinfo_endpoint: String
    /// OpenID Connect RP-Initiated Logout 1.0 §2.1: where an app sends the browser to sign out.
    package let end_session_endpoint: String
    package let jwks_uri: String
    package let response_types_supported = ["code"]
    package let response_modes_supported = ["query"]
    package let grant_types_supported: [String]
    package let code_challenge_methods_supported = ["S256"]
    package let token_endpoint_auth_methods_supported = ["client_secret_basic", "client_secret_post", "none"]
    package let revocation_endpoint_auth_methods_supported = ["client_secret_basic", "client_secret_post", "none"]
    package let introspection_endpoint_auth_methods_supported = ["client_secret_basic", "client_secret_post"]
    package let scopes_supported = AuthorizationRequest.standardScopes
    package let subject_types_supported = ["public"]
    package let id_token_signing_alg_values_supported = SigningKeyRing.algorithms.map(\.rawValue)
    package let authorization_response_iss_parameter_supported = true
    package let prompt_values_supported = ["none", "login", "consent"]
    package let request_parameter_supported = false
    package let request_uri_parameter_supported = false
    package let claims_supported = ["iss", "sub", "aud", "exp", "iat", "auth_time", "amr", "nonce", "email", "email_verified"]
    package let ui_locales_supported = SupportedLanguage.allCases.map(\.rawValue)

    /// The metadata of the server at `issuer` (its public URL; every endpoint is under it)
    /// whose token endpoint offers `grants`.
    package init(issuer: String, grants: TokenGrants) {
        self.issuer = issuer
        grant_types_supported = grants.grantTypes
        authorization_endpoint = issuer + "/oauth/authorize"
        token_endpoint = issuer + "/oauth/token"
        revocation_endpoint = issuer + "/oauth/revoke"
        introspection_endpoint = issuer + "/oauth/introspect"
        userinfo_endpoint = issuer + "/userinfo"
        end_session_endpoint = issuer + "/oauth/logout"
        jwks_uri = issuer + "/.well-known/jwks.json"
    }
}

/// What `/userinfo` tells about the account an access token acts for (OpenID Connect Core
/// §5.3.2): its id, and its address when the token has the `email` scope, with
/// `email_verified`: always true, since an account exists only once its address confirmed a
/// sign-up's link, or an operator vouched for it (`latchkey users create`).
package struct UserInfo: Encodable, Equatable, Sendable {
    /// The account id.
    package let sub: String
    /// The account's address, with the `email` scope.
    package let email: String?
    /// Whether the address is confirmed, with the `email` scope.
    package let email_verified: Bool?

    /// What `/userinfo` says of `account`, its address only when `withEmail`.
    package init(account: Account, withEmail: Bool) {
        sub = account.id
        email = withEmail ? account.email : nil
        email_verified = withEmail ? true : nil
    }
}
