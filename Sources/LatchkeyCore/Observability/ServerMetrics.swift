import Foundation
import Synchronization

/// A monotonically increasing count, safe to bump from any thread.
package final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    init() {}

    /// Adds one.
    package func increment() { value.add(1, ordering: .relaxed) }

    /// The current count.
    package var current: Int { value.load(ordering: .relaxed) }
}

/// What the router counts of one route: its answers by status, and how long they took.
/// Made once per route when the router is built, so counting takes no registry lookup.
package final class RouteMetrics: Sendable {
    /// The route's name, its label.
    package let route: String
    /// How long the route took to answer.
    package let latency = DurationHistogram()
    private let statuses = Mutex<[Int: Int]>([:])

    init(route: String) {
        self.route = route
    }

    /// Counts one answer with `status` that took `seconds`.
    package func record(status: Int, seconds: Double) {
        statuses.withLock { $0[status, default: 0] += 1 }
        latency.observe(seconds: seconds)
    }

    /// The answers counted with `status`.
    package func count(status: Int) -> Int {
        statuses.withLock { $0[status] ?? 0 }
    }

    /// Every status counted, with its count.
    fileprivate var statusCounts: [(status: Int, count: Int)] {
        statuses.withLock { $0 }.map { (status: $0.key, count: $0.value) }.sorted { $0.status < $1.status }
    }
}

/// How a sign-in ended, as `latchkey_sign_ins_total` counts it.
package enum SignInOutcome: String, Sendable, CaseIterable {
    /// The credential was right; a sign-in happened.
    case success
    /// The account exists and the password was wrong.
    case wrongPassword = "wrong_password"
    /// No account has the address (or the text was no address).
    case unknownAccount = "unknown_account"
    /// The password was right, but the account is disabled (or has no password).
    case disabledAccount = "disabled_account"
    /// A limit refused the attempt before the credential was checked.
    case rateLimited = "rate_limited"
    /// A second factor's code was wrong, replayed or spent.
    case wrongCode = "wrong_code"
    /// A passkey's response failed a check (a used challenge, a bad signature, no UV, …).
    case invalidPasskey = "invalid_passkey"
}

/// Receives the outcome of every sign-in, for `/metrics`.
package protocol SignInMetrics: Sendable {
    /// A sign-in with `method` (`password`) ended as `outcome`.
    func signIn(method: String, outcome: SignInOutcome)
}

/// Receives every rate-limit decision, for `/metrics`.
package protocol RateLimitMetrics: Sendable {
    /// A decision on a limit of kind `limit` (a key's prefix, e.g. `login-ip`): `limited` or not.
    func rateLimitDecision(limit: Substring, limited: Bool)
}

