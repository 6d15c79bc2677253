import Foundation

/// A server's HTTP reply: status, body, and what an error needs of its header.
struct HTTPReply: Sendable {
    let status: Int
    let body: Data
    /// The `Retry-After` field value, as sent.
    let retryAfter: String?
    /// When the reply came, which a `Retry-After` date is counted from.
    let receivedAt: Date

    /// Whether the status is 2xx.
    var isSuccess: Bool { (200...299).contains(status) }

    /// The body as a JSON object.
    ///
    /// - Throws: ``LatchkeyClientError`` `unexpected_response` when it is not one.
    func jsonObject() throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw LatchkeyClientError(.unexpectedResponse, status: status)
        }
        return object
    }

    /// The error this unsuccessful reply stands for (see ``LatchkeyClientError/from(status:body:retryAfter:now:)``).
    var error: LatchkeyClientError {
        LatchkeyClientError.from(status: status, body: body, retryAfter: retryAfter, now: receivedAt)
    }
}
