import LatchkeyCore
import LatchkeyHTTP
import Foundation
import LatchkeyCrypto

/// `POST /oauth/token` (RFC 6749 §3.2 with PKCE), `/oauth/revoke` (RFC 7009) and
/// `/oauth/introspect` (RFC 7662). Form-encoded requests; errors in OAuth's shape
/// (`HTTPResponse.oauthError`), never cached.
///
/// Promises: only the `authorization_code` and `refresh_token` grants exist; a repeated
/// parameter is `invalid_request`; confidential clients must authenticate; a refresh token
/// works only for the client it was issued to; revocation answers 200 whether or not the
/// token existed; introspection requires a confidential client and says `{"active": false}`
/// and nothing more for every token that is not valid right now.
struct OAuthTokenRoutes {
    let tokens: TokenService
    let store: any AuthorizationStore
    let authenticator: ClientAuthenticator
    let clock: any WallClock
    let logger: Logger

    var routes: [Route] {
        [
            Route("POST", "/oauth/token", name: "oauth_token", body: .form, errorShape: .oauth) { request in
                try token(request)
            },
            Route("POST", "/oauth/revoke", name: "oauth_revoke", body: .form, errorShape: .oauth) { request in
                try revoke(request)
            },
            Route("POST", "/oauth/introspect", name: "oauth_introspect", body: .form, errorShape: .oauth) { request in
                try introspect(request)
            },
        ]
    }

    private func token(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = try FormParameters(body: request)
        let grantType = try form.required("grant_type", maxLength: 64)
        let caller = try authenticator.caller(authorization: request.headers["Authorization"], form: form)
        let issued: TokenService.IssuedTokens
        switch grantType {
        case "authorization_code":
            issued = try tokens.redeem(
                code: try form.secret("code", maxLength: TokenService.maximumOpaqueTokenLength), clientID: caller.client.id,
                redirectURI: try form.required("redirect_uri", maxLength: RedirectURI.maximumLength),
                codeVerifier: try form.secret("code_verifier", maxLength: 128))
        case "refresh_token":
            let requestedScope = try form.optional("scope", maxLength: 1024).map { $0.split(separator: " ").map(String.init) }
            issued = try tokens.refresh(
                try form.secret("refresh_token", maxLength: TokenService.maximumOpaqueTokenLength), clientID: caller.client.id,
                requestedScope: requestedScope)
        default:
            throw LatchkeyError(.unsupportedGrantType, "Only authorization_code and refresh_token grants are supported.")
        }
        var body: [String: Any] = [
            "access_token": issued.accessToken.exposed, "token_type": "Bearer", "expires_in": Int(issued.expiresIn),
            "refresh_token": issued.refreshToken.exposed, "scope": issued.scope.joined(separator: " "),
        ]
        if let idToken = issued.idToken { body["id_token"] = idToken.exposed }
        logger.info("oauth_tokens_issued", ["client_id": .string(caller.client.id), "grant_type": .string(grantType)])
        return .json(200, body)
    }

    private func revoke(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = try FormParameters(body: request)
        let caller = try authenticator.caller(authorization: request.headers["Authorization"], form: form)
        _ = try form.optional("token_type_hint", maxLength: 64)
        try tokens.revoke(try form.secret("token", maxLength: 16 * 1024), clientID: caller.client.id)
        return HTTPResponse(status: 200)
    }

    private func introspect(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = try FormParameters(body: request)
        let caller = try authenticator.caller(authorization: request.headers["Authorization"], form: form)
        guard caller.authenticated else {
            throw LatchkeyError(.invalidClient, "Introspection requires a confidential client.")
        }
        _ = try form.optional("token_type_hint", maxLength: 64)
        let token = try form.secret("token", maxLength: 16 * 1024)
        let inactive = HTTPResponse.json(200, ["active": false])
        if let digest = OpaqueToken.wellFormedDigest(token) {
            guard let (record, account) = try store.usableRefreshToken(digest: digest, now: clock.now()) else { return inactive }
            var body: [String: Any] = [
                "active": true, "token_type": "refresh_token", "sub": account.id, "scope": record.scope.joined(separator: " "),
                "iss": tokens.settings.issuer, "exp": Int64(record.expiresAt.timeIntervalSince1970),
                "iat": Int64(record.createdAt.timeIntervalSince1970),
            ]
            if let clientID = record.clientID { body["client_id"] = clientID }
            return .json(200, body)
        }
        guard let verified = try tokens.verifyAccessToken(token) else { return inactive }
        let claims = verified.claims
        var body: [String: Any] = [
            "active": true, "token_type": "access_token", "sub": claims.sub, "scope": claims.scope, "iss": claims.iss,
            "aud": claims.aud, "exp": claims.exp, "iat": claims.iat, "jti": claims.jti,
        ]
        if let clientID = claims.client_id { body["client_id"] = clientID }
        return .json(200, body)
    }
}
