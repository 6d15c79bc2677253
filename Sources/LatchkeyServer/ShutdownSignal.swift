import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A signal asking the process to shut down, so `latchkey serve` can stop gracefully
/// (``HTTPServer/stop()``) instead of being killed mid-request.
package enum ShutdownSignal: Sendable, CaseIterable {
    /// SIGTERM, what service managers and `docker stop` send.
    case terminate
    /// SIGINT, Ctrl-C in a terminal.
    case interrupt

    /// The signal's conventional name, e.g. `SIGTERM`, for logs.
    package var name: String {
        switch self {
        case .terminate: "SIGTERM"
        case .interrupt: "SIGINT"
        }
    }

    private var number: Int32 {
        switch self {
        case .terminate: SIGTERM
        case .interrupt: SIGINT
        }
    }

    /// Blocks the calling thread until the process receives SIGTERM or SIGINT and
    /// returns which one arrived.
    ///
    /// From the call on, neither signal terminates the process any more (also not a
    /// second time), so the caller must shut down once this returns.
    package static func wait() -> ShutdownSignal {
        let arrival = Arrival()
        let queue = DispatchQueue(label: "latchkey.shutdown-signal")
        let sources = allCases.map { shutdownSignal in
            // Dispatch observes the signal; ignoring it stops the default action (exit).
            signal(shutdownSignal.number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: shutdownSignal.number, queue: queue)
            source.setEventHandler { arrival.record(shutdownSignal) }
            source.resume()
            return source
        }
        let first = arrival.wait()
        sources.forEach { $0.cancel() }
        return first
    }

    /// The first signal to arrive, handed from the dispatch queue to the waiting thread.
    private final class Arrival: Sendable {
        private let first = Mutex<ShutdownSignal?>(nil)
        private let arrived = DispatchSemaphore(value: 0)

        func record(_ signal: ShutdownSignal) {
            let isFirst = first.withLock { first in
                defer { first = first ?? signal }
                return first == nil
            }
            if isFirst { arrived.signal() }
        }

        func wait() -> ShutdownSignal {
            arrived.wait()
            // record(_:) stores the signal before it signals the semaphore.
            return first.withLock { $0 }!
        }
    }
}
