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
    /// A protected resource's (RFC 6750 §3): OAuth's body with `WWW-Authenticate: Bearer`.
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
        case .unavailable: 503
        case .internal: 500
        }
    }

    /// What a client may read: the message for its own errors, a generic sentence otherwise.
    private var publicMessage: String {
        isClientError ? message : "Something went wrong on our side. Please try again later."
    }

    /// This error as a response in `shape`, for a request with `requestHeaders`; with
    /// `Retry-After` whenever the error says when to come back.
    package func response(in shape: ErrorShape, requestHeaders: HTTPHeaders) -> HTTPResponse {
        var response =
            switch shape {
            case .latchkey: latchkeyResponse
            case .oauth: oauthResponse(basicChallenge: requestHeaders["Authorization"]?.lowercased().hasPrefix("basic ") ?? false)
            case .directus: directusResponse
            case .bearer: bearerResponse
            case .page(let render): render(self, requestHeaders)
            }
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }

    private var latchkeyResponse: HTTPResponse {
        struct Body: Encodable {
            struct Detail: Encodable {
                let code: String
                let message: String
                let reasons: [String]?
            }
            let error: Detail
        }
        let code = isClientError ? code.rawValue : LatchkeyError.Code.internalError.rawValue
        return .json(Body(error: .init(code: code, message: publicMessage, reasons: reasons.isEmpty ? nil : reasons)), status: httpStatus)
    }

    /// Directus's codes and statuses for Latchkey's codes.
    private var directusResponse: HTTPResponse {
        struct Body: Encodable {
            struct Entry: Encodable {
                struct Extensions: Encodable { let code: String }
                let message: String
                let extensions: Extensions
            }
            let errors: [Entry]
        }
        let (status, directusCode): (Int, String) =
            switch code {
            case .invalidCredentials: (401, "INVALID_CREDENTIALS")
            case .invalidToken: (401, "INVALID_TOKEN")
            case .rateLimited: (429, "REQUESTS_EXCEEDED")
            case .payloadTooLarge: (413, "INVALID_PAYLOAD")
            case _ where code.kind == .unavailable: (503, "SERVICE_UNAVAILABLE")
            case _ where isClientError: (400, "INVALID_PAYLOAD")
            default: (500, "INTERNAL_SERVER_ERROR")
            }
        return .json(Body(errors: [.init(message: publicMessage, extensions: .init(code: directusCode))]), status: status)
    }

    /// The OAuth error body (RFC 6749 §5.2) of the token, revocation and introspection endpoints.
    private func oauthResponse(basicChallenge: Bool) -> HTTPResponse {
        let oauthCode: String =
            switch code {
            case .invalidClient, .invalidGrant, .unauthorizedClient, .unsupportedGrantType, .invalidScope,
                .unsupportedResponseType:
                code.rawValue
            case .invalidToken: LatchkeyError.Code.invalidGrant.rawValue
            case _ where isClientError: LatchkeyError.Code.invalidRequest.rawValue
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
    /// no error code or body.
    private var bearerResponse: HTTPResponse {
        if code == .authenticationRequired {
            return HTTPResponse(status: 401, headers: HTTPHeaders([("WWW-Authenticate", "Bearer")]))
        }
        let (status, bearerCode): (Int, String) =
            switch code {
            case .invalidToken: (401, "invalid_token")
            case .insufficientScope: (403, "insufficient_scope")
            case _ where isClientError: (400, "invalid_request")
            default: (500, "server_error")
            }
        var response = OAuthErrorBody(error: bearerCode, error_description: publicMessage).response(status: status)
        response.headers.set("WWW-Authenticate", "Bearer error=\"\(bearerCode)\", error_description=\"\(publicMessage)\"")
        return response
    }
}

/// `{"error", "error_description"}`, the body of OAuth and bearer errors.
private struct OAuthErrorBody: Encodable {
    let error: String
    let error_description: String

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
