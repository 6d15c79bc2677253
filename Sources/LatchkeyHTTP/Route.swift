import LatchkeyCore
/// One entry of the route table: a method and exact path, a stable name for metrics and
/// logs, what body it accepts, and the function that answers it.
package struct Route: Sendable {
    /// What a route accepts as a request body.
    package enum BodyKind: Sendable {
        /// No body is expected (GET).
        case none
        /// `application/json` is required (anything else is 415).
        case json
        /// `application/json`, or no body at all (what Directus accepts where every field is
        /// optional: a browser's bare `POST` to `/auth/logout`).
        case jsonOrEmpty
        /// `application/x-www-form-urlencoded`, checked by the route itself (``FormParameters``)
        /// so that it can answer in its own error shape (OAuth's).
        case form
    }

    /// The method in upper case (`GET`, `POST`, `PATCH`, `DELETE`); `GET` routes also answer `HEAD`.
    package let method: String
    /// The exact path, e.g. `/auth/password/request`.
    package let path: String
    /// A stable name for metrics and logs, e.g. `password_request`.
    package let name: String
    /// What body the route accepts.
    package let body: BodyKind
    /// Whether responses may be cached (public documents); otherwise `Cache-Control: no-store`.
    package let cacheable: Bool
    /// The shape of this route's error responses, also for requests the server refuses
    /// before the route runs (a body over the limit).
    package let errorShape: ErrorShape
    /// Where it runs: ``RequestLane/passwordHashing`` for routes that may compute a password
    /// hash, ``RequestLane/eventThread`` for routes that only read memory.
    package let lane: RequestLane
    /// Whether every request mostly gets the same answer, whoever asks (the reset request's
    /// `200`, the same for every address): then, as for a route on the event thread, its last
    /// answer is kept and sent again, wire form and all, while the answer stays the same. Only
    /// for answers that hold no secret.
    package let answersAlike: Bool
    /// Answers a request; a thrown ``LatchkeyError`` becomes its response in ``errorShape``.
    package let handler: @Sendable (HTTPRequest) throws -> HTTPResponse

    /// Creates a route.
    package init(
        _ method: String, _ path: String, name: String, body: BodyKind = .none, cacheable: Bool = false,
        errorShape: ErrorShape = .latchkey, lane: RequestLane = .standard, answersAlike: Bool = false,
        handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) {
        self.method = method
        self.path = path
        self.name = name
        self.body = body
        self.cacheable = cacheable
        self.errorShape = errorShape
        self.lane = lane
        self.answersAlike = answersAlike
        self.handler = handler
    }
}

extension Route {
    /// The last segment of a path that takes a parameter: `/users/me/passkeys/{id}` answers
    /// `/users/me/passkeys/` and any one segment ``isPathParameter(_:)`` accepts, when no route
    /// has that exact path.
    package static let parameterPath = "/{id}"

    /// Whether `segment` may be a path's parameter: 1 to 2048 bytes (a segment: no `/`, as it
    /// came, not percent-decoded); the route checks what it must be and answers in its own shape.
    static func isPathParameter(_ segment: Substring) -> Bool {
        (1...2048).contains(segment.utf8.count)
    }

    /// The parameter of `request`'s path (its last segment), for a route whose path ends in
    /// ``parameterPath``.
    package static func pathParameter(of request: HTTPRequest) -> String {
        String(request.path[request.path.index(after: request.path.lastIndex(of: "/") ?? request.path.startIndex)...])
    }
}

