import CMicroHTTPD
import Dispatch
import Foundation
import LatchkeyCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A started libmicrohttpd daemon, passed to the accepting thread.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// What one request accumulates between libmicrohttpd's callbacks, on its connection's event
/// thread; owned by the connection (`con_cls`) from the request line until the request completes.
private final class PendingRequest {
    let target: RequestTarget?
    let connection: ConnectionRecord?
    /// Where the library's copy of the request target starts, to tell how far it is from the
    /// method (``RequestFraming/methodSeparation(methodLength:targetOffset:)``).
    let targetAddress: Int
    var framing = RequestFraming()
    /// Bytes of the ``BodyBudget`` this request holds.
    var reservedBodyBytes = 0
    var headersRead = false
    var countedInFlight = false
    var dispatched = false
    var headers = HTTPHeaders()
    var body = Data()
    var rejection: RequestRejection?
    var discardedBytes = 0
    /// The sent response's completion, called when the request ends.
    var onCompletion: (@Sendable () -> Void)?

    init(target: RequestTarget?, connection: ConnectionRecord?, targetAddress: Int) {
        self.target = target
        self.connection = connection
        self.targetAddress = targetAddress
    }
}

/// The state libmicrohttpd's C callbacks reach through their `cls` pointer: the handler,
/// the limits, the worker pool, the open connections and the count of requests in flight.
///
/// The event threads read requests and write responses; complete requests go to the worker
/// pool while their connection is suspended. A request's head must pass ``RequestFraming``
/// (else `400`, or `501`, and the connection is closed); its body must fit in the
/// ``BodyBudget`` shared by every connection (else `503` with `Retry-After`, and the
/// connection is closed). At the connection limit, the connection that has sent nothing for
/// longest is closed to make room for a new one (``ConnectionRecord/evict()``). When the pool's queue is full the request is
/// answered `503` with `Retry-After`, in the route's error shape, after being held for
/// ``HTTPServerConfiguration/busyAnswerHold`` (``HeldAnswers``). An answer that waits for a
/// deferred write is finished and delivered by a worker of the same pool once the write has
/// settled (a follow-up, ``RequestWorkerPool``): only the pools' threads and the holder of
/// busy answers deliver responses, and the stop joins them all.
final class RequestExchange: Sendable {
    /// How much of an oversized upload is read and thrown away so the client still gets
    /// its 413; past this the connection is closed instead.
    private static let discardAllowance = 1 << 20
    /// How often the connections shed under load are logged (when there are any).
    private static let sheddingReportInterval = Duration.seconds(10)

    private let handler: any HTTPHandler
    private let maxBodyBytes: Int
    private let bodyBudget: BodyBudget
    private let clientIPResolver: ClientIPResolver
    private let strictTransportSecurity: Bool
    private let workers: RequestWorkerPool
    private let hashWorkers: RequestWorkerPool
    private let hashWaitLimit: Duration
    private let heldAnswers: HeldAnswers
    private let logger: Logger?
    private let inFlight = DispatchGroup()
    private let draining = Atomic<Bool>(false)
    private let admission: Mutex<ConnectionAdmission>
    private let connections = Mutex<[ObjectIdentifier: ConnectionRecord]>([:])
    /// Connections that had sent nothing when the deadline sweep last looked, the one silent
    /// for longest last; filled only near the connection limit.
    private let evictionCandidates = Mutex<[ConnectionRecord]>([])
    private let refusedConnections = Atomic<Int>(0)
    private let evictedConnections = Atomic<Int>(0)
    private let bodyBudgetRefusals = Atomic<Int>(0)
    private let busyResponses = Atomic<Int>(0)
    private let cutOffRequests = Atomic<Int>(0)
    private let lastSheddingReport = Mutex<ContinuousClock.Instant>(.now)

    init(
        handler: any HTTPHandler, maxBodyBytes: Int, bodyBudget: BodyBudget, clientIPResolver: ClientIPResolver,
        strictTransportSecurity: Bool,
        admission: ConnectionAdmission, workers: RequestWorkerPool, hashWorkers: RequestWorkerPool, hashWaitLimit: Duration,
        heldAnswers: HeldAnswers, logger: Logger?
    ) {
        self.handler = handler
        self.maxBodyBytes = maxBodyBytes
        self.bodyBudget = bodyBudget
        self.clientIPResolver = clientIPResolver
        self.strictTransportSecurity = strictTransportSecurity
        self.admission = Mutex(admission)
        self.workers = workers
        self.hashWorkers = hashWorkers
        self.hashWaitLimit = hashWaitLimit
        self.heldAnswers = heldAnswers
        self.logger = logger
    }

