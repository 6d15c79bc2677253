import Synchronization

/// A Prometheus histogram of durations, safe to fill from any thread without a lock: one
/// atomic count per bucket, a count and a sum. Observing costs a handful of comparisons and
/// two atomic additions (measured: docs/performance.md, "Latency histograms per route").
package final class DurationHistogram: Sendable {
    /// The buckets' upper bounds in seconds: from a cached answer (under a millisecond) to a
    /// password hash behind a queue (seconds). Prometheus adds `+Inf`.
    package static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// ``bounds`` in nanoseconds, compared with an observation.
    private static let boundsInNanoseconds: [Int] = bounds.map { Int($0 * 1e9) }

    /// The observations in each bucket alone (not cumulative), the last one past every bound.
    private let buckets: [Counter] = (0...bounds.count).map { _ in Counter() }
    private let nanoseconds = Atomic<Int>(0)

    /// Creates an empty histogram.
    package init() {}

    /// Counts one duration of `seconds` (a negative one, from a clock set back, as 0).
    package func observe(seconds: Double) {
        let duration = seconds > 0 ? Int(min(seconds, 1e9) * 1e9) : 0
        var index = 0
        while index < Self.boundsInNanoseconds.count, duration > Self.boundsInNanoseconds[index] { index += 1 }
        buckets[index].increment()
        nanoseconds.add(duration, ordering: .relaxed)
    }

    /// The cumulative counts for ``bounds`` and `+Inf`, the count and the sum in seconds, as
    /// Prometheus renders them.
    package func snapshot() -> (cumulative: [Int], count: Int, sum: Double) {
        var running = 0
        let cumulative = buckets.map { bucket in
            running += bucket.current
            return running
        }
        // The count is the +Inf bucket, as Prometheus requires, even while an observation
        // is half recorded.
        return (cumulative, running, Double(nanoseconds.load(ordering: .relaxed)) / 1e9)
    }
}
