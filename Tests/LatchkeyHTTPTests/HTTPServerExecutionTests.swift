import Dispatch
import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyTestSupport
import Synchronization
import Testing

/// Routes for the worker-pool tests: `/block` waits until the test releases it (its
/// response signals `completed` when it is done with), `/quick` answers at once, `/instant`
/// answers on the event thread,
/// `/unsendable` answers with a header that cannot go on the wire (also signalling
/// `completed`); they answer errors in Directus's shape, as `/auth/login` does.
private final class BlockingRoutes: Sendable {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let completed = DispatchSemaphore(value: 0)
    let logs = MemoryLogSink()
    let metrics = ServerMetrics(version: "test")

    func router() -> Router {
        let ok: @Sendable (HTTPRequest) -> HTTPResponse = { _ in HTTPResponse(status: 200, body: Data("done".utf8)) }
        return Router(
            routes: [
                Route("GET", "/block", name: "block", errorShape: .directus) { [self] request in
                    entered.signal()
                    release.wait()
                    var response = ok(request)
                    response.onCompletion = { [completed] in completed.signal() }
                    return response
                },
                Route("GET", "/quick", name: "quick", errorShape: .directus, handler: ok),
                Route("GET", "/instant", name: "instant", lane: .eventThread, handler: ok),
                Route("GET", "/unsendable", name: "unsendable", errorShape: .directus) { [self] _ in
                    var response = HTTPResponse(status: 200, headers: HTTPHeaders([("X-Broken", "a\r\nSet-Cookie: x=y")]))
                    response.onCompletion = { [completed] in completed.signal() }
                    return response
                },
                Route("GET", "/hash", name: "hash", errorShape: .directus, lane: .passwordHashing) { [self] request in
                    entered.signal()
                    release.wait()
                    return ok(request)
                },
            ],
            metrics: metrics, logger: Logger(sink: logs))
    }
}

/// A handler that signals `laned` whenever the server picks a worker pool for a request (the
/// request has been read whole; the pool may not have been asked for a place yet), and
/// `refused` whenever it renders a rejection — in these tests, a refusal because the queue
/// was full, which is decided after the place was asked for.
private struct LaneSignalling: HTTPHandler {
    let inner: Router
    let laned = DispatchSemaphore(value: 0)
    let refused = DispatchSemaphore(value: 0)

    func handle(_ request: HTTPRequest) -> HTTPResponse { inner.handle(request) }

    func rejection(_ error: LatchkeyError, method: String, path: String, headers: HTTPHeaders) -> HTTPResponse {
        defer { refused.signal() }
        return inner.rejection(error, method: method, path: path, headers: headers)
    }

    func lane(method: String, path: String) -> RequestLane {
        defer { laned.signal() }
        return inner.lane(method: method, path: path)
    }
}

private func startedServer(_ configuration: HTTPServerConfiguration, handler: any HTTPHandler) throws -> HTTPServer {
    let server = HTTPServer(configuration: configuration, handler: handler, logger: nil)
    try server.start()
    return server
}

private func get(_ path: String, on connection: RawHTTPConnection) throws {
    try connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
}

/// On a server with one worker and a queue of one (`routes`' server): runs `/block` on the
/// worker, then sends `count` `/quick` requests, which race for the queue — one will wait in
/// it, the others find it full. Returns the `/block` connection and the `/quick` ones.
private func occupyWorkerAndContend(on server: HTTPServer, _ routes: BlockingRoutes, count: Int = 2) throws
    -> (running: RawHTTPConnection, contenders: [RawHTTPConnection])
{
    let running = try RawHTTPConnection(port: server.boundPort)
    try get("/block", on: running)
    try #require(routes.entered.wait(timeout: .now() + 10) == .success)
    let contenders = try (0..<count).map { _ in try RawHTTPConnection(port: server.boundPort) }
    for connection in contenders {
        try get("/quick", on: connection)
    }
    return (running, contenders)
}

/// Fills a server with one worker and a queue of one (``occupyWorkerAndContend(on:_:)``).
/// Returns the `/block` connection, the `/quick` one that found the queue full (its answer
/// not yet read) and the one waiting in it.
private func fillWorkerAndQueue(of server: HTTPServer, _ routes: BlockingRoutes) throws
    -> (running: RawHTTPConnection, refused: RawHTTPConnection, queued: RawHTTPConnection)
{
    let (running, contenders) = try occupyWorkerAndContend(on: server, routes)
    let refusedIndex = try #require(RawHTTPConnection.firstReadable(contenders, milliseconds: 5000))
    return (running, contenders[refusedIndex], contenders[1 - refusedIndex])
}

