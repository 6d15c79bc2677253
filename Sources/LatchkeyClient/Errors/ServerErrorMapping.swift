public import Foundation

extension LatchkeyClientError {
    /// The largest error body that is parsed; a bigger one is judged by its status alone.
    static let maximumErrorBodySize = 64 * 1024

    /// The error for an unsuccessful server reply: the one place where HTTP statuses and
    /// server error codes meet the SDK's taxonomy. Pure: no I/O, no clock.
    ///
    /// Understands three error body shapes:
    /// - Latchkey: `{"error": {"code": "weak_password", "message": "…", "reasons": ["too_short"]}}`
    /// - Directus: `{"errors": [{"message": "…", "extensions": {"code": "INVALID_TOKEN"}}]}`
    /// - OAuth (RFC 6749 §5.2): `{"error": "invalid_grant", "error_description": "…"}`
    ///
    /// A known server code decides; otherwise the status does: 429 → `rate_limited`,
    /// 5xx and 408 → `server_unavailable`, other 4xx → `request_rejected`, anything else →
    /// `unexpected_response`. Server messages are never copied (they may be technical or
    /// echo input); the result carries the status and the server code for logs.
    ///
    /// This form knows no `Retry-After`; ``from(status:body:retryAfter:now:)`` reads it.
    public static func from(status: Int, body: Data) -> LatchkeyClientError {
        from(status: status, body: body, wait: nil)
    }

    /// As ``from(status:body:)``, and for a `429` or `503` reply also the wait its
    /// `Retry-After` field value asks for (``retryAfter``): delta-seconds, or an HTTP-date
    /// counted from `now` (the time the reply came). A value that is neither is ignored, a
    /// date in the past is a wait of zero, and a wait over a day is cut to a day. Other
    /// statuses ignore the field (on a `3xx` it means something else).
    public static func from(status: Int, body: Data, retryAfter: String?, now: Date) -> LatchkeyClientError {
        let wait = status == 429 || status == 503 ? retryAfter.flatMap { RetryAfterField.delay($0, now: now) } : nil
        return from(status: status, body: body, wait: wait)
    }

    private static func from(status: Int, body: Data, wait: Duration?) -> LatchkeyClientError {
        let reply = body.count <= maximumErrorBodySize ? ServerErrorBody(json: body) : nil
        if let reply, let code = knownCode(reply) {
            let reasons = code == .weakPassword || code == .passkeyRefused ? reply.reasons : []
            return LatchkeyClientError(code, reasons: reasons, status: status, serverCode: reply.code, retryAfter: wait)
        }
        let code: Code =
            switch status {
            case 429: .rateLimited
            case 408, 500...599: .serverUnavailable
            case 400...499: .requestRejected
            default: .unexpectedResponse
            }
        return LatchkeyClientError(code, status: status, serverCode: reply?.code, retryAfter: wait)
    }

    private static func knownCode(_ reply: ServerErrorBody) -> Code? {
        switch reply.code {
        // Latchkey's codes.
        case "invalid_token": .invalidToken
        case "weak_password": .weakPassword
        case "invalid_email": .invalidEmail
        case "rate_limited": .rateLimited
        case "invalid_credentials": .invalidCredentials
        case "reauthentication_required": .reauthenticationRequired
        case "invalid_otp": .invalidOTP
        case "invalid_passkey": .passkeyRefused
        case "passkey_exists": .passkeyExists
        case "last_sign_in_method": .lastSignInMethod
        case "internal_error", "storage_error", "mail_delivery_failed", "server_busy", "rate_limiter_unavailable": .serverUnavailable
        // Directus's codes.
        case "INVALID_TOKEN", "TOKEN_EXPIRED": .invalidToken
        case "INVALID_CREDENTIALS": .invalidCredentials
        case "REAUTHENTICATION_REQUIRED": .reauthenticationRequired
        case "INVALID_OTP": .invalidOTP
        case "REQUESTS_EXCEEDED": .rateLimited
        // Latchkey's passkey routes, in Directus's shape.
        case "INVALID_PASSKEY": .passkeyRefused
        case "PASSKEY_EXISTS": .passkeyExists
        case "LAST_SIGN_IN_METHOD": .lastSignInMethod
        case "SERVICE_UNAVAILABLE", "INTERNAL_SERVER_ERROR": .serverUnavailable
        // Directus reports its password policy and bad emails as failed field validation.
        case "FAILED_VALIDATION" where reply.field == "password": .weakPassword
        case "FAILED_VALIDATION" where reply.field == "email": .invalidEmail
        // OAuth's codes (RFC 6749 §5.2, §4.1.2.1): a rejected grant ends the session.
        case "invalid_grant": .sessionExpired
        case "access_denied": .authorizationFailed
        case "temporarily_unavailable", "server_error": .serverUnavailable
        default: nil
        }
    }
}

/// The code and details of an error body in Latchkey's or Directus's shape.
private struct ServerErrorBody {
    let code: String
    let reasons: [String]
    let field: String?

    init?(json: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else { return nil }
        if let error = object["error"] as? [String: Any], let code = error["code"] as? String {
            self.code = code
            // Reasons are short machine codes; anything else is not kept.
            self.reasons = (error["reasons"] as? [Any] ?? []).prefix(16)
                .compactMap { $0 as? String }.filter(Self.isReasonCode)
            self.field = nil
        } else if let code = object["error"] as? String, code.utf8.count <= 64 {
            self.code = code
            self.reasons = []
            self.field = nil
        } else if let errors = object["errors"] as? [Any], let first = errors.first as? [String: Any],
            let extensions = first["extensions"] as? [String: Any], let code = extensions["code"] as? String
        {
            self.code = code
            // A passkey refusal names the failed check (`extensions.reason`), a short machine code.
            self.reasons = (extensions["reason"] as? String).map { [$0] }?.filter(Self.isReasonCode) ?? []
            self.field = extensions["field"] as? String
        } else {
            return nil
        }
    }

    /// Whether `text` is a machine code worth keeping: 1–64 of `a–z 0–9 _ -`.
    private static func isReasonCode(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2D }
    }
}
