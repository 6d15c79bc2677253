package import LatchkeyCore
import CMicroHTTPD
import Foundation
import LatchkeyCrypto
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server that reads each request completely (within the configured limits)
/// and answers it with the response of an ``HTTPHandler``.
///
/// Execution model: connections are not threads. One thread accepts connections and admits
/// them within the connection limits (in total — making room by closing the connection
/// silent for longest — and per IPv4 address or IPv6 /64, /56 and /48);
/// libmicrohttpd serves them event-driven (epoll) on as many event threads as the process
/// may use processors, reading requests and writing responses without blocking. A complete
/// request goes to a bounded pool of ``HTTPServerConfiguration/workerThreads`` that run the
/// handler, its connection suspended meanwhile; when ``HTTPServerConfiguration/workerQueueLimit``
/// requests already wait, it is answered `503` with `Retry-After` (held for
/// ``HTTPServerConfiguration/busyAnswerHold`` first, see ``HeldAnswers``). A request that has
/// not arrived whole within ``HTTPServerConfiguration/requestTimeout`` is cut off, however
/// steadily it trickles in; its head must be unambiguous HTTP/1.1 (``RequestFraming``), its
/// body fit the server-wide ``BodyBudget``. The handler is called from several threads at once.
///
/// With ``HTTPServerConfiguration/tls`` set it speaks only HTTPS (libmicrohttpd over
/// GnuTLS, TLS 1.2 and 1.3) and adds `Strict-Transport-Security` to every response it
/// queues, the handler's and its own rejections (413, 503, 400) alike. (The 414 and 431 that
/// libmicrohttpd writes by itself for an oversized head carry no headers of ours.)
///
/// The files of this target that import CMicroHTTPD are the only places that know libmicrohttpd.
package final class HTTPServer: Sendable {
    /// Descriptors kept free beyond one per connection: the store, Redis, logs, the event
    /// threads' epoll and wake-up descriptors.
    private static let reservedDescriptors = 1024

    private let configuration: HTTPServerConfiguration
    private let handler: any HTTPHandler
    private let logger: Logger?
    private let running = Mutex<RunningServer?>(nil)
    /// A socket bound ahead of ``start()``, which takes it (once).
    private let listener: Mutex<HTTPListener?>

    /// Creates a stopped server. Without `listener`, nothing listens until ``start()``, which
    /// binds the configured address; with one (bound to that address), ``start()`` serves the
    /// connections waiting on it.
    package init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, logger: Logger? = nil, listener: HTTPListener? = nil) {
        self.configuration = configuration
        self.handler = handler
        self.logger = logger
        self.listener = Mutex(listener)
    }

    deinit {
        stop()
    }

    /// Starts listening and serving.
    ///
    /// Raises the process's open-file limit to what ``HTTPServerConfiguration/connectionLimit``
    /// needs, as far as the hard limit allows (logging when it cannot). Throws
    /// `invalid_configuration` naming the bad setting, or `http_server_error` naming the
    /// address when it cannot listen there (e.g. the port is taken) or the server is already
    /// running.
    package func start() throws {
        try configuration.validate()
        let host = IPAddress(configuration.host)!  // validate() checked it
        let eventThreads = AvailableProcessors.count
        let port = try running.withLock { running in
            guard running == nil else {
                throw LatchkeyError(.httpServer, "The HTTP server is already running.")
            }
            raiseOpenFileLimit()
            let acceptor = try listener.withLock { $0.take() }?.acceptor
                ?? ConnectionAcceptor(host: host, port: configuration.port, logger: logger)
            let workers = RequestWorkerPool(
                name: "latchkey-http-worker", threads: configuration.workerThreads, queueLimit: configuration.workerQueueLimit)
            // Below request workers, yet never starved: docs/ARCHITECTURE.md, "Password
            // hashing has a lane of its own".
            let hashWorkers = RequestWorkerPool(
                name: "latchkey-hash-worker", threads: configuration.hashThreads, queueLimit: configuration.hashQueueLimit,
                priority: .belowRequests)
            let heldAnswers = HeldAnswers(hold: configuration.busyAnswerHold, limit: configuration.connectionLimit)
            let exchange = RequestExchange(
                handler: handler, maxBodyBytes: configuration.maxBodyBytes,
                bodyBudget: BodyBudget(limit: configuration.effectiveBodyBytesInFlight),
                clientIPResolver: ClientIPResolver(trustedProxies: configuration.trustedProxies),
                strictTransportSecurity: configuration.tls != nil,
                // A proxy carries many clients' connections: only its own address is exempt.
                admission: ConnectionAdmission(
                    limit: configuration.connectionLimit, perNetworkLimit: configuration.perIPConnectionLimit,
                    perSlash56Limit: configuration.perIPv6Slash56ConnectionLimit,
                    perSlash48Limit: configuration.perIPv6Slash48ConnectionLimit,
                    unlimitedPeers: Set(configuration.trustedProxies.compactMap { IPAddress($0) })),
                workers: workers, hashWorkers: hashWorkers, hashWaitLimit: configuration.hashWaitLimit,
                heldAnswers: heldAnswers, logger: logger)
            let retainedExchange = Unmanaged.passRetained(exchange)
            // Copies the daemon reads at start; kept until stop, the key wiped then.
            let tlsStrings = configuration.tls.map { tls in
                TLSStrings(
                    certificate: strdup(tls.certificateChainPEM), key: strdup(tls.privateKeyPEM.exposed),
                    priorities: strdup(TLSCredentials.priorities))
            }
            // epoll on an internal pool of event threads; suspend/resume (with its
            // inter-thread wake-up) for connections waiting for a worker; no listening socket
            // of its own. No MHD_USE_ERROR_LOG: the library never writes to stderr. SIGPIPE
            // needs no handling: libmicrohttpd sends with MSG_NOSIGNAL.
            let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
                | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue
            let daemon = latchkey_mhd_start_daemon(
                flags, UInt32(eventThreads),
                RequestExchange.accessHandler, RequestExchange.requestStarted, RequestExchange.requestCompleted,
                RequestExchange.connectionNotified, retainedExchange.toOpaque(),
                // The admission enforces the limit; any one event thread may hold every connection.
                UInt32(clamping: configuration.connectionLimit * eventThreads),
                UInt32(configuration.connectionTimeout), configuration.connectionMemoryLimit,
                tlsStrings?.certificate, tlsStrings?.key, tlsStrings?.priorities)
            guard let daemon else {
                acceptor.close()
                retainedExchange.release()
                tlsStrings?.release()
                let address = host.isIPv6 ? "[\(host)]:\(acceptor.port)" : "\(host):\(acceptor.port)"
                if tlsStrings != nil {
                    throw LatchkeyError(
                        .httpServer,
                        "Could not start HTTPS on \(address): the TLS library refused the certificate or key (is the key the certificate's, unencrypted PEM?).")
                }
                throw LatchkeyError(.httpServer, "Could not start the HTTP server on \(address).")
            }
            let handle = DaemonHandle(pointer: daemon)
            let deadline = Duration.seconds(configuration.requestTimeout)
            let connectionLimit = configuration.connectionLimit
            let sweep = WorkerThread(
                name: "latchkey-http-deadlines", schedule: JobSchedule(interval: min(0.5, Double(configuration.requestTimeout) / 4))
            ) { _ in
                exchange.sweep(deadline: deadline, connectionLimit: connectionLimit)
            }
            workers.start()
            hashWorkers.start()
            heldAnswers.start()
            sweep.start()
            acceptor.start { descriptor, address, length in
                exchange.admit(descriptor, address: address, length: length, into: handle)
            }
            running = RunningServer(
                daemon: handle, exchange: retainedExchange, acceptor: acceptor, workers: workers, hashWorkers: hashWorkers,
                heldAnswers: heldAnswers, sweep: sweep,
                tlsStrings: tlsStrings)
            return acceptor.port
        }
        logger?.info("http_server_started", [
            "host": .string(host.description), "port": .int(port), "tls": .bool(configuration.tls != nil),
            "event_threads": .int(eventThreads), "worker_threads": .int(configuration.workerThreads),
        ])
    }

    /// The port the server listens on: the one the system picked when the configured
    /// port is 0. While the server is not running, its listener's port, else the configured one.
    package var boundPort: Int {
        running.withLock { $0?.acceptor.port } ?? listener.withLock { $0?.port } ?? configuration.port
    }

    /// Stops gracefully: refuses new connections at once, waits up to
    /// ``HTTPServerConfiguration/shutdownGracePeriod`` seconds for requests already begun —
    /// those waiting for a worker included — to be answered, then closes every connection:
    /// those still waiting for a worker at once, the others once every handler call has
    /// returned and every answer awaiting a deferred write has been finished (a deferred write
    /// always settles: its store commits or fails every one it took). Returns then. Does
    /// nothing when the server is not running.
    package func stop() {
        guard let server = running.withLock({ running in
            var taken: RunningServer?
            swap(&taken, &running)
            return taken
        }) else { return }
        let exchange = server.exchange.takeUnretainedValue()
        exchange.beginDraining()
        // Refusals still held are sent now, and those of the drain at once.
        server.heldAnswers.close()
        server.acceptor.close()
        let drained = exchange.waitForInFlightRequests(seconds: configuration.shutdownGracePeriod)
        // libmicrohttpd must not stop with suspended connections: no request may wait for a
        // worker any more, those still waiting are resumed (and closed), and the threads that
        // resume connections have ended: the workers, once the answers awaiting deferred
        // writes are finished (their follow-ups), and the holder of busy answers.
        server.workers.close()
        server.hashWorkers.close()
        exchange.abandonSuspendedRequests()
        server.workers.join()
        server.hashWorkers.join()
        server.heldAnswers.join()
        server.sweep.stop()
        MHD_stop_daemon(server.daemon.pointer)
        server.exchange.release()
        server.tlsStrings?.release()
        logger?.info("http_server_stopped", ["drained": .bool(drained)])
    }

    /// Raises the open-file limit to one descriptor per connection and some to spare; logs
    /// when the hard limit is lower.
    private func raiseOpenFileLimit() {
        let wanted = configuration.connectionLimit + Self.reservedDescriptors
        let limit = OpenFileLimit.raise(to: wanted)
        if limit < wanted {
            logger?.warning("open_file_limit_low", [
                "limit": .int(limit), "wanted": .int(wanted), "connection_limit": .int(configuration.connectionLimit),
            ])
        }
    }
}

/// A started server's parts; the exchange is retained for the daemon's callbacks until it stops.
private struct RunningServer {
    let daemon: DaemonHandle
    let exchange: Unmanaged<RequestExchange>
    let acceptor: ConnectionAcceptor
    let workers: RequestWorkerPool
    let hashWorkers: RequestWorkerPool
    let heldAnswers: HeldAnswers
    let sweep: WorkerThread
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
