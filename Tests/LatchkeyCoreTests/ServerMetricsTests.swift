import Foundation
import LatchkeyCore
import LatchkeyTestSupport
import Testing

/// The metrics `/metrics` serves: latency histograms, sign-in outcomes, limiter decisions,
/// mail counts, the build and the process.
@Suite struct ServerMetricsTests {
    @Test("a duration falls in the first bucket whose bound it does not exceed; buckets render cumulative")
    func histogramBuckets() {
        let histogram = DurationHistogram()
        for seconds in [0.0001, 0.0005, 0.0007, 0.003, 2, 30, -1] { histogram.observe(seconds: seconds) }
        let (cumulative, count, sum) = histogram.snapshot()
        #expect(cumulative.count == DurationHistogram.bounds.count + 1)
        // le 0.0005: 0.0001, 0.0005 and the negative one; le 0.001: + 0.0007; le 0.005: + 0.003.
        #expect(Array(cumulative.prefix(4)) == [3, 4, 4, 5])
        #expect(cumulative[DurationHistogram.bounds.firstIndex(of: 2.5)!] == 6)
        #expect(cumulative.last == 7 && count == 7)
        #expect(abs(sum - 32.0043) < 1e-9)
    }

    @Test("the exposition has the build, every route's histogram and counts, sign-ins, decisions and mail")
    func exposition() throws {
        let metrics = ServerMetrics(version: "9.8.7")
        let route = metrics.route("healthz")
        #expect(metrics.route("healthz") === route)
        route.record(status: 200, seconds: 0.0002)
        route.record(status: 200, seconds: 0.02)
        route.record(status: 503, seconds: 1.5)
        metrics.signIn(method: "password", outcome: .wrongPassword)
        let limiter = MeteredRateLimiter(limiter: LocalRateLimiter(), metrics: metrics)
        let once = RateLimitPolicy(windows: [.init(limit: 1, seconds: 60)])
        for _ in 0..<3 { _ = try limiter.consume("login-ip:192.0.2.1", policy: once, now: Date(timeIntervalSince1970: 0)) }
        _ = try limiter.check("login-ip:192.0.2.1", policy: once, now: Date(timeIntervalSince1970: 0))
        metrics.mailFailed(gaveUp: true)
        metrics.mailRetried()
        let sample = ProcessMetrics.Sample(
            residentMemoryBytes: 4096, openFileDescriptors: 7, maximumFileDescriptors: 1024, startTimeSeconds: 1.5e9, cpuSeconds: 0.25)
        let lines = Set(metrics.render(outboxDepth: 2, process: sample).split(separator: "\n").map(String.init))
        for expected in [
            #"latchkey_build_info{version="9.8.7"} 1"#,
            #"latchkey_http_requests_total{route="healthz",status="200"} 2"#,
            #"latchkey_http_requests_total{route="healthz",status="503"} 1"#,
            #"latchkey_http_request_duration_seconds_bucket{route="healthz",le="0.0005"} 1"#,
            #"latchkey_http_request_duration_seconds_bucket{route="healthz",le="0.025"} 2"#,
            #"latchkey_http_request_duration_seconds_bucket{route="healthz",le="+Inf"} 3"#,
            #"latchkey_http_request_duration_seconds_count{route="healthz"} 3"#,
            #"latchkey_sign_ins_total{method="password",outcome="wrong_password"} 1"#,
            #"latchkey_sign_ins_total{method="password",outcome="success"} 0"#,
            #"latchkey_rate_limit_decisions_total{limit="login-ip",decision="allowed"} 1"#,
            #"latchkey_rate_limit_decisions_total{limit="login-ip",decision="limited"} 2"#,
            "latchkey_mails_failed_total 1", "latchkey_mails_given_up_total 1", "latchkey_mails_retried_total 1",
            "latchkey_outbox_depth 2", "process_resident_memory_bytes 4096", "process_open_fds 7", "process_start_time_seconds 1500000000.0",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
        #expect(metrics.requestCount(route: "healthz", status: 200) == 2)
    }

    @Test("the process's own metrics are read from /proc")
    func processSample() throws {
        let sample = try #require(ProcessMetrics.sample())
        #expect(sample.residentMemoryBytes > 1 << 20)
        #expect(sample.openFileDescriptors >= 3 && sample.openFileDescriptors < sample.maximumFileDescriptors)
        let now = Date().timeIntervalSince1970
        #expect(sample.startTimeSeconds > now - 86_400 && sample.startTimeSeconds <= now + 1)
        #expect(sample.cpuSeconds > 0)
        let opened = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/stat"))
        defer { try? opened.close() }
        #expect(try #require(ProcessMetrics.sample()).openFileDescriptors == sample.openFileDescriptors + 1)
    }
}
