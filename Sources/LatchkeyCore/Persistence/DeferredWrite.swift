import Dispatch
import Synchronization

/// A deferred write: one a store has taken to commit together with others after the call
/// that handed it over returned, so the calling thread need not wait for the commit (see
/// `SQLiteDatabase.deferredWrite`). It settles exactly once: committed (success), or failed
/// with a ``LatchkeyError`` — then nothing of it is kept.
///
/// What waits on it (``whenSettled(_:)``) runs then, on the thread that settled it — the
/// store's committer, which settles a whole batch of writes one after another — in the order
/// it was registered. So it must return at once and do no work of its caller's layer there:
/// count, signal, or hand the outcome to a thread of its own (the HTTP server queues the
/// answer that waits for the write to a request worker).
package final class DeferredWrite: Sendable {
    /// How a write ended.
    package typealias Outcome = Result<Void, LatchkeyError>

    private enum State {
        case waiting([@Sendable (Outcome) -> Void])
        case settled(Outcome)
    }

    private let state = Mutex(State.waiting([]))

    /// A write not settled yet; its store calls ``settle(_:)`` once.
    package init() {}

    /// A write that has already ended as `outcome`: what a store returns when it ran the write
    /// before returning.
    package init(settled outcome: Outcome) {
        state.withLock { $0 = .settled(outcome) }
    }

    /// Runs `body` with the outcome once the write has settled: at once, on this thread, when
    /// it has; otherwise on the thread that settles it, where it must return at once (see the
    /// type's description).
    package func whenSettled(_ body: @escaping @Sendable (Outcome) -> Void) {
        let settled = state.withLock { state -> Outcome? in
            switch state {
            case .waiting(var waiting):
                waiting.append(body)
                state = .waiting(waiting)
                return nil
            case .settled(let outcome):
                return outcome
            }
        }
        if let settled { body(settled) }
    }

    /// Blocks the calling thread until the write has settled; returns how it ended.
    package func wait() -> Outcome {
        let signal = DispatchSemaphore(value: 0)
        whenSettled { _ in signal.signal() }
        signal.wait()
        guard let outcome else { preconditionFailure("a settled write has its outcome") }
        return outcome
    }

    /// Whether the write has settled, and how; nil while it has not.
    package var outcome: Outcome? {
        state.withLock { state in
            guard case .settled(let outcome) = state else { return nil }
            return outcome
        }
    }

    /// `error` as a write's failure: itself when it is a ``LatchkeyError``, otherwise
    /// `storage_error` with the error's type (never its text) in the detail.
    package static func failure(_ error: any Error) -> LatchkeyError {
        error as? LatchkeyError
            ?? LatchkeyError(.storage, "The request could not be stored.", detail: "\(type(of: error)) while writing")
    }

    /// Ends the write as `outcome` and runs what waits on it, on this thread. Store only;
    /// a write settles once (a second call traps).
    package func settle(_ outcome: Outcome) {
        let waiting = state.withLock { state -> [@Sendable (Outcome) -> Void] in
            guard case .waiting(let waiting) = state else { preconditionFailure("a write settles once") }
            state = .settled(outcome)
            return waiting
        }
        for body in waiting { body(outcome) }
    }
}