/// A thread as the tests below tell them apart: its id, and whether it runs in Linux's batch
/// scheduling class, as the request workers do (and no other thread of the server).
private struct ThreadSeen: Sendable {
    let id: pthread_t
    let batchClass: Bool

    static var current: ThreadSeen {
        ThreadSeen(id: pthread_self(), batchClass: sched_getscheduler(0) == 3)  // SCHED_BATCH
    }
}

/// `POST /stored`, whose answer awaits a deferred write the test settles (`writes`, in the
/// order the requests were handled); the router logs to this sink, which records the thread
/// that writes each access log line — the thread that finishes the answer — and, when
/// `holdsFirst`, holds the first line until `gate` is signalled. Each answer's completion
/// signals `completed`.
private final class DeferredWriteRoutes: LogSink {
    let writes = Mutex<[DeferredWrite]>([])
    let finishingThreads = Mutex<[ThreadSeen]>([])
    let gate = DispatchSemaphore(value: 0)
    let completed = DispatchSemaphore(value: 0)
    let holdsFirst: Bool

    init(holdsFirst: Bool) {
        self.holdsFirst = holdsFirst
    }

    func write(line: String) {
        guard line.contains("http_request") else { return }
        let first = finishingThreads.withLock { threads in
            threads.append(.current)
            return threads.count == 1
        }
        if first, holdsFirst { gate.wait() }
    }

    func router() -> Router {
        Router(routes: [
            Route("POST", "/stored", name: "stored") { [self] _ in
                let write = DeferredWrite()
                writes.withLock { $0.append(write) }
                var response = HTTPResponse(status: 200, body: Data("stored".utf8))
                response.deferredWrite = write
                response.onCompletion = { [completed] in completed.signal() }
                return response
            },
        ], metrics: ServerMetrics(version: "test"), logger: Logger(sink: self))
    }

    /// The `count` writes, once that many requests were handled.
    func handled(_ count: Int) throws -> [DeferredWrite] {
        try #require(eventually { writes.withLock { $0.count } == count })
        return writes.withLock { $0 }
    }
}

