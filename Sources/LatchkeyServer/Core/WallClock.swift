public import Foundation
import Synchronization

/// The source of the current time for every service. Logic never reads the system
/// clock directly; it asks the clock it was given, so tests can move time.
public protocol WallClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The real clock of the machine.
public struct SystemClock: WallClock {
    /// Creates the system clock.
    public init() {}

    /// The machine's current time.
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to. For tests and simulations: expiry can be
/// checked without sleeping.
public final class ManualClock: WallClock {
    private let current: Mutex<Date>

    /// Starts the clock at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The instant the clock shows.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
