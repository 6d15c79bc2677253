package import LatchkeyCore
import Foundation

extension LatchkeyError {
    /// The HTTP status for this error. The one place where error codes meet HTTP.
    package var httpStatus: Int {
        switch code {
        case .invalidJSON, .invalidRequest, .invalidEmail, .resetURLNotAllowed, .invalidToken, .weakPassword,
            .invalidGrant, .unauthorizedClient, .unsupportedGrantType, .invalidScope, .unsupportedResponseType,
            .invalidRedirectURI, .requestNotSupported, .requestURINotSupported:
            400
        case .invalidCredentials, .invalidClient: 401
        case .forbidden: 403
        case .notFound, .accountNotFound: 404
        case .methodNotAllowed: 405
        case .accountExists: 409
        case .payloadTooLarge: 413
        case .unsupportedMediaType: 415
        case .rateLimited: 429
        case .rateLimiterUnavailable: 503
        default: 500
        }
    }

    /// Seconds after which a retry may succeed, for failures that pass (sent as `Retry-After`).
    package var retryAfter: Int? { code == .rateLimiterUnavailable ? 5 : nil }

    /// Whether the message may be shown to the client; server-side failures get a generic one.
    package var isClientError: Bool { httpStatus < 500 }
}

extension HTTPResponse {
    /// A JSON response with `object` serialised with sorted keys.
    package static func json(_ status: Int, _ object: [String: Any]) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "application/json")]), body: data)
    }

    /// The JSON error body `{"error": {"code", "message"[, "reasons"]}}` for `error`.
    package static func error(_ error: LatchkeyError) -> HTTPResponse {
        let message = error.isClientError ? error.message : "Something went wrong on our side. Please try again later."
        let code = error.isClientError ? error.code.rawValue : LatchkeyError.Code.internalError.rawValue
        var body: [String: Any] = ["code": code, "message": message]
        if !error.reasons.isEmpty { body["reasons"] = error.reasons }
        var response = HTTPResponse.json(error.httpStatus, ["error": body])
        if let retryAfter = error.retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }

    /// The error body in Directus's shape, `{"errors": [{"message", "extensions": {"code"}}]}`,
    /// for the Directus-compatible `/auth/login`, `/auth/refresh` and `/auth/logout`. The
    /// one mapping from Latchkey codes to Directus codes and statuses; a 429 carries
    /// `Retry-After` when `retryAfter` is given, a 503 the error's own.
    package static func directusError(_ error: LatchkeyError, retryAfter: Int? = nil) -> HTTPResponse {
        let (status, code): (Int, String) =
            switch error.code {
            case .invalidCredentials: (401, "INVALID_CREDENTIALS")
            case .invalidToken: (401, "INVALID_TOKEN")
            case .rateLimited: (429, "REQUESTS_EXCEEDED")
            case .rateLimiterUnavailable: (503, "SERVICE_UNAVAILABLE")
            case .payloadTooLarge: (413, "INVALID_PAYLOAD")
            case _ where error.isClientError: (400, "INVALID_PAYLOAD")
            default: (500, "INTERNAL_SERVER_ERROR")
            }
        let message = status < 500 ? error.message : "Something went wrong on our side. Please try again later."
        var response = HTTPResponse.json(status, ["errors": [["message": message, "extensions": ["code": code]]]])
        if let retryAfter = retryAfter ?? error.retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }

    /// An OAuth error body (RFC 6749 §5.2) `{"error", "error_description"}` for `error`: the
    /// one mapping from Latchkey codes to OAuth error codes for the token, revocation and
    /// introspection endpoints. `invalid_client` after HTTP Basic authentication carries
    /// `WWW-Authenticate: Basic` (`basicChallenge`).
    package static func oauthError(_ error: LatchkeyError, basicChallenge: Bool = false) -> HTTPResponse {
        let code: String =
            switch error.code {
            case .invalidClient, .invalidGrant, .unauthorizedClient, .unsupportedGrantType, .invalidScope,
                .unsupportedResponseType:
                error.code.rawValue
            case .invalidToken: LatchkeyError.Code.invalidGrant.rawValue
            case _ where error.isClientError: LatchkeyError.Code.invalidRequest.rawValue
            default: "server_error"
            }
        let status = error.code == .invalidToken ? 400 : error.httpStatus
        let description = error.isClientError ? error.message : "Something went wrong on our side. Please try again later."
        var response = HTTPResponse.json(status, ["error": code, "error_description": description])
        if error.code == .invalidClient, basicChallenge {
            response.headers.set("WWW-Authenticate", "Basic realm=\"latchkey\", charset=\"UTF-8\"")
        }
        return response
    }

    /// `error` in Latchkey's JSON shape with the security headers, for a request the server
    /// answers without a route.
    package static func rejected(_ error: LatchkeyError) -> HTTPResponse {
        var response = HTTPResponse.error(error)
        Router.addSecurityHeaders(to: &response, cacheable: false)
        return response
    }

    /// A 429 response telling the client when to come back.
    package static func rateLimited(retryAfter: Int) -> HTTPResponse {
        var response = HTTPResponse.error(LatchkeyError(.rateLimited, "Too many attempts. Please wait a moment and try again."))
        response.headers.set("Retry-After", String(retryAfter))
        return response
    }
}