private func post(_ path: String, on connection: RawHTTPConnection) throws {
    try connection.send("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
}

/// How the server runs requests: event-driven connections, a bounded worker pool that
/// answers 503 when its queue is full, the request deadline and the per-client limits.
@Suite struct HTTPServerExecutionTests {
    @Test("300 connections sending their requests at the same moment are all answered")
    func manyConnectionsAtOnce() throws {
        let routes = BlockingRoutes()
        // The request deadline has tests of its own; here it is out of reach, so that a machine
        // loaded by the whole suite cannot cut off a request the event threads have not read yet.
        let server = try startedServer(
            HTTPServerConfiguration(port: 0, connectionTimeout: 120, requestTimeout: 120, perIPConnectionLimit: 400),
            handler: routes.router())
        defer { server.stop() }
        let connections = try (0..<300).map { _ in try RawHTTPConnection(port: server.boundPort) }
        let request = Data("GET /quick HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        for connection in connections {
            try connection.send(request)
        }
        let statuses = try connections.map { try $0.readResponse().status }
        #expect(statuses == Array(repeating: 200, count: 300))
    }

    @Test("with every worker busy and the queue full, a request gets 503 with Retry-After, in the route's shape, once the hold is over")
    func queueFull() throws {
        let routes = BlockingRoutes()
        let server = try startedServer(
            HTTPServerConfiguration(port: 0, workerThreads: 1, workerQueueLimit: 1, busyAnswerHold: .milliseconds(300)),
            handler: routes.router())
        defer { server.stop() }
        // Runs before the stop even when an expectation throws: a blocked worker would hold it up.
        defer { routes.release.signal() }
        let began = ContinuousClock.now
        let (running, refusedConnection, queuedConnection) = try fillWorkerAndQueue(of: server, routes)
        // The refusal was held before it was sent: a client retrying at once waits this long.
        #expect(began.duration(to: .now) >= .milliseconds(300))
        let refused = try refusedConnection.readResponse()
        #expect(refused.status == 503)
        #expect(refused["Retry-After"] == "1")
        #expect(refused.text == #"{"errors":[{"extensions":{"code":"SERVICE_UNAVAILABLE"},"message":"The service is busy or briefly unavailable. Please try again in a moment."}]}"#)
        #expect(refused["X-Content-Type-Options"] == "nosniff")

        routes.release.signal()
        #expect(try running.readResponse().text == "done")
        let queued = try queuedConnection.readResponse()
        #expect(queued.status == 200)
        // The refused client may simply come back.
        try get("/quick", on: refusedConnection)
        #expect(try refusedConnection.readResponse().status == 200)
    }

    @Test("40 requests released at once against a full queue: every refusal is held, then each answered 503 with Retry-After")
    func manyRefusalsHeldAtOnce() throws {
        let routes = BlockingRoutes()
        let handler = LaneSignalling(inner: routes.router())
        let server = try startedServer(
            HTTPServerConfiguration(
                port: 0, perIPConnectionLimit: 64, workerThreads: 1, workerQueueLimit: 1, busyAnswerHold: .seconds(2)),
            handler: handler)
        defer { server.stop() }
        defer { routes.release.signal() }
        let (running, contenders) = try occupyWorkerAndContend(on: server, routes, count: 40)
        // Released only once 39 were refused while the worker is busy: the queue was full each
        // time, so the 40th already has its place (a release before that could free one).
        for _ in 1..<contenders.count {
            try #require(handler.refused.wait(timeout: .now() + 30) == .success)
        }
        // Refused, and held: no answer has been sent yet.
        #expect(RawHTTPConnection.firstReadable(contenders, milliseconds: 0) == nil)
        routes.release.signal()
        #expect(try running.readResponse().text == "done")
        let answers = try contenders.map { try $0.readResponse() }
        #expect(answers.filter { $0.status == 200 }.count == 1)
        let refused = answers.filter { $0.status == 503 }
        #expect(refused.count == 39)
        #expect(refused.allSatisfy { $0["Retry-After"] == "1" })
    }

    @Test("stop() sends a refusal still held at once, and returns")
    func stopSendsHeldAnswers() throws {
        let routes = BlockingRoutes()
        let handler = LaneSignalling(inner: routes.router())
        let server = try startedServer(
            HTTPServerConfiguration(port: 0, workerThreads: 1, workerQueueLimit: 1, busyAnswerHold: .seconds(10)),
            handler: handler)
        let (running, contenders) = try occupyWorkerAndContend(on: server, routes)
        // One refused while the worker is busy: the queue was full, so the other has its place.
        try #require(handler.refused.wait(timeout: .now() + 30) == .success)
        // Released, the worker answers the queued one; the other one's refusal is held 10 s.
        routes.release.signal()
        #expect(try running.readResponse().text == "done")
        let queuedIndex = try #require(RawHTTPConnection.firstReadable(contenders, milliseconds: 5000))
        #expect(try contenders[queuedIndex].readResponse().status == 200)
        let held = contenders[1 - queuedIndex]
        #expect(RawHTTPConnection.firstReadable([held], milliseconds: 200) == nil)

        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop()
            stopped.signal()
        }
        let refused = try held.readResponse()
        #expect(refused.status == 503)
        #expect(refused["Retry-After"] == "1")
        #expect(stopped.wait(timeout: .now() + 30) == .success)
    }

    @Test("a route on the event thread is answered while every worker is busy and the queue full; counted, not logged")
    func eventThreadLane() throws {
        let routes = BlockingRoutes()
        let server = try startedServer(
            HTTPServerConfiguration(port: 0, workerThreads: 1, workerQueueLimit: 1), handler: routes.router())
        defer { server.stop() }
        // Runs before the stop even when an expectation throws: a blocked worker would hold it up.
        defer { routes.release.signal() }
        let (running, refused, queued) = try fillWorkerAndQueue(of: server, routes)
        #expect(try refused.readResponse().status == 503)
        // Workers and queue full: the event thread's route is still answered.
        let instant = try RawHTTPConnection(port: server.boundPort)
        for _ in 0..<3 {
            try get("/instant", on: instant)
            let answer = try instant.readResponse()
            #expect(answer.status == 200)
            #expect(answer.text == "done")
            #expect(answer["X-Content-Type-Options"] == "nosniff")
        }

        routes.release.signal()
        #expect(try running.readResponse().status == 200)
        #expect(try queued.readResponse().status == 200)
        #expect(routes.metrics.requestCount(route: "instant", status: 200) == 3)
        let logged = routes.logs.lines.filter { $0.contains("\"http_request\"") }
        #expect(logged.contains { $0.contains("\"route\":\"quick\"") })
        #expect(!logged.contains { $0.contains("\"route\":\"instant\"") })
    }

    @Test("password hashing runs on its own threads: cheap routes are answered while they are busy, and a request that waited past the limit gets 503")
    func hashingLane() throws {
        let routes = BlockingRoutes()
        let server = try startedServer(
            HTTPServerConfiguration(port: 0, workerThreads: 1, hashThreads: 1, hashQueueLimit: 4, hashWaitLimit: .milliseconds(200)),
            handler: routes.router())
        defer { server.stop() }
        // Runs before the stop even when an expectation throws: a blocked worker would hold it up.
        defer { routes.release.signal() }
        // The hashing thread runs at the lowest priority: on a busy machine (the whole suite
        // running) it may take a job only after the 200 ms wait limit, and then answers it 503
        // without running it. Ask again until one runs.
        var running: RawHTTPConnection?
        for _ in 0..<20 where running == nil {
            let attempt = try RawHTTPConnection(port: server.boundPort)
            try get("/hash", on: attempt)
            if routes.entered.wait(timeout: .now() + 2) == .success {
                running = attempt
            } else {
                #expect(try attempt.readResponse().status == 503)
            }
        }
        let hashing = try #require(running)
        let waiting = try RawHTTPConnection(port: server.boundPort)
        try get("/hash", on: waiting)

        // The only hashing thread is busy; the standard worker still answers at once.
        let cheap = try RawHTTPConnection(port: server.boundPort)
        try get("/quick", on: cheap)
        #expect(try cheap.readResponse().status == 200)

        // Released after the waiting request's limit: it is answered 503, not run.
        Thread.sleep(forTimeInterval: 0.3)
        routes.release.signal()
        #expect(try hashing.readResponse().text == "done")
        let refused = try waiting.readResponse()
        #expect(refused.status == 503)
        #expect(refused["Retry-After"] == "1")
        #expect(routes.entered.wait(timeout: .now()) == .timedOut)
    }

    /// A server with one worker, busy on `/block`, and a `/quick` request waiting for it;
    /// `stop()` has been called on another thread and signals `stopped` when it returns.
    private struct StoppingWithQueuedRequest {
        let routes = BlockingRoutes()
        let running: RawHTTPConnection
        let queued: RawHTTPConnection
        let probe: RawHTTPConnection
        let stopped = DispatchSemaphore(value: 0)

        init(gracePeriod: Int) throws {
            let handler = LaneSignalling(inner: routes.router())
            let server = try startedServer(
                HTTPServerConfiguration(port: 0, workerThreads: 1, workerQueueLimit: 1, shutdownGracePeriod: gracePeriod),
                handler: handler)
            running = try RawHTTPConnection(port: server.boundPort)
            try get("/block", on: running)
            try #require(routes.entered.wait(timeout: .now() + 10) == .success)
            queued = try RawHTTPConnection(port: server.boundPort)
            try get("/quick", on: queued)
            // Laned (`/block`, then the queued request): the event thread takes the place in
            // the queue before it reads the next request.
            for _ in 0..<2 {
                try #require(handler.laned.wait(timeout: .now() + 30) == .success)
            }
            // Stop only once the request has its place: a probe sent after it is refused
            // because the queue (of one) is full.
            probe = try RawHTTPConnection(port: server.boundPort)
            try get("/quick", on: probe)
            try #require(handler.refused.wait(timeout: .now() + 30) == .success)
            Thread.detachNewThread { [stopped] in
                server.stop()
                stopped.signal()
            }
        }
    }

    @Test("stop() answers requests still waiting for a worker before it closes their connections")
    func stopAnswersQueuedRequests() throws {
        let stopping = try StoppingWithQueuedRequest(gracePeriod: 10)
        #expect(stopping.stopped.wait(timeout: .now() + 0.3) == .timedOut)
        stopping.routes.release.signal()
        for connection in [stopping.running, stopping.queued] {
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response["Connection"] == "close")
        }
        #expect(stopping.stopped.wait(timeout: .now() + 10) == .success)
        #expect(stopping.routes.completed.wait(timeout: .now() + 10) == .success)
    }

    @Test("past the grace period stop() closes connections still waiting for a worker and returns once the handler has, whose dropped response still completes")
    func stopAbandonsAfterGracePeriod() throws {
        let stopping = try StoppingWithQueuedRequest(gracePeriod: 1)
        #expect(stopping.queued.waitUntilClosed(milliseconds: 10_000))
        #expect(stopping.running.waitUntilClosed(milliseconds: 10_000))
        // The handler still runs; stop() waits for it.
        #expect(stopping.stopped.wait(timeout: .now()) == .timedOut)
        stopping.routes.release.signal()
        #expect(stopping.stopped.wait(timeout: .now() + 10) == .success)
        // Its response was never sent (the connection is gone), and its completion ran once.
        #expect(stopping.routes.completed.wait(timeout: .now()) == .success)
        #expect(stopping.routes.completed.wait(timeout: .now() + 0.2) == .timedOut)
    }

    @Test("a response that cannot go on the wire is answered 500 instead, and its completion still runs once")
    func unsendableResponseCompletes() throws {
        let routes = BlockingRoutes()
        let server = try startedServer(HTTPServerConfiguration(port: 0), handler: routes.router())
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        try get("/unsendable", on: connection)
        let response = try connection.readResponse()
        #expect(response.status == 500)
        #expect(response["Set-Cookie"] == nil)
        #expect(routes.completed.wait(timeout: .now() + 10) == .success)
        #expect(routes.completed.wait(timeout: .now() + 0.2) == .timedOut)
    }

    @Test("a request head dripped a line at a time is cut off at the request deadline, long before the idle timeout")
    func drippedHead() throws {
        let server = try startedServer(
            HTTPServerConfiguration(port: 0, connectionTimeout: 30, requestTimeout: 1), handler: BlockingRoutes().router())
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        let began = ContinuousClock.now
        try connection.send("GET /quick HTTP/1.1\r\n")
        var line = 0
        var closed = false
        while !closed, ContinuousClock.now - began < .seconds(10) {
            line += 1
            try? connection.send("X-Drip-\(line): \(line)\r\n")
            closed = connection.waitUntilClosed(milliseconds: 200)
        }
        #expect(closed)
        // Dripping kept the connection busy well past the deadline's first second.
        #expect(line >= 4)
    }

    @Test("on a kept-alive connection the deadline starts with the next request, whose dripped request line is cut off")
    func drippedSecondRequest() throws {
        let server = try startedServer(
            HTTPServerConfiguration(port: 0, connectionTimeout: 30, requestTimeout: 1), handler: BlockingRoutes().router())
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        try get("/quick", on: connection)
        #expect(try connection.readResponse().status == 200)
        // Idle for longer than the request deadline: the idle timeout applies, not the deadline.
        #expect(!connection.waitUntilClosed(milliseconds: 2500))
        try get("/quick", on: connection)
        #expect(try connection.readResponse().status == 200)

        var sent = 0
        var closed = false
        for byte in "GET /quick HTTP/1.1\r\nHost: x\r\n\r\n".utf8 where !closed {
            try? connection.send(Data([byte]))
            sent += 1
            closed = connection.waitUntilClosed(milliseconds: 300)
        }
        #expect(closed)
        #expect(sent >= 4)
    }

    @Test("the per-client connection limit applies to IPv6 peers too")
    func perClientLimitOverIPv6() throws {
        let server = try startedServer(
            HTTPServerConfiguration(host: "::1", port: 0, perIPConnectionLimit: 2), handler: BlockingRoutes().router())
        defer { server.stop() }
        let admitted = try (0..<2).map { _ in try RawHTTPConnection(host: "::1", port: server.boundPort) }
        for connection in admitted {
            try get("/quick", on: connection)
            #expect(try connection.readResponse().status == 200)
        }
        let extra = try RawHTTPConnection(host: "::1", port: server.boundPort, receiveTimeoutSeconds: 5)
        #expect(extra.isClosedByServer())
        // A closed connection frees its place.
        admitted[1].hangUp()
        var readmitted = false
        for _ in 0..<50 where !readmitted {
            let again = try RawHTTPConnection(host: "::1", port: server.boundPort)
            try get("/quick", on: again)
            readmitted = (try? again.readResponse().status) == 200
            if !readmitted { usleep(20_000) }
        }
        #expect(readmitted)
    }

    @Test("with a trusted proxy configured, direct clients keep the per-client limit; only the proxy's own connections are not capped")
    func trustedProxyIsTheOnlyExemption() throws {
        let server = try startedServer(
            HTTPServerConfiguration(port: 0, perIPConnectionLimit: 2, trustedProxies: ["127.0.0.2"]), handler: BlockingRoutes().router())
        defer { server.stop() }
        let direct = try (0..<2).map { _ in try RawHTTPConnection(port: server.boundPort) }
        for connection in direct {
            try get("/quick", on: connection)
            #expect(try connection.readResponse().status == 200)
        }
        let extra = try RawHTTPConnection(port: server.boundPort, receiveTimeoutSeconds: 5)
        #expect(extra.isClosedByServer())
        let proxied = try (0..<5).map { _ in try RawHTTPConnection(port: server.boundPort, source: "127.0.0.2") }
        for connection in proxied {
            try get("/quick", on: connection)
            #expect(try connection.readResponse().status == 200)
        }
    }

    @Test("an answer awaiting a deferred write is finished on a request worker, not on the thread that settles the write, which a finish that blocks does not hold up")
    func deferredWriteAnswersAreFinishedOnWorkers() throws {
        let routes = DeferredWriteRoutes(holdsFirst: true)
        let server = try startedServer(HTTPServerConfiguration(port: 0, workerThreads: 4), handler: routes.router())
        defer { server.stop() }
        let connections = try (0..<2).map { _ in try RawHTTPConnection(port: server.boundPort) }
        for connection in connections {
            try post("/stored", on: connection)
        }
        let writes = try routes.handled(2)
        #expect(routes.finishingThreads.withLock { $0 }.isEmpty, "no answer is finished before its write settles")
        // A thread of its own settles both writes, as a store's committer settles a batch.
        let settled = DispatchSemaphore(value: 0)
        let committer = Mutex<ThreadSeen?>(nil)
        Thread.detachNewThread {
            committer.withLock { $0 = .current }
            for write in writes { write.settle(.success(())) }
            settled.signal()
        }
        // Both settled while the first answer's finish is still held in its log write...
        #expect(settled.wait(timeout: .now() + 10) == .success)
        // ...and the second answer was finished meanwhile, by another worker.
        #expect(eventually { routes.finishingThreads.withLock { $0.count } == 2 })
        routes.gate.signal()
        for connection in connections {
            let response = try connection.readResponse()
            #expect(response.status == 200 && response.text == "stored")
        }
        let threads = routes.finishingThreads.withLock { $0 }
        let committerID = try #require(committer.withLock { $0 }).id
        #expect(threads.count == 2 && threads.allSatisfy { $0.batchClass && pthread_equal($0.id, committerID) == 0 })
        #expect(threads.count == 2 && pthread_equal(threads[0].id, threads[1].id) == 0, "two workers")
    }

    @Test("past the grace period stop() closes a connection whose answer awaits a deferred write, and returns once the write has settled and a worker finished the answer, its completion called")
    func stopWaitsForDeferredWriteAnswers() throws {
        let routes = DeferredWriteRoutes(holdsFirst: false)
        let server = try startedServer(HTTPServerConfiguration(port: 0, shutdownGracePeriod: 1), handler: routes.router())
        let connection = try RawHTTPConnection(port: server.boundPort)
        try post("/stored", on: connection)
        let write = try #require(try routes.handled(1).first)
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop()
            stopped.signal()
        }
        #expect(connection.waitUntilClosed(milliseconds: 10_000))
        // The answer is still to be finished: stop() waits for it.
        #expect(stopped.wait(timeout: .now() + 0.3) == .timedOut)
        write.settle(.success(()))
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(routes.completed.wait(timeout: .now()) == .success)
        // Finished by a worker, not by this thread, which settled the write.
        let finishing = routes.finishingThreads.withLock { $0 }
        #expect(finishing.count == 1 && finishing.allSatisfy { $0.batchClass && pthread_equal($0.id, pthread_self()) == 0 })
    }
}

