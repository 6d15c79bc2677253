import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP

/// `POST /oauth/token` (RFC 6749 §3.2 with PKCE), `/oauth/revoke` (RFC 7009) and
/// `/oauth/introspect` (RFC 7662). Form-encoded requests; errors in OAuth's shape, never cached.
///
/// Promises: only the grants of ``TokenGrants`` exist; a repeated
/// parameter is `invalid_request`; confidential clients must authenticate; a refresh token
/// works only for the client it was issued to; revocation answers 200 whether or not the
/// token existed; introspection requires a confidential client registered as a resource
/// server (403 `unauthorized_client` for others) and says `{"active": false}` and nothing
/// more for every token that is not valid right now or is another client's refresh token.
struct OAuthTokenRoutes {
    let tokens: TokenService
    let grants: TokenGrants
    let authenticator: ClientAuthenticator
    let logger: Logger

    var routes: [Route] {
        [
            Route("POST", "/oauth/token", name: "oauth_token", body: .form, errorShape: .oauth) { request in
                try token(request)
            },
            Route("POST", "/oauth/revoke", name: "oauth_revoke", body: .form, errorShape: .oauth) { request in
                let form = try FormParameters(body: request)
                let caller = try authenticator.caller(authorization: request.headers["Authorization"], form: form)
                _ = try form.optional("token_type_hint", maxLength: 64)
                try tokens.revoke(try form.secret("token", maxLength: 16 * 1024), clientID: caller.client.id)
                return HTTPResponse(status: 200)
            },
            Route("POST", "/oauth/introspect", name: "oauth_introspect", body: .form, errorShape: .oauth) { request in
                let form = try FormParameters(body: request)
                let caller = try authenticator.caller(authorization: request.headers["Authorization"], form: form)
                guard caller.authenticated else {
                    throw LatchkeyError(.invalidClient, "Introspection requires a confidential client.")
                }
                _ = try form.optional("token_type_hint", maxLength: 64)
                return .json(try tokens.introspect(try form.secret("token", maxLength: 16 * 1024), for: caller.client))
            },
        ]
    }

    private func token(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = try FormParameters(body: request)
        let grantType = try form.required("grant_type", maxLength: 64)
        let caller = try authenticator.caller(authorization: request.headers["Authorization"], form: form)
        let issued = try grants.issue(
            grantType: grantType, form, client: caller.client,
            origin: LoginOrigin(clientIP: request.clientIP, userAgentHeader: request.headers["User-Agent"]))
        logger.info("oauth_tokens_issued", ["client_id": .string(caller.client.id), "grant_type": .string(grantType)])
        return .json(TokenReply(issued))
    }
}

/// The token endpoint's success body (RFC 6749 §5.1).
struct TokenReply: CompactJSONObject {
    let access_token: String
    let token_type = "Bearer"
    let expires_in: Int
    let refresh_token: String?
    let scope: String
    let id_token: String?

    init(_ issued: TokenService.IssuedTokens) {
        access_token = issued.accessToken.exposed
        expires_in = Int(issued.expiresIn)
        refresh_token = issued.refreshToken?.exposed
        scope = issued.scope.joined(separator: " ")
        id_token = issued.idToken?.exposed
    }

    func writeMembers(to object: inout CompactJSON.ObjectWriter) {
        object.member("access_token", access_token)
        object.member("expires_in", expires_in)
        object.member("id_token", id_token)
        object.member("refresh_token", refresh_token)
        object.member("scope", scope)
        object.member("token_type", token_type)
    }
}
