import LatchkeyCore
/// Where the HTTP server listens and the limits it enforces on every connection.
///
/// Every limit exists so that no client can make the server hold unbounded memory,
/// threads or time; the defaults suit a server behind a reverse proxy.
package struct HTTPServerConfiguration: Sendable {
    /// The IPv4 or IPv6 literal to listen on, e.g. `127.0.0.1`, `0.0.0.0`, `::1`.
    /// `::` listens on IPv6 and IPv4 at once. Host names are not accepted.
    package var host: String
    /// The TCP port; 0 lets the system pick a free one (see ``HTTPServer/boundPort``).
    package var port: Int
    /// The largest request body accepted; larger bodies get `413 payload_too_large`.
    package var maxBodyBytes: Int
    /// The request-body bytes held at once across every connection (``BodyBudget``): a body
    /// that would take more is refused `503` with `Retry-After`, its connection closed. nil
    /// (the default) is ``defaultBodyBytesInFlight(connectionLimit:maxBodyBytes:)``.
    package var bodyBytesInFlight: Int?
    /// Seconds a connection may stay idle (no bytes received or sent) before it is closed.
    package var connectionTimeout: Int
    /// Seconds a request may take to arrive whole, head and body (on a new connection
    /// counted from the accept, so the TLS handshake too); a connection whose request is
    /// not in by then is closed, however steadily it trickles in.
    package var requestTimeout: Int
    /// The most connections open at once from one client: an IPv4 address or an IPv6 /64.
    /// More are closed on accept. The ``trustedProxies`` themselves are exempt.
    package var perIPConnectionLimit: Int
    /// The most connections open at once from one IPv6 /56; nil (the default) is 4 ×
    /// ``perIPConnectionLimit``. The ``trustedProxies`` are exempt.
    package var perIPv6Slash56ConnectionLimit: Int?
    /// The most connections open at once from one IPv6 /48; nil (the default) is 16 ×
    /// ``perIPConnectionLimit``. The ``trustedProxies`` are exempt.
    package var perIPv6Slash48ConnectionLimit: Int?
    /// The most connections open at once in total. At the limit, a new connection takes the
    /// place of the one that has sent nothing (no complete request head, or nothing since
    /// its last response) for longest, which is closed; with none such, the new one is
    /// closed on accept. An idle connection costs a socket and its ``connectionMemoryLimit``,
    /// never a thread.
    package var connectionLimit: Int
    /// Bytes each connection may use for the request line and headers (and the response's
    /// head); a request whose target or headers do not fit is refused (414 or 431) by the HTTP
    /// library. The library clears the whole area after each request, so every kept-alive
    /// connection holds this much memory: the default lets heads of about 11 KB through (what
    /// 10 000 idle connections take: docs/performance.md, "Idle connections").
    package var connectionMemoryLimit: Int
    /// Threads that run the handler; a complete request waits for one with its connection
    /// suspended. Defaults to ``defaultWorkerThreads``.
    package var workerThreads: Int
    /// Complete requests that may wait for a worker thread; past this, requests are answered
    /// `503` with `Retry-After` after ``busyAnswerHold``.
    package var workerQueueLimit: Int
    /// Threads that run the password-hashing routes (``RequestLane/passwordHashing``), below
    /// request workers (``ThreadPriority/belowRequests``). Defaults to the processors this
    /// process may use.
    package var hashThreads: Int
    /// Requests that may wait for a hashing thread; past this they are answered `503` after
    /// ``busyAnswerHold``.
    package var hashQueueLimit: Int
    /// How long a request may wait for a hashing thread; one that waited longer is answered
    /// `503` with `Retry-After` instead of being run.
    package var hashWaitLimit: Duration
    /// How long the `503` for a full queue (worker or hashing) is held, its connection
    /// suspended, before it is sent: a client retrying the moment it is refused makes at most
    /// one attempt per hold on each connection (see ``HeldAnswers``).
    package var busyAnswerHold: Duration
    /// IP addresses of reverse proxies whose `X-Forwarded-For` header is believed.
    /// From any other peer the header is ignored.
    package var trustedProxies: [String]
    /// Seconds ``HTTPServer/stop()`` waits for in-flight requests before closing
    /// the connections that remain.
    package var shutdownGracePeriod: Int
    /// When set, the server speaks only HTTPS (TLS 1.2 or 1.3) with these credentials and
    /// sends `Strict-Transport-Security` on every response; nil serves plain HTTP.
    package var tls: TLSCredentials?

    /// The default number of worker threads: 4 per processor this process may use, at least
    /// 16. A handler spends part of its time waiting (for a PostgreSQL or Redis answer, for
    /// SQLite's one writer), and the others' requests run meanwhile; with one per processor
    /// the processor sat idle through those waits. On SQLite, writes that meet at the writer
    /// share one commit, at most one per thread, so more threads make larger batches
    /// (measured: docs/performance.md, "Request workers per processor").
    package static var defaultWorkerThreads: Int { max(16, 4 * AvailableProcessors.count) }

    /// The default ``bodyBytesInFlight``: 1 KiB per connection the server may hold — every
    /// connection could be part-way through a body of 1 KiB, several times what any of
    /// Latchkey's own requests sends — and room for at least four bodies of the largest size.
    package static func defaultBodyBytesInFlight(connectionLimit: Int, maxBodyBytes: Int) -> Int {
        max(connectionLimit * 1024, 4 * maxBodyBytes)
    }

    /// ``bodyBytesInFlight`` or its default.
    var effectiveBodyBytesInFlight: Int {
        bodyBytesInFlight ?? Self.defaultBodyBytesInFlight(connectionLimit: connectionLimit, maxBodyBytes: maxBodyBytes)
    }

    /// Creates a configuration; every limit has a default fit for production.
    package init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        maxBodyBytes: Int = 65_536,
        bodyBytesInFlight: Int? = nil,
        connectionTimeout: Int = 30,
        requestTimeout: Int = 10,
        perIPConnectionLimit: Int = 32,
        perIPv6Slash56ConnectionLimit: Int? = nil,
        perIPv6Slash48ConnectionLimit: Int? = nil,
        connectionLimit: Int = 10_000,
        connectionMemoryLimit: Int = 12_288,
        workerThreads: Int = defaultWorkerThreads,
        workerQueueLimit: Int = 1024,
        hashThreads: Int = AvailableProcessors.count,
        hashQueueLimit: Int = 64,
        hashWaitLimit: Duration = .seconds(3),
        busyAnswerHold: Duration = .milliseconds(250),
        trustedProxies: [String] = [],
        shutdownGracePeriod: Int = 10,
        tls: TLSCredentials? = nil
    ) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.bodyBytesInFlight = bodyBytesInFlight
        self.connectionTimeout = connectionTimeout
        self.requestTimeout = requestTimeout
        self.perIPConnectionLimit = perIPConnectionLimit
        self.perIPv6Slash56ConnectionLimit = perIPv6Slash56ConnectionLimit
        self.perIPv6Slash48ConnectionLimit = perIPv6Slash48ConnectionLimit
        self.connectionLimit = connectionLimit
        self.connectionMemoryLimit = connectionMemoryLimit
        self.workerThreads = workerThreads
        self.workerQueueLimit = workerQueueLimit
        self.hashThreads = hashThreads
        self.hashQueueLimit = hashQueueLimit
        self.hashWaitLimit = hashWaitLimit
        self.busyAnswerHold = busyAnswerHold
        self.trustedProxies = trustedProxies
        self.shutdownGracePeriod = shutdownGracePeriod
        self.tls = tls
    }

    /// Checks every value, naming the first bad setting.
    func validate() throws {
        guard IPAddress(host) != nil else {
            throw LatchkeyError(.invalidConfiguration, "HTTP host \"\(host)\" is not an IPv4 or IPv6 address")
        }
        guard (0...65_535).contains(port) else {
            throw LatchkeyError(.invalidConfiguration, "HTTP port \(port) is not between 0 and 65535")
        }
        let positive: [(String, Int)] = [
            ("maxBodyBytes", maxBodyBytes), ("connectionTimeout", connectionTimeout), ("requestTimeout", requestTimeout),
            ("perIPConnectionLimit", perIPConnectionLimit), ("connectionLimit", connectionLimit),
            ("workerThreads", workerThreads), ("workerQueueLimit", workerQueueLimit),
            ("hashThreads", hashThreads), ("hashQueueLimit", hashQueueLimit),
            ("perIPv6Slash56ConnectionLimit", perIPv6Slash56ConnectionLimit ?? 1),
            ("perIPv6Slash48ConnectionLimit", perIPv6Slash48ConnectionLimit ?? 1),
        ]
        for (name, value) in positive where !(1...Int(UInt32.max)).contains(value) {
            throw LatchkeyError(.invalidConfiguration, "HTTP setting \(name) must be positive, not \(value)")
        }
        guard effectiveBodyBytesInFlight >= maxBodyBytes else {
            throw LatchkeyError(
                .invalidConfiguration,
                "HTTP setting bodyBytesInFlight must be at least maxBodyBytes (\(maxBodyBytes)), not \(effectiveBodyBytesInFlight)")
        }
        guard connectionMemoryLimit >= 4096 else {
            throw LatchkeyError(
                .invalidConfiguration, "HTTP setting connectionMemoryLimit must be at least 4096, not \(connectionMemoryLimit)")
        }
        guard busyAnswerHold >= .zero, busyAnswerHold <= .seconds(10) else {
            throw LatchkeyError(
                .invalidConfiguration, "HTTP setting busyAnswerHold must be between 0 and 10 seconds, not \(busyAnswerHold)")
        }
        guard shutdownGracePeriod >= 0 else {
            throw LatchkeyError(
                .invalidConfiguration, "HTTP setting shutdownGracePeriod must not be negative, not \(shutdownGracePeriod)")
        }
        for proxy in trustedProxies where IPAddress(proxy) == nil {
            throw LatchkeyError(.invalidConfiguration, "HTTP trusted proxy \"\(proxy)\" is not an IPv4 or IPv6 address")
        }
    }
}