    // MARK: Connections

    /// Lets the connection just accepted on `descriptor` in (hands it to `daemon`) or closes
    /// it at once when a connection limit is reached. At the total limit (its network having
    /// room), it closes the connection that has sent nothing for longest instead, if there is
    /// one, and lets the new one in: connections that send nothing cannot shut fresh clients
    /// out. Accepting thread.
    func admit(_ descriptor: Int32, address: UnsafePointer<sockaddr>, length: socklen_t, into daemon: DaemonHandle) {
        guard let peer = Self.ipAddress(address) else {
            refusedConnections.add(1, ordering: .relaxed)
            close(descriptor)
            return
        }
        var outcome = admission.withLock { $0.reserve(descriptor: descriptor, peer: peer) }
        if outcome == .serverFull, evictSilentConnection() {
            outcome = admission.withLock { $0.reserve(descriptor: descriptor, peer: peer) }
        }
        guard outcome == .admitted else {
            refusedConnections.add(1, ordering: .relaxed)
            close(descriptor)
            return
        }
        if MHD_add_connection(daemon.pointer, descriptor, address, length) != .YES {
            // The library closed the socket.
            admission.withLock { $0.cancel(descriptor: descriptor) }
        }
    }

    /// Closes the connection that has sent nothing for longest, of those the last sweep
    /// found, giving its place in the admission back at once (the library closes its socket
    /// soon after); false when there is none. Accepting thread.
    private func evictSilentConnection() -> Bool {
        while let candidate = evictionCandidates.withLock({ $0.popLast() }) {
            guard candidate.evict() else { continue }  // it has sent a head since, or closed
            if let peer = candidate.takePlace() {
                admission.withLock { $0.release(peer) }
            }
            evictedConnections.add(1, ordering: .relaxed)
            return true
        }
        return false
    }

    /// Cuts off every request that has been arriving for longer than `deadline`; near the
    /// connection limit (three quarters of it open), lists the connections that have sent
    /// nothing, to evict the one silent for longest first; now and then logs how many
    /// connections were shed. Deadline sweep thread.
    func sweep(deadline: Duration, connectionLimit: Int) {
        let records = connections.withLock { Array($0.values) }
        let now = ContinuousClock.now
        var cutOff = 0
        for record in records where record.enforce(deadline: deadline, now: now) {
            cutOff += 1
        }
        cutOffRequests.add(cutOff, ordering: .relaxed)
        var candidates: [ConnectionRecord] = []
        if records.count >= connectionLimit - connectionLimit / 4 {
            candidates = records.compactMap { record in record.silentSince.map { (record, $0) } }
                .sorted { $0.1 > $1.1 }.map(\.0)
        }
        evictionCandidates.withLock { $0 = candidates }
        let due = lastSheddingReport.withLock { last in
            guard now - last >= Self.sheddingReportInterval else { return false }
            last = now
            return true
        }
        guard due else { return }
        let refused = refusedConnections.exchange(0, ordering: .relaxed)
        let evicted = evictedConnections.exchange(0, ordering: .relaxed)
        let busy = busyResponses.exchange(0, ordering: .relaxed)
        let bodies = bodyBudgetRefusals.exchange(0, ordering: .relaxed)
        let cut = cutOffRequests.exchange(0, ordering: .relaxed)
        if refused + evicted + busy + bodies + cut > 0 {
            logger?.warning("http_load_shed", [
                "refused_connections": .int(refused), "evicted_connections": .int(evicted), "busy_responses": .int(busy),
                "body_budget_refusals": .int(bodies), "requests_cut_off": .int(cut), "open_connections": .int(records.count),
            ])
        }
    }

    // MARK: Stopping

    func beginDraining() {
        draining.store(true, ordering: .sequentiallyConsistent)
    }

    /// Waits until no request is being read, handled or answered; false when time ran out.
    func waitForInFlightRequests(seconds: Int) -> Bool {
        inFlight.wait(timeout: .now() + .seconds(seconds)) == .success
    }

    /// Resumes every connection still waiting for a worker, to be closed: libmicrohttpd must
    /// not be stopped with suspended connections. Call after the worker pool is closed, so
    /// no request can be suspended any more. A worker that delivers later (a follow-up whose
    /// write settled since) finds its connection abandoned and calls its completion.
    func abandonSuspendedRequests() {
        for record in connections.withLock({ Array($0.values) }) {
            record.abandon()
        }
    }

