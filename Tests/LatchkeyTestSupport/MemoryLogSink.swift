import LatchkeyCore
import Synchronization

/// Keeps every log line in memory, for tests that check what was (not) logged.
package final class MemoryLogSink: LogSink {
    private let stored = Mutex<[String]>([])

    /// Creates an empty sink.
    package init() {}

    /// Keeps `line`.
    package func write(line: String) { stored.withLock { $0.append(line) } }

    /// Every line written so far.
    package var lines: [String] { stored.withLock { $0 } }
}
