package import LatchkeyCore
import Foundation

/// How a route's errors look on the wire. Each shape is written in one place below; an error
/// carries everything a shape needs (code, message, reasons, retry-after).
package enum ErrorShape: Sendable {
    /// Latchkey's `{"error": {"code", "message"[, "reasons"]}}`.
    case latchkey
    /// OAuth's `{"error", "error_description"}` (RFC 6749 §5.2); `invalid_client` after HTTP
    /// Basic authentication carries the Basic challenge.
    case oauth
    /// Directus's `{"errors": [{"message", "extensions": {"code"}}]}`.
    case directus
    /// Both in one body, with Latchkey's status: `{"error": {"code", "message"[, "reasons"]},
    /// "errors": [{"message", "extensions": {"code"[, "field"]}}]}`, for routes that Latchkey's
    /// clients and Directus SDKs both call (the password reset routes).
    case latchkeyAndDirectus
    /// A protected resource's (RFC 6750 §3): OAuth's body, with `WWW-Authenticate: Bearer` on
    /// the errors about the request's credentials (400, 401, 403).
    case bearer
    /// An HTML page rendered by the application (the sign-in pages), for the error and the
    /// request's headers (which say the language).
    case page(@Sendable (LatchkeyError, HTTPHeaders) -> HTTPResponse)
}

extension LatchkeyError {
    /// The HTTP status of this error's kind. The one place where kinds meet statuses.
    package var httpStatus: Int {
        switch code.kind {
        case .badRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .methodNotAllowed: 405
        case .conflict: 409
        case .payloadTooLarge: 413
        case .unsupportedMediaType: 415
        case .tooManyRequests: 429
        case .notImplemented: 501
        case .unavailable: 503
        case .internal: 500
        }
    }

    /// What a client may read: the message for its own errors, a generic sentence otherwise
    /// (the message of a server-side failure may name internals, such as Redis's address).
    private var publicMessage: String {
        switch code.kind {
        case _ where isClientError: message
        case .unavailable: "The service is busy or briefly unavailable. Please try again in a moment."
        default: "Something went wrong on our side. Please try again later."
        }
    }

    /// This error as a response in `shape`, for a request with `requestHeaders`; with
    /// `Retry-After` whenever the error says when to come back, and a `WWW-Authenticate:
    /// Bearer` challenge whenever it refuses the request's access token
    /// (``LatchkeyError/Cause/accessTokenRefused``) and the shape gives none of its own.
    package func response(in shape: ErrorShape, requestHeaders: HTTPHeaders) -> HTTPResponse {
        var response =
            switch shape {
            case .latchkey: latchkeyResponse
            case .oauth: oauthResponse(basicChallenge: ClientAuthenticator.usesBasic(authorization: requestHeaders["Authorization"]))
            case .directus: directusResponse
            case .latchkeyAndDirectus: HTTPResponse.json(LatchkeyAndDirectusBody(error: latchkeyDetail, errors: [directusEntry]), status: httpStatus)
            case .bearer: bearerResponse
            case .page(let render): render(self, requestHeaders)
            }
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        if cause == .accessTokenRefused, response.headers["WWW-Authenticate"] == nil {
            response.headers.set("WWW-Authenticate", "Bearer")
        }
        return response
    }

    private var latchkeyResponse: HTTPResponse {
        .json(LatchkeyBody(error: latchkeyDetail), status: httpStatus)
    }

    /// The `error` object of Latchkey's shape: server-side faults (500) are `internal_error`,
    /// whatever failed; the rest keep their code — a `503` its own (`server_busy`,
    /// `rate_limiter_unavailable`), which says to come back rather than that something broke.
    private var latchkeyDetail: LatchkeyBody.Detail {
        LatchkeyBody.Detail(
            code: code.kind == .internal ? LatchkeyError.Code.internalError.rawValue : code.rawValue, message: publicMessage,
            reasons: reasons.isEmpty ? nil : reasons)
    }

    /// Directus's statuses for Latchkey's codes.
    private var directusResponse: HTTPResponse {
        let status: Int =
            switch code {
            case .invalidCredentials, .invalidToken, .invalidOTP: 401
            case .forbidden: 403
            case .rateLimited: 429
            case .payloadTooLarge: 413
            case _ where code.kind == .unavailable: 503
            case _ where code.kind == .notImplemented: 501
            case _ where isClientError: 400
            default: 500
            }
        return .json(DirectusBody(errors: [directusEntry]), status: status)
    }

    /// The entry of Directus's `errors` array: Directus's code for Latchkey's, and the field a
    /// `FAILED_VALIDATION` concerns (what Directus reports for its password policy).
    private var directusEntry: DirectusBody.Entry {
        let (directusCode, field): (String, String?) =
            switch code {
            case .invalidCredentials: ("INVALID_CREDENTIALS", nil)
            case .invalidToken: ("INVALID_TOKEN", nil)
            case .weakPassword: ("FAILED_VALIDATION", "password")
            case .invalidEmail: ("FAILED_VALIDATION", "email")
            case .forbidden: ("FORBIDDEN", nil)
            case .reauthenticationRequired: ("REAUTHENTICATION_REQUIRED", nil)
            case .invalidOTP: ("INVALID_OTP", nil)
            // Directus's code for query parameters it cannot use: `?id=` names no live login.
            case .loginNotFound: ("INVALID_QUERY", nil)
            case .invalidPasskey: ("INVALID_PASSKEY", nil)
            case .passkeyExists: ("PASSKEY_EXISTS", nil)
            case .passkeyLimitReached: ("PASSKEY_LIMIT_REACHED", nil)
            case .passkeyNotFound: ("NOT_FOUND", nil)
            case .lastSignInMethod: ("LAST_SIGN_IN_METHOD", nil)
            case .rateLimited: ("REQUESTS_EXCEEDED", nil)
            case _ where code.kind == .unavailable: ("SERVICE_UNAVAILABLE", nil)
            case _ where isClientError: ("INVALID_PAYLOAD", nil)
            default: ("INTERNAL_SERVER_ERROR", nil)
            }
        // A passkey's failed check says which one, as the WebAuthn error code.
        let reason = code == .invalidPasskey ? reasons.first : nil
        return DirectusBody.Entry(message: publicMessage, extensions: .init(code: directusCode, field: field, reason: reason))
    }

