package import LatchkeyCore
package import Foundation

/// HTTP header fields: ordered, repeatable, looked up without regard to case.
package struct HTTPHeaders: Sendable, Sequence {
    private var fields: [(name: String, value: String)] = []

    /// Creates headers from name/value pairs, keeping their order.
    package init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, or nil.
    package subscript(name: String) -> String? {
        fields.first { Self.isSameName($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    package func values(_ name: String) -> [String] {
        fields.filter { Self.isSameName($0.name, name) }.map(\.value)
    }

    /// Adds a field, keeping any existing fields of the same name.
    package mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of `name` with one field holding `value`.
    package mutating func set(_ name: String, _ value: String) {
        set([(name: name, value: value)])
    }

    /// Replaces every field named in `replacements` with the fields given there, in their
    /// order: one pass over the fields however many names are replaced.
    package mutating func set(_ replacements: [(name: String, value: String)]) {
        fields.removeAll { field in replacements.contains { Self.isSameName(field.name, $0.name) } }
        fields.append(contentsOf: replacements)
    }

    /// Removes every field of `name`.
    package mutating func remove(_ name: String) {
        fields.removeAll { Self.isSameName($0.name, name) }
    }

    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Whether the `Content-Type` names `mediaType` (given in lower case, e.g.
    /// `application/json`): its part before any `;`, without surrounding spaces and tabs,
    /// equal but for the case of ASCII letters. Parameters such as `charset` are not judged.
    package func contentTypeIs(_ mediaType: String) -> Bool {
        guard var value = self["Content-Type"] else { return false }
        var mediaType = mediaType
        // Compared in the contiguous UTF-8: every request with a body passes here.
        return value.withUTF8 { bytes in
            let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var start = 0
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            return mediaType.withUTF8 { expected in
                end - start == expected.count && expected.indices.allSatisfy { index in
                    let (a, b) = (bytes[start + index], expected[index])
                    return a == b || (a | 0x20 == b && (0x61...0x7A).contains(b))
                }
            }
        }
    }

    /// Whether two field names are the same: equal but for the case of ASCII letters (names
    /// are ASCII tokens; no locale or Unicode folding on the request path).
    package static func isSameName(_ first: String, _ second: String) -> Bool {
        // Most names differ in length, which a native string knows without a scan.
        guard first.utf8.count == second.utf8.count else { return false }
        // Compared in the contiguous UTF-8: every response header set passes here.
        var first = first
        var second = second
        return first.withUTF8 { a in
            second.withUTF8 { b in
                a.indices.allSatisfy { index in
                    a[index] == b[index] || (a[index] | 0x20 == b[index] | 0x20 && (0x61...0x7A).contains(a[index] | 0x20))
                }
            }
        }
    }
}

/// One HTTP request as the routes see it: fully read, size-limited, with the
/// client's address already resolved (proxies considered).
package struct HTTPRequest: Sendable {
    /// The method in upper case, e.g. `POST`.
    package var method: String
    /// The path without the query string, percent-decoding not applied.
    package var path: String
    /// Query parameters in order; a name may repeat.
    package var query: [(name: String, value: String)]
    /// The request's header fields.
    package var headers: HTTPHeaders
    /// The request body (bounded by the server's body limit).
    package var body: Data
    /// The client's IP address: the peer, or the `X-Forwarded-For` hop a trusted
    /// proxy vouches for.
    package var clientIP: String

    /// Creates a request value; the HTTP server fills it from the wire, tests by hand.
    package init(
        method: String, path: String, query: [(name: String, value: String)] = [],
        headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(), clientIP: String = "127.0.0.1"
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.clientIP = clientIP
    }

    /// The first value of the query parameter `name`.
    package func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}

/// One HTTP response: a status, header fields and a complete body.
package struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    package var status: Int {
        didSet { reusableWire = nil }
    }
    /// The response's header fields.
    package var headers: HTTPHeaders {
        didSet { reusableWire = nil }
    }
    /// The response body.
    package var body: Data {
        didSet { reusableWire = nil }
    }
    /// Called once the response has been sent in full, or the connection ended before (it is
    /// called either way, once; also when the server sends a 500 instead because the response
    /// cannot go on the wire, or drops it because a stop closed the connection first): for
    /// work that must not compete with sending the answer. It runs on a server thread (the
    /// connection's, or the worker's whose response was dropped), so it must return at once.
    package var onCompletion: (@Sendable () -> Void)?
    /// The wire form of this very response, built once and sent for every request that gets
    /// it (``ReusableWireResponse``); any change to the status, headers or body drops it.
    package var reusableWire: ReusableWireResponse?
    /// The deferred write this answer must wait for: the response is sent only once the write
    /// has committed; when the write fails, the route's error response for its failure is
    /// sent instead (with this response's ``onCompletion``). The worker that handled the
    /// request does not wait for it (``HTTPHandler/answer(_:)``).
    package var deferredWrite: DeferredWrite?

    /// Creates a response.
    package init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether `other` puts the same status, header fields (in the same order) and body on
    /// the wire; completions are not compared.
    package func sendsTheSame(as other: HTTPResponse) -> Bool {
        status == other.status && body == other.body && headers.elementsEqual(other.headers) {
            $0.name == $1.name && $0.value == $1.value
        }
    }
}

/// Something that answers HTTP requests. Called on the HTTP server's worker threads,
/// possibly many at once.
package protocol HTTPHandler: Sendable {
    /// Produces the response for `request`. Must not throw or trap: every failure is a
    /// response. Waits for the response's ``HTTPResponse/deferredWrite``, if any.
    func handle(_ request: HTTPRequest) -> HTTPResponse

    /// Answers `request` without waiting for a deferred write the response must wait for:
    /// the response, or the write and how to finish the response once it has settled (see
    /// ``HTTPAnswer``). Must not throw or trap: every failure is a response.
    func answer(_ request: HTTPRequest) -> HTTPAnswer

    /// The response for a request the server refuses before it is read whole (`error`, e.g.
    /// a body over the limit), for `method` and `path` with `headers` as received.
    func rejection(_ error: LatchkeyError, method: String, path: String, headers: HTTPHeaders) -> HTTPResponse

    /// Which worker pool answers `method` and `path`.
    func lane(method: String, path: String) -> RequestLane
}

extension HTTPHandler {
    /// ``handle(_:)``'s response, ready.
    package func answer(_ request: HTTPRequest) -> HTTPAnswer {
        .ready(handle(request))
    }

    /// Latchkey's JSON error for `error`, with the security headers every response carries.
    package func rejection(_ error: LatchkeyError, method: String, path: String, headers: HTTPHeaders) -> HTTPResponse {
        .rejected(error)
    }

    /// Every request is standard.
    package func lane(method: String, path: String) -> RequestLane { .standard }
}

/// A handler's answer to a request (``HTTPHandler/answer(_:)``): the response, or the
/// deferred write it must wait for and what finishes it then.
package enum HTTPAnswer: Sendable {
    /// The finished response.
    case ready(HTTPResponse)
    /// A response that may go out only once `write` has settled: `finish` makes it from the
    /// write's outcome (headers, metrics, access log). The HTTP server calls `finish` once, on
    /// a request worker (``RequestWorkerPool``): never on the thread that settles the write,
    /// which only hands the outcome over.
    case awaiting(DeferredWrite, finish: @Sendable (DeferredWrite.Outcome) -> HTTPResponse)

    /// The finished response, waiting on this thread for the write it awaits, if any.
    package func waitedFor() -> HTTPResponse {
        switch self {
        case .ready(let response): response
        case .awaiting(let write, let finish): finish(write.wait())
        }
    }
}

/// The worker pool a request runs on.
package enum RequestLane: Sendable {
    /// The request workers: one per core, for everything cheap.
    case standard
    /// The password-hashing workers (Argon2): few, at low priority, behind a queue whose
    /// requests wait at most a deadline; so a flood of sign-ins bounds memory and never
    /// starves cheap routes.
    case passwordHashing
    /// No worker: the event thread that read the request answers it at once, without
    /// suspending the connection — for routes that only read memory and never block (a
    /// constant, a document built once), so they cost no hand-over and are answered even
    /// while every worker is busy. Such requests are counted in the metrics but not logged
    /// one by one: a log write may block, and the event thread must not.
    case eventThread
}
