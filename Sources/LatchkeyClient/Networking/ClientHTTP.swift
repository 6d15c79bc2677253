import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK's one way to talk HTTP: a `URLSession`, request bodies encoded one way,
/// replies bounded in size, and every transport failure turned into a
/// ``LatchkeyClientError`` (cancellation stays a `CancellationError`).
struct ClientHTTP: Sendable {
    /// The largest reply body accepted from the server's auth endpoints.
    static let maximumReplySize = 1 << 20

    let session: URLSession
    /// The clock that dates each reply, for a `Retry-After` given as a date.
    let now: @Sendable () -> Date

    init(session: URLSession, now: @escaping @Sendable () -> Date = { Date() }) {
        self.session = session
        self.now = now
    }

    /// Sends `request` and returns the reply, whatever its status, with its `Retry-After`.
    ///
    /// - Throws: what ``transfer(_:with:)`` throws; for a reply over ``maximumReplySize``,
    ///   `unexpected_response` (`reply_too_large`) if it was a success, else the error its
    ///   status and `Retry-After` stand for (``HTTPReply/error``; so large a body is not read).
    func send(_ request: URLRequest) async throws -> HTTPReply {
        let (data, http) = try await Self.transfer(request, with: session)
        let reply = HTTPReply(
            status: http.statusCode, body: data, retryAfter: http.value(forHTTPHeaderField: "Retry-After"),
            wwwAuthenticate: http.value(forHTTPHeaderField: "WWW-Authenticate"), receivedAt: now())
        guard data.count <= Self.maximumReplySize else {
            throw reply.isSuccess ? LatchkeyClientError(.unexpectedResponse, reasons: ["reply_too_large"], status: reply.status) : reply.error
        }
        return reply
    }

    /// Sends `request` with `session` and returns the body and response, whatever their
    /// size or status: the one place where transport failures become SDK errors.
    ///
    /// - Throws: `CancellationError` when the calling task was cancelled;
    ///   ``LatchkeyClientError`` `network_unavailable` (see ``LatchkeyClientError/from(urlError:)``)
    ///   or `unexpected_response` for a non-HTTP reply.
    static func transfer(_ request: URLRequest, with session: URLSession) async throws -> (Data, HTTPURLResponse) {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            // A `cancelled` error the caller did not ask for comes from the session's delegate
            // refusing the server's certificate (see `from(urlError:)`).
            if Task.isCancelled { throw CancellationError() }
            throw LatchkeyClientError.from(urlError: error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw LatchkeyClientError(.networkUnavailable, reasons: ["transport"])
        }
        guard let http = response as? HTTPURLResponse else { throw LatchkeyClientError(.unexpectedResponse) }
        return (data, http)
    }

    /// `GET url` accepting JSON.
    func get(_ url: URL) async throws -> HTTPReply {
        try await send(Self.jsonRequest("GET", url, nil))
    }

    /// `POST url` with `fields` as a JSON object.
    func postJSON(_ url: URL, _ fields: [String: String]) async throws -> HTTPReply {
        try await send(Self.jsonRequest("POST", url, fields))
    }

    /// A `method url` request accepting JSON, with `fields` as its JSON object body (none when nil).
    static func jsonRequest(_ method: String, _ url: URL, _ fields: [String: String]?) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let fields {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        }
        return request
    }

    /// A `method url` request accepting JSON, with `body` (JSON already encoded) as its body.
    static func jsonRequest(_ method: String, _ url: URL, body: Data) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return request
    }

    /// `POST url` with `fields` as `application/x-www-form-urlencoded` (RFC 6749 §4.1.3).
    func postForm(_ url: URL, _ fields: [(name: String, value: String)]) async throws -> HTTPReply {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(FormEncoding.encode(fields).utf8)
        return try await send(request)
    }
}
