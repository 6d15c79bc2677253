package import LatchkeyCore
import CMicroHTTPD
import Dispatch
import Foundation
import LatchkeyCrypto
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server that reads each request completely (within the configured limits)
/// and answers it with the response of an ``HTTPHandler``.
///
/// Threading model: libmicrohttpd's thread-per-connection mode. One internal thread
/// accepts connections; every connection gets its own thread, which reads the request,
/// calls the handler synchronously and writes the response. A slow handler therefore
/// delays only its own connection; ``HTTPServerConfiguration/connectionLimit`` bounds the
/// number of threads. The handler is called from many threads at once.
///
/// With ``HTTPServerConfiguration/tls`` set it speaks only HTTPS (libmicrohttpd over
/// GnuTLS, TLS 1.2 and 1.3) and adds `Strict-Transport-Security` to every response it
/// queues, the handler's and its own rejections (413, 400) alike. (The 414 and 431 that
/// libmicrohttpd writes by itself for an oversized head carry no headers of ours.)
///
/// This file is the only place that knows libmicrohttpd.
package final class HTTPServer: Sendable {
    private let configuration: HTTPServerConfiguration
    private let handler: any HTTPHandler
    private let logger: Logger?
    private let running = Mutex<RunningDaemon?>(nil)

    /// Creates a stopped server; nothing listens until ``start()``.
    package init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, logger: Logger? = nil) {
        self.configuration = configuration
        self.handler = handler
        self.logger = logger
    }

    deinit {
        stop()
    }

    /// Starts listening and serving.
    ///
    /// Throws `invalid_configuration` naming the bad setting, or `http_server_error`
    /// naming the address when it cannot listen there (e.g. the port is taken) or the
    /// server is already running.
    package func start() throws {
        try configuration.validate()
        let host = IPAddress(configuration.host)!  // validate() checked it
        let address = host.isIPv6 ? "[\(host)]:\(configuration.port)" : "\(host):\(configuration.port)"
        let port = try running.withLock { running in
            guard running == nil else {
                throw LatchkeyError(.httpServer, "The HTTP server is already running.")
            }
            let exchange = Unmanaged.passRetained(
                RequestExchange(
                    handler: handler,
                    maxBodyBytes: configuration.maxBodyBytes,
                    clientIPResolver: ClientIPResolver(trustedProxies: configuration.trustedProxies),
                    strictTransportSecurity: configuration.tls != nil, logger: logger))
            // Copies the daemon reads at start; kept until stop, the key wiped then.
            let tlsStrings = configuration.tls.map { tls in
                TLSStrings(
                    certificate: strdup(tls.certificateChainPEM), key: strdup(tls.privateKeyPEM.exposed),
                    priorities: strdup(TLSCredentials.priorities))
            }
            // poll() rather than select() so descriptors above FD_SETSIZE work; ITC for
            // MHD_quiesce_daemon. No MHD_USE_ERROR_LOG: the library never writes to stderr.
            // SIGPIPE needs no handling: libmicrohttpd suppresses it in its own threads.
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
                | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
            if host.isIPv6 {
                flags |= host.isUnspecified ? MHD_USE_DUAL_STACK.rawValue : MHD_USE_IPv6.rawValue
            }
            let daemon = Self.withSocketAddress(of: host, port: configuration.port) { socketAddress in
                latchkey_mhd_start_daemon(
                    flags, socketAddress,
                    RequestExchange.accessHandler, RequestExchange.requestStarted, RequestExchange.requestCompleted,
                    exchange.toOpaque(),
                    UInt32(configuration.connectionLimit),
                    // Behind a proxy every connection comes from the proxy's address.
                    UInt32(configuration.trustedProxies.isEmpty ? configuration.perIPConnectionLimit : 0),
                    UInt32(configuration.connectionTimeout), configuration.connectionMemoryLimit,
                    tlsStrings?.certificate, tlsStrings?.key, tlsStrings?.priorities)
            }
            let failure = errno
            guard let daemon else {
                exchange.release()
                tlsStrings?.release()
                if failure == EADDRINUSE {
                    throw LatchkeyError(
                        .httpServer, "Could not listen on \(address): the port is already in use.", detail: String(cString: strerror(failure)))
                }
                if tlsStrings != nil {
                    throw LatchkeyError(
                        .httpServer,
                        "Could not start HTTPS on \(address): the TLS library refused the certificate or key (is the key the certificate's, unencrypted PEM?).")
                }
                throw LatchkeyError(.httpServer, "Could not listen on \(address).", detail: String(cString: strerror(failure)))
            }
            let port = Int(latchkey_mhd_bound_port(daemon))
            running = RunningDaemon(daemon: daemon, exchange: exchange, port: port, tlsStrings: tlsStrings)
            return port
        }
        logger?.info("http_server_started", [
            "host": .string(host.description), "port": .int(port), "tls": .bool(configuration.tls != nil),
        ])
    }

    /// The port the server listens on: the one the system picked when the configured
    /// port is 0. The configured port while the server is not running.
    package var boundPort: Int {
        running.withLock { $0?.port } ?? configuration.port
    }

    /// Stops gracefully: stops accepting connections at once, waits up to
    /// ``HTTPServerConfiguration/shutdownGracePeriod`` seconds for requests already being
    /// handled to be answered, then closes every connection. Returns when all connection
    /// threads have ended. Does nothing when the server is not running.
    package func stop() {
        guard let daemon = running.withLock({ running in
            var taken: RunningDaemon?
            swap(&taken, &running)
            return taken
        }) else { return }
        let exchange = daemon.exchange.takeUnretainedValue()
        exchange.beginDraining()
        let listenSocket = MHD_quiesce_daemon(daemon.daemon)
        if listenSocket >= 0 {
            // Without this the kernel would keep completing handshakes nobody accepts.
            shutdown(listenSocket, Int32(SHUT_RDWR))
        }
        let drained = exchange.waitForInFlightRequests(seconds: configuration.shutdownGracePeriod)
        MHD_stop_daemon(daemon.daemon)
        if listenSocket >= 0 {
            close(listenSocket)
        }
        daemon.exchange.release()
        daemon.tlsStrings?.release()
        logger?.info("http_server_stopped", ["drained": .bool(drained)])
    }

    private static func withSocketAddress<Result>(
        of host: IPAddress, port: Int, _ body: (UnsafePointer<sockaddr>) -> Result
    ) -> Result {
        if host.isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: host.bytes) }
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: host.bytes) }
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}

