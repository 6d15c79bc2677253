import Dispatch
import Synchronization

/// A counting semaphore that serves its waiters in arrival order: a permit given back while
/// someone waits goes straight to the longest waiter, so no thread can take it first.
///
/// The connection pools use it. With a plain semaphore a thread that gives a connection
/// back and asks again at once (a background batch running one transaction after another)
/// wins the race against the thread its release woke, which must first be scheduled: on a
/// busy core a request could wait for the whole batch. Here the request is next.
final class FairSemaphore: Sendable {
    /// One waiting caller; woken once, when a permit is handed to it.
    private final class Waiter: Sendable {
        let handedPermit = DispatchSemaphore(value: 0)
    }

    private struct State {
        var available: Int
        /// Oldest first.
        var waiters: [Waiter] = []
    }

    private let state: Mutex<State>

    /// A semaphore with `permits` permits.
    init(permits: Int) {
        precondition(permits >= 0, "a semaphore cannot start with fewer than no permits")
        state = Mutex(State(available: permits))
    }

    /// How many callers wait for a permit now.
    var waiting: Int {
        state.withLock { $0.waiters.count }
    }

    /// Takes a permit, waiting behind earlier callers for at most `timeout`; false when
    /// none came in time (and then none is held).
    func wait(timeout: DispatchTimeInterval) -> Bool {
        let waiter: Waiter? = state.withLock { state in
            if state.available > 0 {
                state.available -= 1
                return nil
            }
            let waiter = Waiter()
            state.waiters.append(waiter)
            return waiter
        }
        guard let waiter else { return true }
        if waiter.handedPermit.wait(timeout: .now() + timeout) == .success { return true }
        let withdrew = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0 === waiter }) else { return false }
            state.waiters.remove(at: index)
            return true
        }
        if withdrew { return false }
        // A permit was handed over as the wait ran out; its wake-up is on its way.
        waiter.handedPermit.wait()
        return true
    }

    /// Gives a permit back: to the longest waiter if there is one.
    func signal() {
        let next: Waiter? = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.handedPermit.signal()
    }
}
