/// How long a person is asked to wait before trying again, as a message says it: one of a
/// few round steps (``steps``), never shorter than the server asked for, so whoever waits
/// as long as they were told gets in. The same idea as the server's pages, which round
/// `Retry-After` up to minutes and hours; the SDK adds seconds for short waits (a busy
/// server's `503`).
struct RetryWait: Hashable, Sendable {
    /// The unit a wait is said in.
    enum Unit: Hashable, Sendable {
        case seconds, minutes, hours
    }

    /// How many ``unit``s.
    let count: Int
    /// The unit of ``count``.
    let unit: Unit

    /// Every wait that is ever said, shortest first; the longest is the longest
    /// `Retry-After` kept (``RetryAfterField/maximumSeconds``).
    static let steps: [RetryWait] =
        [5, 10, 15, 20, 30, 45].map { RetryWait(count: $0, unit: .seconds) }
        + [1, 2, 3, 4, 5, 10, 15, 20, 30, 45].map { RetryWait(count: $0, unit: .minutes) }
        + [1, 2, 3, 6, 12, 24].map { RetryWait(count: $0, unit: .hours) }

    /// The shortest step that lasts at least `duration` (the longest step for anything
    /// longer); nil for no wait at all (zero or less), which a message does not mention.
    init?(atLeast duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || (seconds == 0 && attoseconds > 0) else { return nil }
        let wholeSeconds = seconds + (attoseconds > 0 ? 1 : 0)
        self = Self.steps.first { Int64($0.seconds) >= wholeSeconds } ?? Self.steps[Self.steps.count - 1]
    }

    /// `count` `unit`s; the steps are made of these.
    init(count: Int, unit: Unit) {
        self.count = count
        self.unit = unit
    }

    /// The wait in seconds.
    var seconds: Int {
        switch unit {
        case .seconds: count
        case .minutes: count * 60
        case .hours: count * 3600
        }
    }
}