/// A started daemon and the exchange its callbacks use (retained until the daemon stops).
private struct RunningDaemon {
    let daemon: OpaquePointer
    let exchange: Unmanaged<RequestExchange>
    let port: Int
    let tlsStrings: TLSStrings?
}

/// C copies of the TLS certificate, key and priorities for libmicrohttpd.
private struct TLSStrings {
    let certificate: UnsafeMutablePointer<CChar>?
    let key: UnsafeMutablePointer<CChar>?
    let priorities: UnsafeMutablePointer<CChar>?

    /// Frees the copies, wiping the key first.
    func release() {
        if let key { explicit_bzero(key, strlen(key)) }
        free(certificate)
        free(key)
        free(priorities)
    }
}

/// What one request accumulates between libmicrohttpd's callbacks; owned by the
/// connection (`con_cls`) from the request line until the request completes.
private final class PendingRequest {
    let target: RequestTarget?
    let peer: IPAddress?
    var headersRead = false
    var countedInFlight = false
    var headers = HTTPHeaders()
    var body = Data()
    var rejection: RequestRejection?
    var discardedBytes = 0
    /// The answered response's completion, called when the request ends.
    var onCompletion: (@Sendable () -> Void)?

    init(target: RequestTarget?, peer: IPAddress?) {
        self.target = target
        self.peer = peer
    }
}

/// The state libmicrohttpd's C callbacks reach through their `cls` pointer: the
/// handler, the limits, and the count of requests in flight for a graceful stop.
private final class RequestExchange: Sendable {
    /// How much of an oversized upload is read and thrown away so the client still gets
    /// its 413; past this the connection is closed instead.
    private static let discardAllowance = 1 << 20

    private let handler: any HTTPHandler
    private let maxBodyBytes: Int
    private let clientIPResolver: ClientIPResolver
    private let strictTransportSecurity: Bool
    private let logger: Logger?
    private let inFlight = DispatchGroup()
    private let draining = Atomic<Bool>(false)

    init(
        handler: any HTTPHandler, maxBodyBytes: Int, clientIPResolver: ClientIPResolver, strictTransportSecurity: Bool,
        logger: Logger?
    ) {
        self.handler = handler
        self.maxBodyBytes = maxBodyBytes
        self.clientIPResolver = clientIPResolver
        self.strictTransportSecurity = strictTransportSecurity
        self.logger = logger
    }

    func beginDraining() {
        draining.store(true, ordering: .sequentiallyConsistent)
    }

    /// Waits until no request is being handled or answered; false when time ran out.
    func waitForInFlightRequests(seconds: Int) -> Bool {
        inFlight.wait(timeout: .now() + .seconds(seconds)) == .success
    }

    // MARK: libmicrohttpd callbacks (capture nothing; context comes through `cls`)

    /// Called once per request with the raw request target; the result becomes `con_cls`.
    static let requestStarted: latchkey_mhd_request_started = { _, uri, connection in
        let target = uri.flatMap { RequestTarget(String(cString: $0)) }
        let peer = connection.flatMap(peerAddress)
        return Unmanaged.passRetained(PendingRequest(target: target, peer: peer)).toOpaque()
    }

