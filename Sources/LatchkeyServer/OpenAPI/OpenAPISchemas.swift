import LatchkeyCore

/// The schemas the operations refer to (`#/components/schemas/…`): the error shapes, the token
/// replies, the token request (its grant types and parameters from ``TokenGrants``).
enum OpenAPISchemas {
    /// Every schema, by name, for a server whose token endpoint offers `grants`.
    static func all(grants: TokenGrants) -> [String: JSONValue] {
        var schemas = fixed
        schemas["TokenRequest"] = tokenRequest(grants: grants)
        return schemas
    }

    /// The token endpoint's request: `grant_type` one of the registered grants, each grant's
    /// parameters, and the client authentication parameters.
    private static func tokenRequest(grants: TokenGrants) -> JSONValue {
        var properties: [String: JSONValue] = [
            "grant_type": .object(["type": .string("string"), "enum": .strings(grants.grantTypes)]),
            "client_id": .object(["type": .string("string")]),
            "client_secret": .object(["type": .string("string")]),
        ]
        for grant in grants.grants {
            for parameter in grant.parameters {
                properties[parameter.name] = parameterSchemas[parameter.name] ?? .object(["type": .string("string")])
            }
        }
        return .object([
            "type": .string("object"),
            "description": .string(
                "Client authentication: client_secret_basic (Authorization header) or client_secret_post for confidential "
                    + "clients; client_id alone for public clients. A repeated parameter is invalid_request. Parameters by "
                    + "grant_type: " + grants.grants.map { grant in
                        grant.grantType + " (" + grant.parameters.map { $0.name + ($0.required ? "" : ", optional") }
                            .joined(separator: "; ") + ")"
                    }.joined(separator: ", ") + "."),
            "required": .strings(["grant_type"]),
            "properties": .object(properties),
        ])
    }

    /// Token request parameters whose schema says more than "a string".
    private static let parameterSchemas: [String: JSONValue] = [
        "code_verifier": .object(["type": .string("string"), "minLength": .integer(43), "maxLength": .integer(128)]),
    ]

