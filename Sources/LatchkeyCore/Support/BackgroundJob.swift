package import Foundation

/// Work the server does on its own, over and over: deliver mail, process reset requests,
/// reload signing keys, purge what expired. Every job has this one shape and runs under a
/// ``JobRunner``; tests call ``run(isStopping:)`` directly with a manual clock.
package protocol BackgroundJob: Sendable {
    /// A stable name: the thread's name and the prefix of the runner's log events
    /// (`<name>_started`, `<name>_stopped`).
    var name: String { get }
    /// How long the runner rests between two runs.
    var schedule: JobSchedule { get }
    /// Does one round of work. Returns within about a second, and sooner once `isStopping`
    /// is true (checked between units of work). Failures are logged, never thrown.
    func run(isStopping: () -> Bool)
}

/// When a job runs again: `interval` seconds after the previous run ended, plus a random
/// extra of up to `jitter` seconds, so instances started together do not run in lockstep.
package struct JobSchedule: Sendable, Equatable {
    /// The rest between runs, in seconds.
    package let interval: TimeInterval
    /// The most extra rest, in seconds, drawn anew for every rest.
    package let jitter: TimeInterval
    /// Whether the job's thread runs at the lowest scheduling priority, so it yields the CPU
    /// to request handling.
    package let background: Bool

    /// Creates a schedule.
    package init(interval: TimeInterval, jitter: TimeInterval = 0, background: Bool = false) {
        self.interval = interval
        self.jitter = jitter
        self.background = background
    }

    /// The next rest: `interval` plus a uniform random share of `jitter`.
    package func nextRest() -> TimeInterval {
        jitter > 0 ? interval + Double.random(in: 0...jitter) : interval
    }
}
