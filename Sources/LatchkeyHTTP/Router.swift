package import LatchkeyCore
import Foundation
import Synchronization

/// Dispatches requests to a route table and applies what every response needs: errors in
/// the route's shape (Latchkey, OAuth or Directus; replayed tokens logged as warnings),
/// 404/405/415, security headers, `no-store` on everything not cacheable, metrics
/// and an access log line (with a truncated client IP; for a 404 the path, never the query
/// string).
///
/// A route answered on the event thread mostly gives the same answer again (a constant, a
/// document until it changes), and so does a route that answers every request alike
/// (``Route/answersAlike``): its last finished answer is kept, and when the route's next
/// answer is the same, that one is sent, with its wire form built once
/// (``ReusableWireResponse``).
package final class Router: HTTPHandler {
    /// The table, in the order it was given.
    package let routes: [Route]
    /// The positions in ``routes`` of the routes at each path, in table order.
    private let positionsByPath: [String: [Int]]
    /// For each route, its last finished answer when it runs on the event thread or answers alike.
    private let lastAnswers: [LastAnswer?]
    /// For each route, what the metrics count of it; then, last, of requests no route answers.
    private let routeMetrics: [RouteMetrics]
    private let metrics: ServerMetrics
    private let logger: Logger
    private let clock: any WallClock

    /// Creates a router over `routes`.
    package init(routes: [Route], metrics: ServerMetrics, logger: Logger, clock: any WallClock = SystemClock()) {
        self.routes = routes
        positionsByPath = Dictionary(grouping: routes.indices, by: { routes[$0].path })
        lastAnswers = routes.map { $0.lane == .eventThread || $0.answersAlike ? LastAnswer() : nil }
        routeMetrics = routes.map { metrics.route($0.name) } + [metrics.route(Self.notFoundName)]
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
    }

    /// Answers `request` through its route, with the security headers; counts it in the
    /// metrics and logs it (`http_request`), except on routes answered on the event thread.
    /// Waits for the deferred write the route's answer awaits (``HTTPResponse/deferredWrite``).
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        answer(request).waitedFor()
    }

    /// Answers `request` as ``handle(_:)`` does, but without waiting for the deferred write
    /// the route's answer awaits: then the answer is finished — security headers, metrics,
    /// access log — by its ``HTTPAnswer/awaiting(_:finish:)`` once the write has settled.
    package func answer(_ request: HTTPRequest) -> HTTPAnswer {
        let started = clock.now()
        let answer = dispatch(request)
        guard let write = answer.response.deferredWrite else {
            return .ready(completed(answer, request: request, started: started))
        }
        return .awaiting(write) { [self] outcome in
            completed(settled(answer, by: outcome, request: request), request: request, started: started)
        }
    }

    /// `answer` once the write it awaited ended as `outcome`: itself when the write committed,
    /// else the route's error response for the write's failure (with the answer's completion).
    private func settled(_ answer: RouteAnswer, by outcome: DeferredWrite.Outcome, request: HTTPRequest) -> RouteAnswer {
        var answer = answer
        answer.response.deferredWrite = nil
        guard case .failure(let error) = outcome, let position = answer.position else { return answer }
        var failure = failed(error, route: routes[position], request: request)
        failure.onCompletion = answer.response.onCompletion
        answer.response = failure
        answer.cacheable = false
        return answer
    }

    /// `answer` finished (the security headers; a kept answer's wire form when it is the same),
    /// counted in the metrics and logged.
    private func completed(_ answer: RouteAnswer, request: HTTPRequest, started: Date) -> HTTPResponse {
        let response: HTTPResponse
        if let position = answer.position, let last = lastAnswers[position] {
            response = last.finished(answer.response, cacheable: answer.cacheable) {
                Self.finished(answer.response, cacheable: answer.cacheable)
            }
        } else {
            response = Self.finished(answer.response, cacheable: answer.cacheable)
        }
        let seconds = clock.now().timeIntervalSince(started)
        // A 405 has no position but its path's route name; a 404, the last entry.
        let counted = answer.position.map { routeMetrics[$0] }
            ?? (answer.name == Self.notFoundName ? routeMetrics[routes.count] : metrics.route(answer.name))
        counted.record(status: response.status, seconds: seconds)
        if response.status == 429 { metrics.limitedRequests.increment() }
        // Answered on the event thread, which a blocked log write must never hold up.
        if answer.lane == .eventThread { return response }
        logger.info("http_request", {
            var fields: [String: Logger.Value] = [
                "method": .string(String(request.method.prefix(16))), "route": .string(answer.name),
                "status": .int(response.status), "ip": .string(IPAddress.truncatedForLogs(request.clientIP)),
                "ms": .double((seconds * 1000).rounded()),
            ]
            // What was asked for, so a broken link can be found; the path only, never the
            // query (it may hold a state, a code or a token), and bounded.
            if response.status == 404 { fields["path"] = .string(String(request.path.prefix(Self.loggedPathLength))) }
            return fields
        }())
        return response
    }

    /// The name requests no route answers are counted and logged under.
    static let notFoundName = "not_found"

    /// The most characters of a path an access log line holds.
    static let loggedPathLength = 256

    /// `raw` with the security headers.
    private static func finished(_ raw: HTTPResponse, cacheable: Bool) -> HTTPResponse {
        var response = raw
        addSecurityHeaders(to: &response, cacheable: cacheable)
        return response
    }

    /// The route's answer to `request`, with what ``handle(_:)`` needs of the route.
    private func dispatch(_ request: HTTPRequest) -> RouteAnswer {
        guard let candidates = candidates(for: request.path) else {
            let response = LatchkeyError(.notFound, "There is nothing at this address.").response(in: .latchkey, requestHeaders: request.headers)
            return RouteAnswer(position: nil, name: Self.notFoundName, cacheable: false, lane: .standard, response: response)
        }
        guard let position = position(method: request.method, among: candidates) else {
            var response = LatchkeyError(.methodNotAllowed, "This method is not allowed here.")
                .response(in: .latchkey, requestHeaders: request.headers)
            response.headers.set("Allow", candidates.map { routes[$0].method }.joined(separator: ", "))
            return RouteAnswer(position: nil, name: routes[candidates[0]].name, cacheable: false, lane: .standard, response: response)
        }
        let route = routes[position]
        let needsJSON = route.body == .json || (route.body == .jsonOrEmpty && !request.body.isEmpty)
        if needsJSON, !request.headers.contentTypeIs("application/json") {
            let error = LatchkeyError(.unsupportedMediaType, "Send the request body as application/json.")
            return RouteAnswer(
                position: position, name: route.name, cacheable: false, lane: route.lane,
                response: error.response(in: route.errorShape, requestHeaders: request.headers))
        }
        do {
            return RouteAnswer(position: position, name: route.name, cacheable: route.cacheable, lane: route.lane, response: try route.handler(request))
        } catch {
            return RouteAnswer(position: position, name: route.name, cacheable: false, lane: route.lane, response: failed(error, route: route, request: request))
        }
    }

    /// The response in `route`'s error shape for `error`, which its handler threw or the write
    /// its answer awaited failed with; logs server failures (`request_failed`) and replayed
    /// tokens (`token_replay_detected`). An error that is not a ``LatchkeyError`` is answered
    /// as `internal_error`, its type logged.
    private func failed(_ error: any Error, route: Route, request: HTTPRequest) -> HTTPResponse {
        guard let error = error as? LatchkeyError else {
            logger.error("request_failed", ["route": .string(route.name), "error": .string(String(describing: type(of: error)))])
            let failure = LatchkeyError(.internalError, "Unexpected failure.")
            return failure.response(in: route.errorShape, requestHeaders: request.headers)
        }
        if !error.isClientError {
            logger.error("request_failed", ["route": .string(route.name), "error": .string(error.description)])
        } else if let cause = error.cause, cause.isTokenReplay {
            logger.warning("token_replay_detected", [
                "route": .string(route.name), "kind": .string(cause.rawValue),
                "ip": .string(IPAddress.truncatedForLogs(request.clientIP)),
            ])
        }
        return error.response(in: route.errorShape, requestHeaders: request.headers)
    }

    package func lane(method: String, path: String) -> RequestLane {
        route(method: method, path: path)?.lane ?? .standard
    }

    private func route(method: String, path: String) -> Route? {
        guard let candidates = candidates(for: path), let position = position(method: method, among: candidates) else { return nil }
        return routes[position]
    }

    /// The positions of the routes at `path`: those of exactly that path, else those whose path
    /// ends in the parameter `/{id}` (``Route/parameterPath``) where `path` ends in one
    /// non-empty segment (``Route/pathParameter(of:)`` reads it).
    private func candidates(for path: String) -> [Int]? {
        if let exact = positionsByPath[path] { return exact }
        guard let slash = path.lastIndex(of: "/"), Route.isPathParameter(path[path.index(after: slash)...]) else { return nil }
        return positionsByPath[path[..<slash] + Route.parameterPath]
    }

    /// The first of `candidates` (positions of one path's routes) that answers `method`;
    /// `HEAD` is answered by the `GET` route.
    private func position(method: String, among candidates: [Int]) -> Int? {
        let method = method == "HEAD" ? "GET" : method
        return candidates.first { routes[$0].method == method }
    }

    package func rejection(_ error: LatchkeyError, method: String, path: String, headers: HTTPHeaders) -> HTTPResponse {
        let shape = route(method: method, path: path)?.errorShape ?? .latchkey
        var response = error.response(in: shape, requestHeaders: headers)
        Self.addSecurityHeaders(to: &response, cacheable: false)
        return response
    }

    /// Sets the headers every response carries; `no-store` unless `cacheable` and successful.
    static func addSecurityHeaders(to response: inout HTTPResponse, cacheable: Bool) {
        // Set in one pass over the response's fields, from a list made once for each case
        // (this runs for every response).
        let variant = (!cacheable || response.status >= 400 ? 4 : 0)
            // A route may set its own policy, or open a resource to other origins (a script
            // meant for other sites' pages).
            + (response.headers["Content-Security-Policy"] == nil ? 2 : 0)
            + (response.headers["Cross-Origin-Resource-Policy"] == nil ? 1 : 0)
        response.headers.set(securityHeaderVariants[variant])
    }

    /// The fields every response gets, replacing the route's own, for each case: bit 2 set,
    /// what keeps a response out of caches (an error, or a route that is not cacheable); bit 1,
    /// the default `Content-Security-Policy`; bit 0, the default `Cross-Origin-Resource-Policy`.
    private static let securityHeaderVariants: [[(name: String, value: String)]] = (0..<8).map { variant in
        var fields: [(name: String, value: String)] = [
            (name: "X-Content-Type-Options", value: "nosniff"), (name: "Referrer-Policy", value: "no-referrer"),
            (name: "X-Frame-Options", value: "DENY"),
        ]
        if variant & 4 != 0 {
            fields += [(name: "Cache-Control", value: "no-store"), (name: "Pragma", value: "no-cache")]
        }
        if variant & 2 != 0 {
            fields.append((name: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"))
        }
        if variant & 1 != 0 {
            fields.append((name: "Cross-Origin-Resource-Policy", value: "same-origin"))
        }
        return fields
    }
}

/// A route's answer before it is finished, with what finishing it needs of the route: its
/// position in the table (nil when no route answers), name, whether the answer may be cached,
/// and its lane.
private struct RouteAnswer: Sendable {
    var position: Int?
    var name: String
    var cacheable: Bool
    var lane: RequestLane
    var response: HTTPResponse
}

/// One route's last answer, as the route gave it and as finished for the wire.
private final class LastAnswer: Sendable {
    private let answer = Mutex<(given: HTTPResponse, cacheable: Bool, finished: HTTPResponse)?>(nil)

    /// The finished form of `given` (`cacheable` or not): the kept one when the route gave
    /// the same answer last time, otherwise `finish()` — kept, with a new
    /// ``ReusableWireResponse``, in place of the last. The completion is never kept: each
    /// request gets its own (`given`'s) with the shared wire form.
    func finished(_ given: HTTPResponse, cacheable: Bool, finish: () -> HTTPResponse) -> HTTPResponse {
        if let kept = answer.withLock({ $0 }), kept.cacheable == cacheable, kept.given.sendsTheSame(as: given) {
            var reused = kept.finished
            reused.onCompletion = given.onCompletion
            return reused
        }
        var finished = finish()
        finished.reusableWire = ReusableWireResponse()
        var keptGiven = given, keptFinished = finished
        keptGiven.onCompletion = nil
        keptFinished.onCompletion = nil
        answer.withLock { $0 = (keptGiven, cacheable, keptFinished) }
        return finished
    }
}
