import LatchkeyCore
import LatchkeyHTTP
import Foundation
import LatchkeyCrypto

/// Authorization server metadata (RFC 8414) at `/.well-known/oauth-authorization-server`,
/// the same document at `/.well-known/openid-configuration`, and `GET`/`POST /userinfo`.
///
/// Promises: the metadata advertises exactly what is implemented (PKCE `S256` only, the
/// `code` response type, the two grants); `/userinfo` answers only to a valid access token
/// with the `openid` scope and tells nothing else (RFC 6750 errors).
struct OpenIDRoutes {
    let tokens: TokenService
    /// The package URL every endpoint is under.
    let issuer: String

    var routes: [Route] {
        let metadata = metadataDocument()
        return [
            Route("GET", "/.well-known/oauth-authorization-server", name: "oauth_metadata", cacheable: true) { _ in
                Self.cached(metadata)
            },
            Route("GET", "/.well-known/openid-configuration", name: "openid_configuration", cacheable: true) { _ in
                Self.cached(metadata)
            },
            Route("GET", "/userinfo", name: "userinfo") { request in
                try userInfo(request)
            },
            // OpenID Connect Core §5.3.1: GET and POST; the token comes in the header either way.
            Route("POST", "/userinfo", name: "userinfo_post", body: .form) { request in
                try userInfo(request)
            },
        ]
    }

    private func userInfo(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("bearer "),
            let verified = try tokens.verifyAccessToken(Redacted(String(header.dropFirst("bearer ".count))))
        else {
            return Self.bearerError(401, "invalid_token", "The access token is invalid or expired.")
        }
        let scope = verified.claims.scope.split(separator: " ")
        guard scope.contains("openid") else {
            return Self.bearerError(403, "insufficient_scope", "The access token lacks the openid scope.")
        }
        var body: [String: Any] = ["sub": verified.account.id]
        if scope.contains("email") { body["email"] = verified.account.email }
        return .json(200, body)
    }

    private static func bearerError(_ status: Int, _ code: String, _ description: String) -> HTTPResponse {
        var response = HTTPResponse.json(status, ["error": code, "error_description": description])
        response.headers.set("WWW-Authenticate", "Bearer error=\"\(code)\", error_description=\"\(description)\"")
        return response
    }

    private static func cached(_ body: Data) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "public, max-age=3600")]),
            body: body)
    }

    private func metadataDocument() -> Data {
        let authMethods = ["client_secret_basic", "client_secret_post", "none"]
        let document: [String: Any] = [
            "issuer": issuer,
            "authorization_endpoint": issuer + "/oauth/authorize",
            "token_endpoint": issuer + "/oauth/token",
            "revocation_endpoint": issuer + "/oauth/revoke",
            "introspection_endpoint": issuer + "/oauth/introspect",
            "userinfo_endpoint": issuer + "/userinfo",
            "jwks_uri": issuer + "/.well-known/jwks.json",
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": authMethods,
            "revocation_endpoint_auth_methods_supported": authMethods,
            "introspection_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "scopes_supported": AuthorizationRequest.standardScopes,
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256"],
            "authorization_response_iss_parameter_supported": true,
            "prompt_values_supported": ["none", "login", "consent"],
            "request_parameter_supported": false,
            "request_uri_parameter_supported": false,
            "claims_supported": ["iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "email"],
            "ui_locales_supported": SupportedLanguage.allCases.map(\.rawValue),
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}
