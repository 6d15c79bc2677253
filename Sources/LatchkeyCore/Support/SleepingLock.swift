import Foundation

/// A value behind a lock whose waiters go to sleep at once, for state that many threads
/// take turns at while they share few cores.
///
/// `Mutex` (Synchronization) spins before it sleeps: on Linux its slow path retries a
/// thousand times with a pause between, on the bet that the owner, running on another core,
/// is about to let go. When the owner was preempted while holding the lock — on a server
/// pinned to one core, the only way the lock can be found taken — it cannot let go until the
/// waiter stops, so every spin is lost: on the rate limiter's shard of the reset routes'
/// per-client key, taken by every request from one address, and by the event thread on a
/// request worker pool's queue whenever a worker was preempted holding it (measured:
/// docs/performance.md, "Locks that sleep"). This lock (glibc's default mutex behind
/// `NSLock`) puts the waiter to sleep on the futex at once, so the owner runs and finishes.
/// Uncontended, the two cost the same: one atomic operation to take, one to give back.
package final class SleepingLock<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    /// `value` behind a new lock.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, exclusively; returns what it returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
