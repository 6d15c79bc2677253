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
    /// The head's framing is ambiguous or invalid (RFC 9112); the connection is closed.
    case malformedHead(FramingViolation)
    /// The server holds as many request-body bytes as its ``BodyBudget`` allows; the
    /// connection is closed.
    case bodyBudgetExhausted

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
        case .malformedHead(let violation):
            violation.error
        case .bodyBudgetExhausted:
            LatchkeyError(.serverBusy, "The server is receiving too many requests. Please try again in a moment.", retryAfter: 1)
        }
    }

    /// Whether the connection is closed once the rejection is sent: after a malformed head
    /// nothing that follows can be trusted to be a request; a refused body was not read.
    var closesConnection: Bool {
        switch self {
        case .malformedHead, .bodyBudgetExhausted: true
        default: false
        }
    }

    /// The rejection in Latchkey's JSON error shape with the security headers, for when no
    /// route's own shape applies.
    package var response: HTTPResponse { .rejected(error) }
}
