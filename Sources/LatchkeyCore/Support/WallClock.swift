package import Foundation
import Synchronization

/// The source of the current time for every service. Logic never reads the system
/// clock directly; it asks the clock it was given, so tests can move time.
package protocol WallClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The real clock of the machine.
package struct SystemClock: WallClock {
    /// Creates the system clock.
    package init() {}

    /// The machine's current time.
    package func now() -> Date { Date() }
}
