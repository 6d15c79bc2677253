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

/// The server's Prometheus metrics. Counters are bumped by the services; `render` produces
/// the text exposition format served at `/metrics`.
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

    private let requests = Mutex<[RequestKey: Int]>([:])

    private struct RequestKey: Hashable {
        let route: String
        let status: Int
    }

    /// Creates an empty registry.
    package init() {}

    /// Counts one answered request by route name (never the raw path) and status.
    package func recordRequest(route: String, status: Int) {
        requests.withLock { $0[RequestKey(route: route, status: status), default: 0] += 1 }
    }

    /// The number of answered requests for `route` with `status`.
    package func requestCount(route: String, status: Int) -> Int {
        requests.withLock { $0[RequestKey(route: route, status: status)] ?? 0 }
    }

    /// The Prometheus text exposition of every metric; `outboxDepth` is read at call time.
    package func render(outboxDepth: Int?) -> String {
        var text = """
        # HELP latchkey_http_requests_total HTTP requests answered, by route and status.
        # TYPE latchkey_http_requests_total counter

        """
        let counts = requests.withLock { $0 }.sorted { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }
        for (key, count) in counts {
            text += "latchkey_http_requests_total{route=\"\(key.route)\",status=\"\(key.status)\"} \(count)\n"
        }
        let counters: [(String, String, Counter)] = [
            ("latchkey_reset_requests_total", "Well-formed password reset requests.", resetRequests),
            ("latchkey_reset_requests_refused_total", "Reset requests refused because the reset inbox was full.", resetRequestsRefused),
            ("latchkey_rate_limited_requests_total", "Requests refused by a rate limit.", limitedRequests),
            ("latchkey_rate_limiter_unavailable_total", "Rate limit decisions that failed because the shared limiter was unreachable.", rateLimiterUnavailable),
            ("latchkey_mails_sent_total", "Mails accepted by the transport.", mailsSent),
            ("latchkey_mails_failed_total", "Mail delivery attempts that failed.", mailsFailed),
        ]
        for (name, help, counter) in counters {
            text += "# HELP \(name) \(help)\n# TYPE \(name) counter\n\(name) \(counter.current)\n"
        }
        if let outboxDepth {
            text += "# HELP latchkey_outbox_depth Mails waiting to be sent.\n# TYPE latchkey_outbox_depth gauge\nlatchkey_outbox_depth \(outboxDepth)\n"
        }
        return text
    }
}

extension ServerMetrics: MailMetrics {
    package func mailSent() { mailsSent.increment() }

    package func mailFailed(gaveUp: Bool) { mailsFailed.increment() }
}