    /// The OAuth error body (RFC 6749 §5.2) of the token, revocation and introspection endpoints.
    /// §5.2 names no code for a server that cannot answer; a `503` says `temporarily_unavailable`
    /// and a `500` `server_error`, the codes §4.1.2.1 registers for those two cases.
    private func oauthResponse(basicChallenge: Bool) -> HTTPResponse {
        let oauthCode: String =
            switch code {
            case .invalidClient, .invalidGrant, .unauthorizedClient, .unsupportedGrantType, .invalidScope,
                .unsupportedResponseType:
                code.rawValue
            case .invalidToken: LatchkeyError.Code.invalidGrant.rawValue
            case .clientNotAllowed: LatchkeyError.Code.unauthorizedClient.rawValue
            case _ where isClientError: LatchkeyError.Code.invalidRequest.rawValue
            case _ where code.kind == .unavailable: "temporarily_unavailable"
            default: "server_error"
            }
        var response = OAuthErrorBody(error: oauthCode, error_description: publicMessage)
            .response(status: code == .invalidToken ? 400 : httpStatus)
        if code == .invalidClient, basicChallenge {
            response.headers.set("WWW-Authenticate", "Basic realm=\"latchkey\", charset=\"UTF-8\"")
        }
        return response
    }

    /// A protected resource's error (RFC 6750 §3.1): 401 `invalid_token`, 403
    /// `insufficient_scope`, 400 `invalid_request`, each in `WWW-Authenticate: Bearer` too; a
    /// request without any credentials gets a bare `401` with `WWW-Authenticate: Bearer` and
    /// no error code or body. Failures that are not about the credentials keep their status
    /// and carry no challenge: 413, 429 and 501 `invalid_request`, 503 `temporarily_unavailable`
    /// (both with `Retry-After`), 500 `server_error`.
    private var bearerResponse: HTTPResponse {
        if code == .authenticationRequired {
            return HTTPResponse(status: 401, headers: HTTPHeaders([("WWW-Authenticate", "Bearer")]))
        }
        let (status, bearerCode, challenges): (Int, String, Bool) =
            switch code {
            case .invalidToken: (401, "invalid_token", true)
            case .insufficientScope: (403, "insufficient_scope", true)
            case _ where code.kind == .payloadTooLarge || code.kind == .tooManyRequests || code.kind == .notImplemented:
                (httpStatus, "invalid_request", false)
            case _ where isClientError: (400, "invalid_request", true)
            case _ where code.kind == .unavailable: (503, "temporarily_unavailable", false)
            default: (500, "server_error", false)
            }
        var response = OAuthErrorBody(error: bearerCode, error_description: publicMessage).response(status: status)
        if challenges {
            response.headers.set("WWW-Authenticate", Self.bearerChallenge(error: bearerCode, description: publicMessage))
        }
        return response
    }

    /// `Bearer error="…", error_description="…"`, with the description limited to what RFC 6750
    /// §3 allows in it (printable ASCII other than `"` and `\`, ``OAuthErrorText``; a message
    /// may quote a parameter name the client chose), so the header is always a well-formed
    /// challenge.
    private static func bearerChallenge(error: String, description: String) -> String {
        "Bearer error=\"\(error)\", error_description=\"\(OAuthErrorText.sanitized(description))\""
    }
}

/// `{"error": {"code", "message", "reasons"?}}`, Latchkey's error body.
private struct LatchkeyBody: Encodable {
    struct Detail: Encodable {
        let code: String
        let message: String
        let reasons: [String]?
    }
    let error: Detail
}

/// `{"errors": [{"message", "extensions": {"code", "field"?, "reason"?}}]}`, Directus's error body.
private struct DirectusBody: Encodable {
    struct Entry: Encodable {
        struct Extensions: Encodable {
            let code: String
            let field: String?
            /// Which check failed, for `INVALID_PASSKEY`.
            let reason: String?
        }
        let message: String
        let extensions: Extensions
    }
    let errors: [Entry]
}

/// Latchkey's and Directus's error bodies in one object.
private struct LatchkeyAndDirectusBody: Encodable {
    let error: LatchkeyBody.Detail
    let errors: [DirectusBody.Entry]
}

/// `{"error", "error_description"}`, the body of OAuth and bearer errors, in the characters
/// RFC 6749 §5.2 allows (``OAuthErrorText``).
private struct OAuthErrorBody: Encodable {
    let error: String
    let error_description: String

    init(error: String, error_description: String) {
        self.error = OAuthErrorText.sanitized(error)
        self.error_description = OAuthErrorText.sanitized(error_description)
    }

    func response(status: Int) -> HTTPResponse { .json(self, status: status) }
}

extension HTTPResponse {
    /// `error` in Latchkey's JSON shape with the security headers, for a request the server
    /// answers without a route.
    package static func rejected(_ error: LatchkeyError) -> HTTPResponse {
        var response = error.response(in: .latchkey, requestHeaders: HTTPHeaders())
        Router.addSecurityHeaders(to: &response, cacheable: false)
        return response
    }
}
