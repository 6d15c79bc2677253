import Foundation

/// A request the server answers itself, without calling the handler, and the JSON
/// error response it gets: `{"error":{"code":"…","message":"…"}}`.
enum RequestRejection: Sendable {
    /// The body is (or is announced to be) larger than the limit.
    case payloadTooLarge(limit: Int)
    /// The query string is not valid form encoding.
    case malformedQuery
    /// The handler produced a response that cannot be sent (bad status or header).
    case unsendableResponse

    /// The error response for this rejection (the same JSON shape and status mapping as
    /// every other error, see `HTTPResponse.error`).
    var response: HTTPResponse {
        var response = errorResponse
        Router.addSecurityHeaders(to: &response, cacheable: false)
        return response
    }

    private var errorResponse: HTTPResponse {
        switch self {
        case .payloadTooLarge(let limit):
            .error(LatchkeyError(.payloadTooLarge, "The request body must not exceed \(limit) bytes."))
        case .malformedQuery:
            .error(LatchkeyError(.invalidRequest, "The query string is not validly encoded."))
        case .unsendableResponse:
            .error(LatchkeyError(.internalError, "The server failed to answer this request."))
        }
    }
}
