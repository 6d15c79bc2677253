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

    /// The error response for this rejection.
    var response: HTTPResponse {
        switch self {
        case .payloadTooLarge(let limit):
            Self.jsonError(status: 413, LatchkeyError(.payloadTooLarge, "The request body must not exceed \(limit) bytes."))
        case .malformedQuery:
            Self.jsonError(status: 400, LatchkeyError(.invalidRequest, "The query string is not validly encoded."))
        case .unsendableResponse:
            Self.jsonError(status: 500, LatchkeyError(.internalError, "The server failed to answer this request."))
        }
    }

    private struct Body: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
        }
        let error: Detail
    }

    private static func jsonError(status: Int, _ error: LatchkeyError) -> HTTPResponse {
        let body = Body(error: .init(code: error.code.rawValue, message: error.message))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding two strings cannot fail.
        let data = (try? encoder.encode(body)) ?? Data()
        return HTTPResponse(
            status: status, headers: HTTPHeaders([("Content-Type", "application/json")]), body: data)
    }
}
