package import Foundation
import LatchkeyCore
import Synchronization

/// A clock that only moves when told to, so tests check expiry without sleeping.
package final class ManualClock: WallClock {
    private let current: Mutex<Date>

    /// Starts the clock at `start`.
    package init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The instant the clock shows.
    package func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    package func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
