#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A signal asking the process to shut down, so `latchkey serve` can stop gracefully
/// (``HTTPServer/stop()``) instead of being killed mid-request.
///
/// Both signals are held (blocked) from ``hold()`` on, before any thread starts, and taken
/// with `sigwait` by ``wait()``: a signal that arrives while the server is still starting,
/// or between its start and the wait, stays pending until the wait takes it. It is never
/// lost, and never the default action that would kill the process mid-start.
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

    /// Both signals as a set.
    private static var signalSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for shutdownSignal in allCases { sigaddset(&set, shutdownSignal.number) }
        return set
    }

    /// Holds both signals for the calling thread and every thread it starts from now on:
    /// from here they wait, pending, for ``wait()`` instead of terminating the process.
    /// Call it on the main thread before any other thread starts — a thread started earlier
    /// does not hold them, and the kernel may deliver a signal to it (and so kill the
    /// process) instead.
    package static func hold() {
        var set = signalSet
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Blocks the calling thread, which must hold both signals (``hold()``), until one of
    /// them is pending, takes it and returns which one it was: at once when one arrived
    /// before the call. The next one waits, pending, for the next call.
    package static func wait() -> ShutdownSignal {
        var set = signalSet
        var number: Int32 = 0
        let status = sigwait(&set, &number)
        // sigwait fails only for a set holding an invalid signal, and returns one of the set.
        guard status == 0, let arrived = allCases.first(where: { $0.number == number }) else {
            preconditionFailure("sigwait failed for SIGTERM and SIGINT (\(status))")
        }
        return arrived
    }
}