/// The server's Prometheus metrics. Counters are bumped by the services and the router;
/// ``render(outboxDepth:process:)`` produces the text exposition format served at `/metrics`.
/// Every metric is documented in docs/operations.md (`e2e/test_metrics.py` checks both ways).
package final class ServerMetrics: Sendable {
    /// Well-formed `POST /auth/password/request` calls.
    package let resetRequests = Counter()
    /// Reset requests answered `server_busy` because the reset inbox was full.
    package let resetRequestsRefused = Counter()
    /// Requests answered 429 by a rate limit.
    package let limitedRequests = Counter()
    /// Rate limit decisions that failed because the shared limiter (Redis) was unreachable,
    /// whether the request was then refused or let through.
    package let rateLimiterUnavailable = Counter()
    /// Mails a transport accepted.
    package let mailsSent = Counter()
    /// Delivery attempts that failed.
    package let mailsFailed = Counter()
    /// Delivery attempts of a mail whose earlier attempt had failed.
    package let mailsRetried = Counter()
    /// Mails given up after their last attempt failed.
    package let mailsGivenUp = Counter()

    /// The version `latchkey_build_info` names.
    private let version: String
    private let routes = Mutex<[String: RouteMetrics]>([:])
    /// Sign-ins by method, then outcome.
    private let signIns = Mutex<[String: [SignInOutcome: Counter]]>([:])
    /// Rate-limit decisions by kind of limit: allowed, limited. A short list searched by the
    /// kind's bytes: hashing the kind cut from a limiter key cost more than the rest of the
    /// decision's counting (measured: docs/performance.md, "Latency histograms per route").
    private let decisions = Mutex<[LimitCounters]>([])

    /// The decisions counted for one kind of limit, found by the kind's UTF-8 bytes.
    private struct LimitCounters: Sendable {
        let kind: String
        let bytes: [UInt8]
        let allowed = Counter()
        let limited = Counter()

        init(kind: String) {
            self.kind = kind
            bytes = Array(kind.utf8)
        }

        /// Whether `other` holds this kind's bytes.
        func holds(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count == other.count, let theirs = other.baseAddress else { return bytes.count == other.count }
            return bytes.withUnsafeBufferPointer { ours in ours.baseAddress.map { memcmp($0, theirs, other.count) == 0 } ?? false }
        }
    }

    /// Creates an empty registry for a server of `version`; the password method's sign-in
    /// outcomes are listed (at 0) from the start.
    package init(version: String) {
        self.version = version
        signIns.withLock { $0["password"] = Self.outcomeCounters() }
    }

    /// The metrics of the route named `route`, made on first use; the router asks once per route.
    package func route(_ route: String) -> RouteMetrics {
        routes.withLock { registry in
            if let existing = registry[route] { return existing }
            let made = RouteMetrics(route: route)
            registry[route] = made
            return made
        }
    }

    /// The number of answered requests for `route` with `status`.
    package func requestCount(route: String, status: Int) -> Int {
        routes.withLock { $0[route] }?.count(status: status) ?? 0
    }

    /// A counter for each sign-in outcome.
    private static func outcomeCounters() -> [SignInOutcome: Counter] {
        Dictionary(uniqueKeysWithValues: SignInOutcome.allCases.map { ($0, Counter()) })
    }

    /// The Prometheus text exposition of every metric: `outboxDepth` and `process` are read
    /// at call time by the caller (nil leaves them out).
    package func render(outboxDepth: Int?, process: ProcessMetrics.Sample?) -> String {
        var text = "# HELP latchkey_build_info The version of the running server; always 1.\n# TYPE latchkey_build_info gauge\n"
        text += "latchkey_build_info{version=\"\(version)\"} 1\n"
        let routeMetrics = routes.withLock { Array($0.values) }.sorted { $0.route < $1.route }
        text += """
            # HELP latchkey_http_requests_total HTTP requests answered, by route and status.
            # TYPE latchkey_http_requests_total counter

            """
        for metrics in routeMetrics {
            for (status, count) in metrics.statusCounts {
                text += "latchkey_http_requests_total{route=\"\(metrics.route)\",status=\"\(status)\"} \(count)\n"
            }
        }
        text += """
            # HELP latchkey_http_request_duration_seconds How long a route took to answer, from when a worker took the request to its answer, by route.
            # TYPE latchkey_http_request_duration_seconds histogram

            """
        for metrics in routeMetrics {
            let (cumulative, count, sum) = metrics.latency.snapshot()
            let label = "route=\"\(metrics.route)\""
            for (bound, value) in zip(DurationHistogram.bounds.map { "\($0)" } + ["+Inf"], cumulative) {
                text += "latchkey_http_request_duration_seconds_bucket{\(label),le=\"\(bound)\"} \(value)\n"
            }
            text += "latchkey_http_request_duration_seconds_sum{\(label)} \(sum)\n"
            text += "latchkey_http_request_duration_seconds_count{\(label)} \(count)\n"
        }
        text += """
            # HELP latchkey_sign_ins_total Sign-in attempts, by method and outcome.
            # TYPE latchkey_sign_ins_total counter

            """
        for (method, counters) in signIns.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            for outcome in SignInOutcome.allCases {
                text += "latchkey_sign_ins_total{method=\"\(method)\",outcome=\"\(outcome.rawValue)\"} \(counters[outcome]?.current ?? 0)\n"
            }
        }
        text += """
            # HELP latchkey_rate_limit_decisions_total Rate-limit decisions, by kind of limit and decision.
            # TYPE latchkey_rate_limit_decisions_total counter

            """
        for counters in decisions.withLock({ $0 }).sorted(by: { $0.kind < $1.kind }) {
            text += "latchkey_rate_limit_decisions_total{limit=\"\(counters.kind)\",decision=\"allowed\"} \(counters.allowed.current)\n"
            text += "latchkey_rate_limit_decisions_total{limit=\"\(counters.kind)\",decision=\"limited\"} \(counters.limited.current)\n"
        }
        let counters: [(String, String, Counter)] = [
            ("latchkey_reset_requests_total", "Well-formed password reset requests.", resetRequests),
            ("latchkey_reset_requests_refused_total", "Reset requests refused because the reset inbox was full.", resetRequestsRefused),
            ("latchkey_rate_limited_requests_total", "Requests refused by a rate limit.", limitedRequests),
            ("latchkey_rate_limiter_unavailable_total", "Rate limit decisions that failed because the shared limiter was unreachable.", rateLimiterUnavailable),
            ("latchkey_mails_sent_total", "Mails accepted by the transport.", mailsSent),
            ("latchkey_mails_failed_total", "Mail delivery attempts that failed.", mailsFailed),
            ("latchkey_mails_retried_total", "Delivery attempts of mails whose earlier attempt had failed.", mailsRetried),
            ("latchkey_mails_given_up_total", "Mails given up after their last attempt failed.", mailsGivenUp),
        ]
        for (name, help, counter) in counters {
            text += "# HELP \(name) \(help)\n# TYPE \(name) counter\n\(name) \(counter.current)\n"
        }
        if let outboxDepth {
            text += "# HELP latchkey_outbox_depth Mails waiting to be sent.\n# TYPE latchkey_outbox_depth gauge\nlatchkey_outbox_depth \(outboxDepth)\n"
        }
        if let process { text += process.exposition }
        return text
    }
}

extension ServerMetrics: MailMetrics {
    package func mailSent() { mailsSent.increment() }

    package func mailFailed(gaveUp: Bool) {
        mailsFailed.increment()
        if gaveUp { mailsGivenUp.increment() }
    }

    package func mailRetried() { mailsRetried.increment() }
}

extension ServerMetrics: SignInMetrics {
    package func signIn(method: String, outcome: SignInOutcome) {
        let counter = signIns.withLock { registry -> Counter? in
            if let existing = registry[method]?[outcome] { return existing }
            let made = Self.outcomeCounters()
            registry[method] = made
            return made[outcome]
        }
        counter?.increment()
    }
}

extension ServerMetrics: RateLimitMetrics {
    package func rateLimitDecision(limit: Substring, limited: Bool) {
        var limit = limit
        let counters = limit.withUTF8 { bytes in
            decisions.withLock { registry in
                if let existing = registry.first(where: { $0.holds(bytes) }) { return existing }
                let made = LimitCounters(kind: String(decoding: bytes, as: UTF8.self))
                registry.append(made)
                return made
            }
        }
        (limited ? counters.limited : counters.allowed).increment()
    }
}