/// Counting connections per client network: an IPv4 address, or an IPv6 /64.
@Suite struct ConnectionAdmissionTests {
    private func address(_ text: String) -> IPAddress { IPAddress(text)! }

    @Test("IPv6 addresses in one /64 share a limit; another /64 has its own")
    func ipv6PerSlash64() {
        var admission = ConnectionAdmission(limit: 100, perNetworkLimit: 2)
        let admitted = [
            admission.reserve(descriptor: 10, peer: address("2001:db8:1:2::1")),
            admission.reserve(descriptor: 11, peer: address("2001:db8:1:2:ffff:ffff:ffff:fffe")),
            admission.reserve(descriptor: 12, peer: address("2001:db8:1:2:abcd::9")),
            admission.reserve(descriptor: 12, peer: address("2001:db8:1:3::1")),
            admission.reserve(descriptor: 13, peer: address("2001:db8:1:3::2")),
            admission.reserve(descriptor: 14, peer: address("2001:db8:1:3::3")),
        ]
        #expect(admitted == [.admitted, .admitted, .networkFull, .admitted, .admitted, .networkFull])
    }

    @Test("IPv4 addresses count one by one, also when mapped into IPv6")
    func ipv4PerAddress() {
        var admission = ConnectionAdmission(limit: 100, perNetworkLimit: 1)
        let admitted = [
            admission.reserve(descriptor: 10, peer: address("192.0.2.1")),
            admission.reserve(descriptor: 11, peer: address("::ffff:192.0.2.1")),
            admission.reserve(descriptor: 11, peer: address("192.0.2.2")),
        ]
        #expect(admitted == [.admitted, .networkFull, .admitted])
        #expect(ConnectionAdmission.networks(of: address("::ffff:192.0.2.1")).map { "\($0.address)/\($0.prefixLength)" } == ["192.0.2.1/32"])
    }

