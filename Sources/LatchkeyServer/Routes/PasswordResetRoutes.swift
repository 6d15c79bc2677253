import LatchkeyCore
import LatchkeyHTTP
import Foundation
import LatchkeyCrypto

/// `POST /auth/password/request`, `/validate` and `/reset`: the JSON API of the reset flow.
///
/// Every request on these routes counts against the client IP's budget (default 20 per
/// 10 minutes); beyond it the answer is 429 with `Retry-After`, the wait doubling on each
/// further attempt up to an hour — the same for every address, so failed token guesses
/// are bounded too.
struct PasswordResetRoutes {
    let service: PasswordRecoveryService
    let limiter: any RateLimiter
    let ipPolicy: RateLimitPolicy
    let clock: any WallClock
    let abuse: AbuseMonitor
    let logger: Logger

    /// The one body every well-formed reset request gets, known account or not.
    static let acceptedBody = Data(#"{"message":"If an account exists for this address, we have sent a link to reset its password."}"#.utf8)

    var routes: [Route] {
        [
            Route("POST", "/auth/password/request", name: "password_request", body: .json) { request in
                try limited(request) ?? requestReset(request)
            },
            Route("POST", "/auth/password/validate", name: "password_validate", body: .json) { request in
                try limited(request) ?? validate(request)
            },
            Route("POST", "/auth/password/reset", name: "password_reset", body: .json) { request in
                try limited(request) ?? reset(request)
            },
        ]
    }

    private func limited(_ request: HTTPRequest) throws -> HTTPResponse? {
        switch try limiter.consume("reset-ip:" + IPAddress.rateLimitKey(request.clientIP), policy: ipPolicy, now: clock.now()) {
        case .allowed:
            return nil
        case .limited(let retryAfter):
            logger.info("reset_ip_limited", ["ip": .string(IPAddress.truncatedForLogs(request.clientIP)), "retry_after": .int(retryAfter)])
            return .rateLimited(retryAfter: retryAfter)
        }
    }

    private func requestReset(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONBody(request)
        let parsed = try service.parseRequest(
            email: try body.string("email", maxLength: 320),
            resetURL: try body.optionalString("reset_url", maxLength: 2048),
            locale: try body.optionalString("locale", maxLength: 35),
            acceptLanguage: request.headers["Accept-Language"])
        let now = clock.now()
        if abuse.record("ip:" + IPAddress.rateLimitKey(request.clientIP), now: now) {
            logger.warning("reset_abuse_suspected", ["source": "ip", "ip": .string(IPAddress.truncatedForLogs(request.clientIP))])
        }
        if abuse.record("domain:" + parsed.email.domain, now: now) {
            logger.warning("reset_abuse_suspected", ["source": "email_domain", "domain": .string(parsed.email.domain)])
        }
        logger.info("reset_requested", [
            "address": .string(service.addressKey(parsed.email)), "ip": .string(IPAddress.truncatedForLogs(request.clientIP)),
        ])
        try service.requestReset(parsed)
        return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Self.acceptedBody)
    }

    private func validate(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONBody(request)
        let status = try service.validate(token: try body.secret("token", maxLength: 512))
        return .json(200, [
            "valid": true, "email_hint": status.emailHint,
            "expires_at": ISO8601DateFormatter().string(from: status.expiresAt),
        ])
    }

    private func reset(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONBody(request)
        let token = try body.secret("token", maxLength: 512)
        let password = try body.secret("password", maxLength: 4096)
        do {
            try service.resetPassword(token: token, newPassword: password)
        } catch let error as LatchkeyError where error.code == .invalidToken {
            logger.info("reset_token_rejected", ["ip": .string(IPAddress.truncatedForLogs(request.clientIP))])
            throw error
        }
        return .json(200, ["message": "Your password has been changed."])
    }
}
