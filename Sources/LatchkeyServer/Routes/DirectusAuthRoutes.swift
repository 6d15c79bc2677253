import LatchkeyCore
import LatchkeyHTTP
import Foundation
import LatchkeyCrypto

/// `POST /auth/login`, `/auth/refresh` and `/auth/logout`, compatible with Directus's
/// JSON mode: success is `{"data": {"access_token", "refresh_token", "expires"}}` with
/// `expires` in milliseconds, errors are Directus's `{"errors": [...]}`.
///
/// Login answers one `INVALID_CREDENTIALS` for an unknown account, a wrong password and a
/// disabled account (see ``PasswordLogin``); beyond the failure limit the answer is 429
/// `REQUESTS_EXCEEDED` with `Retry-After`. Refresh and logout accept only first-party
/// tokens (issued here, not to an OAuth client).
struct DirectusAuthRoutes {
    let tokens: TokenService
    let passwordLogin: PasswordLogin
    let clock: any WallClock
    let logger: Logger

    static let invalidCredentials = LatchkeyError(.invalidCredentials, "Invalid user credentials.")

    var routes: [Route] {
        [
            Route("POST", "/auth/login", name: "directus_login", body: .json, errorShape: .directus) { request in
                try login(request)
            },
            Route("POST", "/auth/refresh", name: "directus_refresh", body: .json, errorShape: .directus) { request in
                try refresh(request)
            },
            Route("POST", "/auth/logout", name: "directus_logout", body: .json, errorShape: .directus) { request in
                try logout(request)
            },
        ]
    }

    private func login(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONBody(request)
        let email = try body.string("email", maxLength: 320)
        let password = PasswordPolicy.normalized(try body.secret("password", maxLength: 4096))
        if let mode = try body.optionalString("mode", maxLength: 16), mode != "json" {
            throw LatchkeyError(.invalidRequest, "Only \"json\" mode is supported.")
        }
        let account: Account
        switch try passwordLogin.attempt(email: email, password: password, clientIP: request.clientIP, now: clock.now()) {
        case .authenticated(let authenticated):
            account = authenticated
        case .rejected:
            throw Self.invalidCredentials
        case .limited(let retryAfter):
            return .directusError(
                LatchkeyError(.rateLimited, "Too many attempts. Please wait a moment and try again."), retryAfter: retryAfter)
        }
        let issued: TokenService.IssuedTokens
        do {
            issued = try tokens.issue(for: account, clientID: nil, scope: [])
        } catch let error as LatchkeyError where error.code == .invalidToken {
            // The password changed or the account was disabled while we checked.
            throw Self.invalidCredentials
        }
        logger.info("login_succeeded", ["account": .string(account.id)])
        return Self.tokenResponse(issued)
    }

    private func refresh(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONBody(request)
        if let mode = try body.optionalString("mode", maxLength: 16), mode != "json" {
            throw LatchkeyError(.invalidRequest, "Only \"json\" mode is supported.")
        }
        let token = try body.secret("refresh_token", maxLength: 512)
        return Self.tokenResponse(try tokens.refresh(token, clientID: nil))
    }

    private func logout(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONBody(request)
        try tokens.revoke(try body.secret("refresh_token", maxLength: 512), clientID: nil)
        return HTTPResponse(status: 204)
    }

    private static func tokenResponse(_ issued: TokenService.IssuedTokens) -> HTTPResponse {
        .json(200, [
            "data": [
                "access_token": issued.accessToken.exposed, "refresh_token": issued.refreshToken.exposed,
                "expires": Int(issued.expiresIn * 1000),
            ]
        ])
    }
}
