import Foundation

/// What `/oauth/introspect` says about a token (RFC 7662 §2.2): `{"active": false}` and
/// nothing else for any token that is not valid now; for a valid one, what it is, for whom
/// and until when. Encodes to the wire form (absent fields omitted).
package struct Introspection: Encodable, Equatable, Sendable {
    /// Whether the token is valid right now.
    package let active: Bool
    /// `access_token` or `refresh_token`.
    package let token_type: String?
    /// The account.
    package let sub: String?
    /// Space-separated scopes.
    package let scope: String?
    /// The client the token was issued to; absent for first-party logins.
    package let client_id: String?
    /// The issuer.
    package let iss: String?
    /// The access token's audience.
    package let aud: String?
    /// Expiry, seconds since 1970.
    package let exp: Int64?
    /// Issued at, seconds since 1970.
    package let iat: Int64?
    /// The access token's unique id.
    package let jti: String?

    /// The answer for every token that is not valid now.
    package static let inactive = Introspection(
        active: false, token_type: nil, sub: nil, scope: nil, client_id: nil, iss: nil, aud: nil, exp: nil, iat: nil, jti: nil)

    /// The answer for a live refresh token of `account`, from this issuer.
    package init(refreshToken record: RefreshTokenRecord, account: Account, issuer: String) {
        self.init(
            active: true, token_type: "refresh_token", sub: account.id, scope: record.scope.joined(separator: " "),
            client_id: record.clientID, iss: issuer, aud: nil, exp: Int64(record.expiresAt.timeIntervalSince1970),
            iat: Int64(record.createdAt.timeIntervalSince1970), jti: nil)
    }

    /// The answer for an access token that verified with `claims`.
    package init(accessToken claims: TokenService.AccessTokenClaims) {
        self.init(
            active: true, token_type: "access_token", sub: claims.sub, scope: claims.scope, client_id: claims.client_id,
            iss: claims.iss, aud: claims.aud, exp: claims.exp, iat: claims.iat, jti: claims.jti)
    }

    private init(
        active: Bool, token_type: String?, sub: String?, scope: String?, client_id: String?, iss: String?, aud: String?,
        exp: Int64?, iat: Int64?, jti: String?
    ) {
        self.active = active
        self.token_type = token_type
        self.sub = sub
        self.scope = scope
        self.client_id = client_id
        self.iss = iss
        self.aud = aud
        self.exp = exp
        self.iat = iat
        self.jti = jti
    }
}
