package import LatchkeyCore
import Foundation

/// A request the server answers itself, without calling the handler, and the JSON
/// error response it gets: `{"error":{"code":"…","message":"…"}}`.
package enum RequestRejection: Sendable {
    /// The body is (or is announced to be) larger than the limit.
    case payloadTooLarge(limit: Int)
    /// The query string is not valid form encoding.
    case malformedQuery
    /// The handler produced a response that cannot be sent (bad status or header).
    case unsendableResponse
    /// Every request worker is busy and the queue in front of them is full.
    case serverBusy

    /// What the client is told.
    package var error: LatchkeyError {
        switch self {
        case .payloadTooLarge(let limit):
            LatchkeyError(.payloadTooLarge, "The request body must not exceed \(limit) bytes.")
        case .malformedQuery:
            LatchkeyError(.invalidRequest, "The query string is not validly encoded.")
        case .unsendableResponse:
            LatchkeyError(.internalError, "The server failed to answer this request.")
        case .serverBusy:
            LatchkeyError(.serverBusy, "The server is busy. Please try again in a moment.", retryAfter: 1)
        }
    }

    /// The rejection in Latchkey's JSON error shape with the security headers, for when no
    /// route's own shape applies.
    package var response: HTTPResponse { .rejected(error) }
}
