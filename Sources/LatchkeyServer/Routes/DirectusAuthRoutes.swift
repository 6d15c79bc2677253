import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP

/// `POST /auth/login`, `/auth/refresh` and `/auth/logout`, compatible with Directus's
/// JSON mode: success is `{"data": {"access_token", "refresh_token", "expires"}}` with
/// `expires` in milliseconds, errors are Directus's `{"errors": [...]}`.
///
/// Login answers one `INVALID_CREDENTIALS` for an unknown account, a wrong password and a
/// disabled account (see ``PasswordLogin``); beyond the failure limit the answer is 429
/// `REQUESTS_EXCEEDED` with `Retry-After`. Refresh and logout accept only first-party
/// tokens (issued here, not to an OAuth client).
struct DirectusAuthRoutes {
    let login: FirstPartyLogin
    let tokens: TokenService

    var routes: [Route] {
        [
            Route("POST", "/auth/login", name: "directus_login", body: .json, errorShape: .directus, lane: .passwordHashing) { request in
                let body = try request.decodeJSON(LoginBody.self)
                return .json(DirectusTokens(try login.signIn(email: body.email, password: body.password, clientIP: request.clientIP)))
            },
            Route("POST", "/auth/refresh", name: "directus_refresh", body: .json, errorShape: .directus) { request in
                let body = try request.decodeJSON(RefreshBody.self)
                return .json(DirectusTokens(try tokens.refresh(body.refreshToken, clientID: nil)))
            },
            Route("POST", "/auth/logout", name: "directus_logout", body: .json, errorShape: .directus) { request in
                let body = try request.decodeJSON(LogoutBody.self)
                try tokens.revoke(body.refreshToken, clientID: nil)
                return HTTPResponse(status: 204)
            },
        ]
    }
}

/// `{email, password, mode?}`.
private struct LoginBody: Decodable {
    let email: String
    let password: Redacted<String>

    private enum CodingKeys: String, CodingKey { case email, password, mode }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        email = try fields.text(.email, maxBytes: 320)
        password = try fields.secret(.password, maxBytes: 4096)
        try requireJSONMode(try fields.optionalText(.mode, maxBytes: 16))
    }
}

/// `{refresh_token, mode?}`.
private struct RefreshBody: Decodable {
    let refreshToken: Redacted<String>

    private enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token", mode
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        try requireJSONMode(try fields.optionalText(.mode, maxBytes: 16))
        refreshToken = try fields.secret(.refreshToken, maxBytes: 512)
    }
}

/// `{refresh_token}`.
private struct LogoutBody: Decodable {
    let refreshToken: Redacted<String>

    private enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token"
    }

    init(from decoder: any Decoder) throws {
        refreshToken = try decoder.container(keyedBy: CodingKeys.self).secret(.refreshToken, maxBytes: 512)
    }
}

/// Only Directus's `json` mode (tokens in the body) is served.
private func requireJSONMode(_ mode: String?) throws {
    if let mode, mode != "json" {
        throw LatchkeyError(.invalidRequest, "Only \"json\" mode is supported.")
    }
}

/// `{"data": {"access_token", "refresh_token", "expires"}}`, `expires` in milliseconds.
private struct DirectusTokens: Encodable {
    struct Data: Encodable {
        let access_token: String
        let refresh_token: String
        let expires: Int
    }
    let data: Data

    init(_ issued: TokenService.IssuedTokens) {
        data = Data(
            access_token: issued.accessToken.exposed, refresh_token: issued.refreshToken.exposed,
            expires: Int(issued.expiresIn * 1000))
    }
}