    // MARK: libmicrohttpd callbacks (capture nothing; context comes through `cls`)

    /// Called when a connection starts being served and when it is closed; the record lives
    /// in the connection's socket context in between.
    static let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        guard let cls, let connection, let socketContext else { return }
        let exchange = Unmanaged<RequestExchange>.fromOpaque(cls).takeUnretainedValue()
        switch code {
        case .CONNECTION_NOTIFY_STARTED:
            let descriptor = latchkey_mhd_connection_descriptor(connection)
            let peer = exchange.admission.withLock { $0.claim(descriptor: descriptor) }
            let record = ConnectionRecord(connection: connection, descriptor: descriptor, peer: peer)
            exchange.connections.withLock { $0[ObjectIdentifier(record)] = record }
            socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
        case .CONNECTION_NOTIFY_CLOSED:
            guard let pointer = socketContext.pointee else { return }
            socketContext.pointee = nil
            let record = Unmanaged<ConnectionRecord>.fromOpaque(pointer).takeRetainedValue()
            record.closed()
            exchange.connections.withLock { $0[ObjectIdentifier(record)] = nil }
            // Unless an eviction gave the place back already.
            if let peer = record.takePlace() {
                exchange.admission.withLock { $0.release(peer) }
            }
        default:
            break
        }
    }

    /// Called once per request with the raw request target; the result becomes `con_cls`.
    static let requestStarted: latchkey_mhd_request_started = { _, uri, connection in
        let target = uri.flatMap { RequestTarget(String(cString: $0)) }
        let record = connection.flatMap(latchkey_mhd_socket_context).map {
            Unmanaged<ConnectionRecord>.fromOpaque($0).takeUnretainedValue()
        }
        record?.requestStarted()
        let pending = PendingRequest(target: target, connection: record, targetAddress: Int(bitPattern: uri))
        if let uri {
            pending.framing.target(UnsafeRawBufferPointer(start: uri, count: strlen(uri)))
        }
        return Unmanaged.passRetained(pending).toOpaque()
    }

    /// Called after the request line and headers, for each piece of body, once the request
    /// is complete, and again when a connection resumes from a worker; must queue a response
    /// or suspend the connection by the last call.
    static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, _, method, version, upload, uploadSize, slot in
        guard let cls, let connection, let method, let uploadSize, let pending = slot?.pointee else { return .NO }
        let exchange = Unmanaged<RequestExchange>.fromOpaque(cls).takeUnretainedValue()
        let request = Unmanaged<PendingRequest>.fromOpaque(pending).takeUnretainedValue()
        if !request.headersRead {
            request.framing.methodSeparation(methodLength: strlen(method), targetOffset: request.targetAddress - Int(bitPattern: method))
        }
        return exchange.advance(
            request, on: connection, method: String(cString: method), version: version,
            upload: uploadSize.pointee > 0 ? UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee) : nil,
            consumed: { uploadSize.pointee = 0 })
    }

    /// Called when a request ends (answered, failed or cut off); frees its state and calls
    /// the completion of its response — also of a worker's response the connection closed
    /// before sending.
    static let requestCompleted: MHD_RequestCompletedCallback = { cls, _, slot, _ in
        guard let cls, let slot, let pending = slot.pointee else { return }
        slot.pointee = nil
        let request = Unmanaged<PendingRequest>.fromOpaque(pending).takeRetainedValue()
        let unsent = request.dispatched && request.onCompletion == nil ? request.connection?.takeResponse() : nil
        (request.onCompletion ?? unsent?.onCompletion)?()
        request.connection?.requestCompleted()
        let exchange = Unmanaged<RequestExchange>.fromOpaque(cls).takeUnretainedValue()
        if request.reservedBodyBytes > 0 {
            exchange.bodyBudget.release(request.reservedBodyBytes)
        }
        if request.countedInFlight {
            exchange.inFlight.leave()
        }
    }

    // MARK: Request processing

    private func advance(
        _ request: PendingRequest, on connection: OpaquePointer, method: String, version: UnsafePointer<CChar>?,
        upload: UnsafeRawBufferPointer?, consumed: () -> Void
    ) -> MHD_Result {
        guard request.headersRead else {
            request.headersRead = true
            request.countedInFlight = true
            inFlight.enter()
            request.headers = Self.headers(of: connection, checking: &request.framing)
            let framing: BodyFraming
            do {
                framing = try request.framing.bodyFraming(http11: version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false)
            } catch {
                // Answered before any body is read, and closed: what follows the head cannot
                // be told apart from a next request.
                return queue(rejectionResponse(.malformedHead(error), request, method: method), on: connection, closing: true)
            }
            request.connection?.headReceived()
            if case .length(let length) = framing, length > maxBodyBytes {
                // Answering before the body is read makes libmicrohttpd skip it and close.
                return queue(rejectionResponse(.payloadTooLarge(limit: maxBodyBytes), request, method: method), on: connection)
            }
            if request.target == nil {
                return queue(RequestRejection.malformedQuery.response, on: connection)
            }
            if case .length(let length) = framing, length > 0 {
                guard bodyBudget.reserve(length, share: length) else {
                    bodyBudgetRefusals.add(1, ordering: .relaxed)
                    return queue(rejectionResponse(.bodyBudgetExhausted, request, method: method), on: connection, closing: true)
                }
                request.reservedBodyBytes = length
                // A large body is given its whole storage at once (grown piece by piece, it
                // could take twice its length); a small one, as the budget counts them, grows
                // as it comes: reserving first costs an allocation most small bodies never need.
                if length > bodyBudget.smallBodyBytes {
                    request.body.reserveCapacity(length)
                }
            }
            return .YES
        }
        if let upload {
            consumed()
            if request.rejection == nil {
                let needed = request.body.count + upload.count
                if needed > maxBodyBytes {
                    request.rejection = .payloadTooLarge(limit: maxBodyBytes)
                } else if needed > request.reservedBodyBytes, !reserveMore(for: request, needed: needed) {
                    bodyBudgetRefusals.add(1, ordering: .relaxed)
                    request.rejection = .bodyBudgetExhausted
                } else {
                    request.body.append(contentsOf: upload)
                    return .YES
                }
                // The body is thrown away from now on: what it held goes back.
                request.body = Data()
                bodyBudget.release(request.reservedBodyBytes)
                request.reservedBodyBytes = 0
            }
            request.discardedBytes += upload.count
            return request.discardedBytes > Self.discardAllowance ? .NO : .YES
        }
        // The request is complete.
        guard let record = request.connection else { return .NO }
        if request.dispatched {
            // Resumed: the worker's response, or nothing when a stop abandoned the request.
            guard let response = record.takeResponse() else { return .NO }
            request.onCompletion = response.onCompletion
            return queue(response, on: connection)
        }
        record.requestReceived()
        if let rejection = request.rejection {
            return queue(rejectionResponse(rejection, request, method: method), on: connection, closing: rejection.closesConnection)
        }
        guard let target = request.target, let peer = record.peer else { return .NO }
        let clientIP = clientIPResolver.clientIP(peer: peer, forwardedFor: request.headers.values("X-Forwarded-For"))
        let complete = HTTPRequest(
            method: method, path: target.path, query: target.query, headers: request.headers,
            body: request.body, clientIP: clientIP == peer ? record.peerText ?? clientIP.description : clientIP.description)
        request.body = Data()
        let lane = handler.lane(method: method, path: target.path)
        if lane == .eventThread {
            return queue(sendable(handler.handle(complete)), on: connection)
        }
        let pool = lane == .passwordHashing ? hashWorkers : workers
        record.suspend()
        request.dispatched = true
        guard pool.reserve() else {
            busyResponses.add(1, ordering: .relaxed)
            let refusal = rejectionResponse(.serverBusy, request, method: method)
            // Held before it is sent, so a client retrying at once cannot make refusals a flood.
            if !heldAnswers.add(refusal, for: record) { record.deliver(refusal) }
            return .YES
        }
        let busy = lane == .passwordHashing ? rejectionResponse(.serverBusy, request, method: method) : nil
        let queuedAt = ContinuousClock.now
        let job: @Sendable () -> Void = { [self] in
            // A request that waited too long for a hashing thread is answered at once, so
            // every one gets its answer in bounded time however long the queue grew.
            if let busy, queuedAt.duration(to: .now) > hashWaitLimit {
                busyResponses.add(1, ordering: .relaxed)
                record.deliver(busy)
            } else {
                deliver(handler.answer(complete), to: record, from: pool)
            }
        }
        if !pool.submit(job) {
            // The pool closed meanwhile (the server is stopping): close the connection.
            record.abandon()
        }
        return .YES
    }

    /// Grows the budget share of `request`, whose chunked body needs `needed` bytes: to twice
    /// what it holds (up to the body limit), or else to just `needed`; the body's storage
    /// grows to match, so that what it holds is what it was granted. False when the budget
    /// has no room.
    private func reserveMore(for request: PendingRequest, needed: Int) -> Bool {
        let held = request.reservedBodyBytes
        for wanted in [min(maxBodyBytes, max(needed, 2 * held)), needed] where bodyBudget.reserve(wanted - held, share: wanted) {
            request.reservedBodyBytes = wanted
            request.body.reserveCapacity(wanted)
            return true
        }
        return false
    }

    /// Hands `answer` to `record`'s connection, on this worker of `pool` — or, when it awaits a
    /// deferred write not settled yet, on a worker of `pool` once the write has settled: the
    /// thread that settles it only queues the follow-up, in the place taken here. With no
    /// place left (as many answers await writes as requests may wait), this worker waits for
    /// the write.
    private func deliver(_ answer: HTTPAnswer, to record: ConnectionRecord, from pool: RequestWorkerPool) {
        guard case .awaiting(let write, let finish) = answer, write.outcome == nil, pool.reserveFollowUp() else {
            record.deliver(sendable(answer.waitedFor()))
            return
        }
        write.whenSettled { [self] outcome in
            pool.submitFollowUp { [self] in record.deliver(sendable(finish(outcome))) }
        }
    }

    /// The handler's answer to `rejection` for the route the request was for, or the plain
    /// JSON error when the request target could not be parsed.
    private func rejectionResponse(_ rejection: RequestRejection, _ request: PendingRequest, method: String) -> HTTPResponse {
        guard let target = request.target else { return rejection.response }
        return sendable(handler.rejection(rejection.error, method: method, path: target.path, headers: request.headers))
    }

    /// The response itself, or a 500 when its status or a header could not go on the wire.
    /// A kept answer whose wire form was built already passed these checks when it was
    /// first sent, and is sent again unchanged.
    private func sendable(_ response: HTTPResponse) -> HTTPResponse {
        if response.reusableWire?.isBuilt == true { return response }
        guard (100...599).contains(response.status) else {
            logger?.error("http_response_invalid", ["reason": "status", "status": .int(response.status)])
            return Self.unsendable(replacing: response)
        }
        for (name, value) in response.headers where !Self.isValidHeader(name: name, value: value) {
            logger?.error("http_response_invalid", ["reason": "header", "header": .string(name)])
            return Self.unsendable(replacing: response)
        }
        return response
    }

    /// The 500 sent instead of `response`, which cannot go on the wire; it takes over the
    /// response's ``HTTPResponse/onCompletion``, so that is still called once.
    private static func unsendable(replacing response: HTTPResponse) -> HTTPResponse {
        var replacement = RequestRejection.unsendableResponse.response
        replacement.onCompletion = response.onCompletion
        return replacement
    }

    /// The bytes that may be in a header name (RFC 9110 `tchar`: letters, digits and
    /// ``!#$%&'*+-.^_`|~``), one bit per ASCII byte: bytes 0–63 in the first word, 64–127 in
    /// the second.
    private static let tokenCharacters: (UInt64, UInt64) = {
        var bits: (UInt64, UInt64) = (0, 0)
        for byte in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&'*+-.^_`|~".utf8 {
            if byte < 64 { bits.0 |= 1 << UInt64(byte) } else { bits.1 |= 1 << UInt64(byte - 64) }
        }
        return bits
    }()

    /// Whether a header field can go on the wire as given: its name a non-empty token, its
    /// value free of CR, LF and NUL (which would end the field or the head early). Scans the
    /// strings' UTF-8 in place: every response's every header passes here.
    private static func isValidHeader(name: String, value: String) -> Bool {
        var name = name
        var value = value
        let tokens = tokenCharacters
        let nameIsToken = name.withUTF8 { bytes in
            !bytes.isEmpty && bytes.allSatisfy { byte in
                byte < 64 ? tokens.0 >> UInt64(byte) & 1 == 1 : byte < 128 && tokens.1 >> UInt64(byte - 64) & 1 == 1
            }
        }
        return nameIsToken && value.withUTF8 { bytes in !bytes.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 } }
    }

    /// Queues `response` on `connection` — its reusable wire form when it has one and the
    /// server is not stopping; when it cannot be built, a 500 instead (`fallback`), or
    /// when even that fails, `.NO`, which closes the connection. With `closing` (and while the
    /// server stops) the response says `Connection: close` and the connection is closed once
    /// it is sent.
    private func queue(_ response: HTTPResponse, on connection: OpaquePointer, closing: Bool = false, fallback: Bool = true) -> MHD_Result {
        let closing = closing || draining.load(ordering: .sequentiallyConsistent)
        if !closing, let reusable = response.reusableWire,
           let wire = reusable.wire(strictTransportSecurity: strictTransportSecurity, build: { wire(for: response, closing: false) }) {
            return MHD_queue_response(connection, UInt32(response.status), wire)
        }
        guard let wire = wire(for: response, closing: closing) else {
            return fallback
                ? queue(RequestRejection.unsendableResponse.response, on: connection, closing: closing, fallback: false) : .NO
        }
        defer { MHD_destroy_response(wire) }
        return MHD_queue_response(connection, UInt32(response.status), wire)
    }

    /// libmicrohttpd's response object for `response` (with `Strict-Transport-Security` when
    /// configured, and `Connection: close` when `closing`); nil when the library refuses a
    /// header or the memory, which is logged.
    private func wire(for response: HTTPResponse, closing: Bool) -> OpaquePointer? {
        let body = response.body
        guard let wire = body.withUnsafeBytes({
            MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }) else {
            logger?.error("http_response_invalid", ["reason": "no memory"])
            return nil
        }
        // libmicrohttpd computes Content-Length from the body itself.
        for (name, value) in response.headers where !HTTPHeaders.isSameName(name, "Content-Length") {
            // withCString lends a native string's own NUL-terminated bytes; the implicit
            // conversion of a String argument copied each name and value into a new array.
            let added = name.withCString { name in value.withCString { value in MHD_add_response_header(wire, name, value) } }
            guard added == .YES else {
                // e.g. an empty value or a header the library reserves for itself.
                logger?.error("http_response_invalid", ["reason": "header refused", "header": .string(name)])
                MHD_destroy_response(wire)
                return nil
            }
        }
        if strictTransportSecurity {
            _ = MHD_add_response_header(wire, "Strict-Transport-Security", "max-age=31536000")
        }
        if closing {
            _ = MHD_add_response_header(wire, "Connection", "close")
        }
        return wire
    }

    // MARK: Reading from a connection

    /// The request's header fields, each also passed to `framing`, with where each line ends
    /// in the library's buffer (a value the library cut at a NUL: ``RequestFraming/lineEnd(gap:)``).
    private static func headers(of connection: OpaquePointer, checking framing: inout RequestFraming) -> HTTPHeaders {
        typealias Head = (headers: HTTPHeaders, framing: RequestFraming, valueEnd: UnsafeRawPointer?)
        var head: Head = (HTTPHeaders(), framing, nil)
        _ = withUnsafeMutablePointer(to: &head) { collected in
            MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, name, nameSize, value, valueSize in
                guard let cls, let name else { return .YES }
                let head = cls.assumingMemoryBound(to: Head.self)
                let nameBytes = UnsafeRawBufferPointer(start: name, count: nameSize)
                let valueBytes = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize)
                let valueOffset = value.map { Int(bitPattern: $0) - Int(bitPattern: name) }
                if let end = head.pointee.valueEnd {
                    head.pointee.framing.lineEnd(gap: Int(bitPattern: name) - Int(bitPattern: end))
                }
                head.pointee.framing.field(name: nameBytes, value: valueBytes, valueOffset: valueOffset)
                head.pointee.valueEnd = nil
                if let value, let valueOffset, RequestFraming.isInPlace(valueOffset: valueOffset, nameLength: nameSize) {
                    head.pointee.valueEnd = UnsafeRawPointer(value) + valueSize
                }
                head.pointee.headers.add(String(decoding: nameBytes, as: UTF8.self), String(decoding: valueBytes, as: UTF8.self))
                return .YES
            }, collected)
        }
        // The last value's line end, then the empty line ending the head, lie in the buffer.
        if let end = head.valueEnd {
            head.framing.lastLineEnd(following: end.load(fromByteOffset: 1, as: UInt8.self))
        }
        framing = head.framing
        return head.headers
    }

    private static func ipAddress(_ address: UnsafePointer<sockaddr>) -> IPAddress? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                IPAddress(bytes: withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) })
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                IPAddress(bytes: withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) })
            }
        default:
            return nil
        }
    }
}
