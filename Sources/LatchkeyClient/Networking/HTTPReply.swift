import Foundation

/// A server's HTTP reply: status, body, and what an error needs of its header.
struct HTTPReply: Sendable {
    let status: Int
    let body: Data
    /// The `Retry-After` field value, as sent.
    let retryAfter: String?
    /// The `WWW-Authenticate` field value, as sent: a `Bearer` challenge says the server
    /// refused the request's access token itself (RFC 6750 §3), before acting on it.
    let wwwAuthenticate: String?
    /// When the reply came, which a `Retry-After` date is counted from.
    let receivedAt: Date

    /// Whether the status is 2xx.
    var isSuccess: Bool { (200...299).contains(status) }

    /// Whether this is a `401` that challenges for a bearer token: the access token the
    /// request carried (or its absence) was refused, not anything else in it.
    var refusesAccessToken: Bool {
        guard status == 401, let challenge = wwwAuthenticate else { return false }
        return challenge.split(separator: " ", maxSplits: 1).first?.lowercased() == "bearer"
    }

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