    @Test("the total limit applies across networks and to the trusted proxies; only the per-network limit spares the proxies")
    func totalLimit() {
        var admission = ConnectionAdmission(limit: 4, perNetworkLimit: 1, unlimitedPeers: [address("10.0.0.5")])
        let admitted = [
            admission.reserve(descriptor: 10, peer: address("10.0.0.5")),
            admission.reserve(descriptor: 11, peer: address("10.0.0.5")),
            admission.reserve(descriptor: 12, peer: address("10.0.0.6")),
            admission.reserve(descriptor: 13, peer: address("10.0.0.6")),
            admission.reserve(descriptor: 13, peer: address("10.0.0.5")),
            admission.reserve(descriptor: 14, peer: address("198.51.100.1")),
        ]
        #expect(admitted == [.admitted, .admitted, .admitted, .networkFull, .admitted, .serverFull])
        // A proxy's closed connection frees its place in the total.
        admission.release(address("10.0.0.5"))
        let afterRelease = [
            admission.reserve(descriptor: 14, peer: address("198.51.100.1")),
            admission.reserve(descriptor: 15, peer: address("10.0.0.5")),
        ]
        #expect(afterRelease == [.admitted, .serverFull])
    }

    @Test("a place is held from accept to close, and freed by a closed connection, a cancelled one or a descriptor accepted again")
    func lifecycle() {
        var admission = ConnectionAdmission(limit: 10, perNetworkLimit: 1)
        let peer = address("2001:db8::1")
        let first = admission.reserve(descriptor: 10, peer: peer)
        let claimed = admission.claim(descriptor: 10)
        let whileOpen = admission.reserve(descriptor: 11, peer: peer)
        #expect(first == .admitted && claimed == peer && whileOpen == .networkFull)
        admission.release(peer)

        let second = admission.reserve(descriptor: 11, peer: peer)
        admission.cancel(descriptor: 11)
        #expect(second == .admitted)

        // Never claimed (the library closed the socket on the way): when descriptor 12 is
        // accepted again, the old reservation is gone.
        let stale = admission.reserve(descriptor: 12, peer: peer)
        let again = admission.reserve(descriptor: 12, peer: peer)
        let unknown = admission.claim(descriptor: 99)
        let beyond = admission.reserve(descriptor: 13, peer: peer)
        #expect(stale == .admitted && again == .admitted && unknown == nil && beyond == .networkFull)
    }
}