    /// Called after the request line and headers, for each piece of body, and once the
    /// request is complete; must queue a response by the last call.
    static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, _, method, _, upload, uploadSize, slot in
        guard let cls, let connection, let method, let uploadSize, let pending = slot?.pointee else { return .NO }
        let exchange = Unmanaged<RequestExchange>.fromOpaque(cls).takeUnretainedValue()
        let request = Unmanaged<PendingRequest>.fromOpaque(pending).takeUnretainedValue()
        return exchange.advance(
            request, on: connection, method: String(cString: method),
            upload: uploadSize.pointee > 0 ? UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee) : nil,
            consumed: { uploadSize.pointee = 0 })
    }

    /// Called when a request ends (answered, failed or cut off); frees its state.
    static let requestCompleted: MHD_RequestCompletedCallback = { cls, _, slot, _ in
        guard let cls, let slot, let pending = slot.pointee else { return }
        slot.pointee = nil
        let request = Unmanaged<PendingRequest>.fromOpaque(pending).takeRetainedValue()
        request.onCompletion?()
        if request.countedInFlight {
            Unmanaged<RequestExchange>.fromOpaque(cls).takeUnretainedValue().inFlight.leave()
        }
    }

    // MARK: Request processing

    private func advance(
        _ request: PendingRequest, on connection: OpaquePointer, method: String,
        upload: UnsafeRawBufferPointer?, consumed: () -> Void
    ) -> MHD_Result {
        guard request.headersRead else {
            request.headersRead = true
            request.countedInFlight = true
            inFlight.enter()
            request.headers = Self.headers(of: connection)
            if let length = request.headers["Content-Length"].flatMap(Int.init), length > maxBodyBytes {
                // Answering before the body is read makes libmicrohttpd skip it and close.
                return queue(rejectionResponse(.payloadTooLarge(limit: maxBodyBytes), request, method: method), on: connection)
            }
            if request.target == nil {
                return queue(RequestRejection.malformedQuery.response, on: connection)
            }
            return .YES
        }
        if let upload {
            consumed()
            if request.rejection == nil, request.body.count + upload.count <= maxBodyBytes {
                request.body.append(contentsOf: upload)
                return .YES
            }
            if request.rejection == nil {
                request.rejection = .payloadTooLarge(limit: maxBodyBytes)
                request.body = Data()
            }
            request.discardedBytes += upload.count
            return request.discardedBytes > Self.discardAllowance ? .NO : .YES
        }
        if let rejection = request.rejection {
            return queue(rejectionResponse(rejection, request, method: method), on: connection)
        }
        guard let target = request.target, let peer = request.peer else { return .NO }
        let clientIP = clientIPResolver.clientIP(peer: peer, forwardedFor: request.headers.values("X-Forwarded-For"))
        let response = handler.handle(
            HTTPRequest(
                method: method, path: target.path, query: target.query, headers: request.headers,
                body: request.body, clientIP: clientIP.description))
        request.onCompletion = response.onCompletion
        return queue(sendable(response), on: connection)
    }

    /// The handler's answer to `rejection` for the route the request was for, or the plain
    /// JSON error when the request target could not be parsed.
    private func rejectionResponse(_ rejection: RequestRejection, _ request: PendingRequest, method: String) -> HTTPResponse {
        guard let target = request.target else { return rejection.response }
        return sendable(handler.rejection(rejection.error, method: method, path: target.path, headers: request.headers))
    }

    /// The response itself, or a 500 when its status or a header could not go on the wire.
    private func sendable(_ response: HTTPResponse) -> HTTPResponse {
        guard (100...599).contains(response.status) else {
            logger?.error("http_response_invalid", ["reason": "status", "status": .int(response.status)])
            return RequestRejection.unsendableResponse.response
        }
        for (name, value) in response.headers where !Self.isValidHeader(name: name, value: value) {
            logger?.error("http_response_invalid", ["reason": "header", "header": .string(name)])
            return RequestRejection.unsendableResponse.response
        }
        return response
    }

    private static func isValidHeader(name: String, value: String) -> Bool {
        let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)
        let nameIsToken = !name.isEmpty && name.utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || tokenSymbols.contains($0)
        }
        return nameIsToken && !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let body = response.body
        guard let wire = body.withUnsafeBytes({
            MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }) else { return .NO }
        defer { MHD_destroy_response(wire) }
        // libmicrohttpd computes Content-Length from the body itself.
        for (name, value) in response.headers where name.caseInsensitiveCompare("Content-Length") != .orderedSame {
            guard MHD_add_response_header(wire, name, value) == .YES else {
                // e.g. an empty value or a header the library reserves for itself.
                logger?.error("http_response_invalid", ["reason": "header refused", "header": .string(name)])
                return queue(RequestRejection.unsendableResponse.response, on: connection)
            }
        }
        if strictTransportSecurity {
            _ = MHD_add_response_header(wire, "Strict-Transport-Security", "max-age=31536000")
        }
        if draining.load(ordering: .sequentiallyConsistent) {
            _ = MHD_add_response_header(wire, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(response.status), wire)
    }

    // MARK: Reading from a connection

    private static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        _ = withUnsafeMutablePointer(to: &headers) { collected in
            MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, name, nameSize, value, valueSize in
                guard let cls, let name else { return .YES }
                cls.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(
                    String(decoding: UnsafeRawBufferPointer(start: name, count: nameSize), as: UTF8.self),
                    value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? "")
                return .YES
            }, collected)
        }
        return headers
    }

    private static func peerAddress(of connection: OpaquePointer) -> IPAddress? {
        guard let address = latchkey_mhd_peer_address(connection) else { return nil }
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
