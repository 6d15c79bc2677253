import Foundation
import LatchkeyCrypto

/// `POST /auth/login`, `/auth/refresh` and `/auth/logout`, compatible with Directus's
/// JSON mode: success is `{"data": {"access_token", "refresh_token", "expires"}}` with
/// `expires` in milliseconds, errors are Directus's `{"errors": [...]}`.
///
/// Login answers one `INVALID_CREDENTIALS` for an unknown account, a wrong password and a
/// disabled account, after the same password-hashing work on every path. Failed logins
/// count per client IP and per account (``failurePolicy``); beyond it the answer is 429
/// `REQUESTS_EXCEEDED` with `Retry-After`, the wait doubling on each attempt while blocked.
struct DirectusAuthRoutes {
    let store: any Store
    let tokens: TokenService
    let hasher: PasswordHasher
    let limiter: any RateLimiter
    let clock: any WallClock
    let logger: Logger

    /// At most 10 failed logins in 15 minutes per client IP and per account.
    static let failurePolicy = RateLimitPolicy(
        windows: [.init(limit: 10, seconds: 900)], basePenalty: 60, maximumPenalty: 3600)

    static let invalidCredentials = LatchkeyError(.invalidCredentials, "Invalid user credentials.")

    var routes: [Route] {
        [
            Route("POST", "/auth/login", name: "directus_login", body: .json) { request in
                directus(route: "directus_login") { try login(request) }
            },
            Route("POST", "/auth/refresh", name: "directus_refresh", body: .json) { request in
                directus(route: "directus_refresh") { try refresh(request) }
            },
            Route("POST", "/auth/logout", name: "directus_logout", body: .json) { request in
                directus(route: "directus_logout") { try logout(request) }
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
        let normalizedEmail = (try? EmailAddress(email))?.normalized ?? email.lowercased()
        let now = clock.now()
        let failureKeys = [
            "login-ip:" + IPAddress.rateLimitKey(request.clientIP),
            "login-account:" + Base64URL.encode(SHA256.hash(Data(normalizedEmail.utf8))),
        ]
        for key in failureKeys {
            if case .limited = try limiter.check(key, policy: Self.failurePolicy, now: now) {
                // Consuming while blocked doubles the wait.
                let decision = try limiter.consume(key, policy: Self.failurePolicy, now: now)
                let retryAfter = if case .limited(let seconds) = decision { seconds } else { 1 }
                logger.info("login_limited", ["ip": .string(IPAddress.truncatedForLogs(request.clientIP)), "retry_after": .int(retryAfter)])
                return .directusError(
                    LatchkeyError(.rateLimited, "Too many attempts. Please wait a moment and try again."), retryAfter: retryAfter)
            }
        }

        let account = try store.account(email: normalizedEmail)
        let verified: Bool
        if let account, let hash = account.passwordHash {
            verified = hasher.verify(password, against: hash) && account.status == .active
        } else {
            _ = hasher.verifyAgainstDummy(password)
            verified = false
        }
        guard let account, verified, let hash = account.passwordHash else {
            for key in failureKeys { _ = try limiter.consume(key, policy: Self.failurePolicy, now: now) }
            logger.info("login_failed", ["ip": .string(IPAddress.truncatedForLogs(request.clientIP))])
            throw Self.invalidCredentials
        }
        if hasher.needsRehash(hash) {
            _ = try store.rehashPassword(accountID: account.id, currentHash: hash, newHash: try hasher.hash(password), now: now)
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
        return Self.tokenResponse(try tokens.refresh(token))
    }

    private func logout(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONBody(request)
        try tokens.revoke(try body.secret("refresh_token", maxLength: 512))
        return HTTPResponse(status: 204)
    }

    /// Runs `handler`, answering its errors in Directus's shape; server-side failures are logged.
    private func directus(route: String, _ handler: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try handler()
        } catch let error as LatchkeyError {
            if !error.isClientError {
                logger.error("request_failed", ["route": .string(route), "error": .string(error.description)])
            }
            return .directusError(error)
        } catch {
            logger.error("request_failed", ["route": .string(route), "error": .string(String(describing: type(of: error)))])
            return .directusError(LatchkeyError(.internalError, "Unexpected failure."))
        }
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