    private static let fixed: [String: JSONValue] = [
            "Error": .object([
                "type": .string("object"),
                "required": .strings(["error"]),
                "properties": .object([
                    "error": .object([
                        "type": .string("object"),
                        "required": .strings(["code", "message"]),
                        "properties": .object([
                            "code": .object(["type": .string("string"), "examples": .strings(["invalid_token"])]),
                            "message": .object(["type": .string("string")]),
                            "reasons": .object([
                                "type": .string("array"),
                                "items": .object([
                                    "type": .string("string"),
                                    "enum": .strings(["too_short", "too_long", "too_weak", "contains_email"]),
                                ]),
                            ]),
                        ]),
                    ]),
                ]),
            ]),
            "DirectusError": .object([
                "type": .string("object"),
                "required": .strings(["errors"]),
                "properties": .object(["errors": .reference("DirectusErrorList")]),
            ]),
            "DirectusErrorList": .object([
                "type": .string("array"),
                "minItems": .integer(1),
                "maxItems": .integer(1),
                "items": .object([
                    "type": .string("object"),
                    "required": .strings(["message", "extensions"]),
                    "properties": .object([
                        "message": .object(["type": .string("string")]),
                        "extensions": .object([
                            "type": .string("object"),
                            "required": .strings(["code"]),
                            "properties": .object([
                                "code": .object([
                                    "type": .string("string"),
                                    "enum": .strings([
                                        "INVALID_CREDENTIALS",
                                        "INVALID_TOKEN",
                                        "INVALID_PAYLOAD",
                                        "FAILED_VALIDATION",
                                        "FORBIDDEN",
                                        "REAUTHENTICATION_REQUIRED",
                                        "INVALID_QUERY",
                                        "REQUESTS_EXCEEDED",
                                        "SERVICE_UNAVAILABLE",
                                        "INTERNAL_SERVER_ERROR",
                                    ]),
                                ]),
                                "field": .object([
                                    "type": .string("string"),
                                    "enum": .strings(["email", "password"]),
                                    "description": .string("With FAILED_VALIDATION: the field that was refused."),
                                ]),
                            ]),
                        ]),
                    ]),
                ]),
            ]),
            "ResetError": .object([
                "type": .string("object"),
                "description": .string("The errors of the reset routes and of the account's own routes (/users/…): Latchkey's error object and Directus's errors array in one body, so Latchkey's SDK and Directus SDKs both read them. The status is Latchkey's (400 for invalid_token, not Directus's 401/403)."),
                "required": .strings(["error", "errors"]),
                "properties": .object([
                    "error": .object(["$ref": .string("#/components/schemas/Error/properties/error")]),
                    "errors": .reference("DirectusErrorList"),
                ]),
            ]),
            "OAuthError": .object([
                "type": .string("object"),
                "required": .strings(["error"]),
                "properties": .object([
                    "error": .object([
                        "type": .string("string"),
                        "enum": .strings([
                            "invalid_request",
                            "invalid_client",
                            "invalid_grant",
                            "unauthorized_client",
                            "unsupported_grant_type",
                            "invalid_scope",
                            "server_error",
                            "temporarily_unavailable",
                        ]),
                    ]),
                    "error_description": .object(["type": .string("string")]),
                ]),
            ]),
            "OAuthTokens": .object([
                "type": .string("object"),
                "required": .strings(["access_token", "token_type", "expires_in", "refresh_token", "scope"]),
                "properties": .object([
                    "access_token": .object([
                        "type": .string("string"),
                        "description": .string("ES256 JWT (typ at+jwt, RFC 9068) with iss, aud, sub, client_id, scope, jti, iat, exp, cv (credential version) and sid (login id)."),
                    ]),
                    "token_type": .object(["type": .string("string"), "enum": .strings(["Bearer"])]),
                    "expires_in": .object([
                        "type": .string("integer"),
                        "description": .string("Access token lifetime in seconds."),
                    ]),
                    "refresh_token": .object([
                        "type": .string("string"),
                        "description": .string("Opaque; single use, rotated on every refresh; reuse revokes the login."),
                    ]),
                    "scope": .object(["type": .string("string")]),
                    "id_token": .object([
                        "type": .string("string"),
                        "description": .string("OpenID Connect ID token, signed with the client's registered algorithm (RS256 unless ES256 or EdDSA was chosen), at code exchange when the scope has openid."),
                    ]),
                ]),
            ]),
            "TokenParameter": .object([
                "type": .string("object"),
                "required": .strings(["token"]),
                "properties": .object([
                    "token": .object(["type": .string("string")]),
                    "token_type_hint": .object(["type": .string("string"), "enum": .strings(["access_token", "refresh_token"])]),
                    "client_id": .object(["type": .string("string")]),
                    "client_secret": .object(["type": .string("string")]),
                ]),
            ]),
            "DirectusTokens": .object([
                "type": .string("object"),
                "required": .strings(["data"]),
                "properties": .object([
                    "data": .object([
                        "type": .string("object"),
                        "required": .strings(["expires"]),
                        "properties": .object([
                            "access_token": .object([
                                "type": .string("string"),
                                "description": .string("ES256 JWT (typ at+jwt). Left out in session mode (it is in the directus_session_token cookie)."),
                            ]),
                            "refresh_token": .object([
                                "type": .string("string"),
                                "description": .string("Opaque; single use, rotated on every refresh. Only in json mode (else in the directus_refresh_token cookie)."),
                            ]),
                            "expires": .object([
                                "type": .string("integer"),
                                "description": .string("Access token lifetime in milliseconds."),
                            ]),
                        ]),
                    ]),
                ]),
            ]),
            "DirectusMode": .object([
                "type": .strings(["string", "null"]),
                "enum": .array([.string("json"), .string("cookie"), .string("session"), .null]),
                "description": .string("json (also null or absent): tokens in the body. cookie: the refresh token in the directus_refresh_token cookie (HttpOnly, SameSite=Strict, Path=/auth, Secure over https). session: the access token in the directus_session_token cookie too (HttpOnly, SameSite=Lax, Path=/). Requests in cookie or session mode must come from the server's own origin (Origin, else Sec-Fetch-Site), else 403 FORBIDDEN."),
            ]),
            "DirectusTokenRequest": .object([
                "type": .string("object"),
                "description": .string("May be empty or absent (no body): the refresh token then comes from the directus_refresh_token cookie. Without mode: json when refresh_token is given, else cookie."),
                "properties": .object([
                    "refresh_token": .object(["type": .string("string")]),
                    "mode": .reference("DirectusMode"),
                ]),
            ]),
    ]
}
