import Dispatch
import Foundation
import LatchkeyCore
import Synchronization

/// The deferred writes, whose callers do not wait for their commit
/// (``SQLiteDatabase/deferredWrite(_:)``): queued, run by a committer thread of their own in
/// batches — each batch one transaction of the group commit (``SQLiteGroupCommit``) — and
/// settled once that transaction committed. Settling is all the committer does for a write's
/// caller: what waits on the write only hands the outcome to a thread of its own
/// (``DeferredWrite``), so the next batch does not wait for the callers' work.
///
/// A batch runs in one savepoint. When a write throws, the batch is rolled back to it and run
/// again with each write in a savepoint of its own, so the one that threw is undone alone and
/// settles with its error while the others commit; a write may thus run twice, its first run
/// undone. A savepoint for every write, each copying the pages it changed into SQLite's
/// statement journal, slowed the reset request down (measured: docs/performance.md,
/// "Deferred writes: one savepoint a batch").
///
/// Callers of ``SQLiteDatabase/transaction(_:)`` each wait for their batch's commit: a
/// futex sleep and wake-up and two thread switches a write, and a worker thread held
/// meanwhile. A write handed over here costs its caller a queue append; one thread commits
/// while the others go on with their requests (measured: docs/performance.md, "Deferred
/// writes: a committer thread"). The committer runs in the normal scheduling class, never
/// lowered, so a write queued by a background thread does not hold up the requests' writes
/// behind it (a background job that leads a group-commit batch itself runs the others'
/// transactions at its own priority).
///
/// Bounded: with ``queueLimit`` writes queued, ``submit(_:)`` takes no more (the caller runs
/// its write itself and waits for it, which slows the writers down until the queue drains).
/// The thread starts with the first write and ends with ``close()``, after the last.
final class SQLiteDeferredWrites: Sendable {
    /// The most writes one batch runs.
    static let batchLimit = 256
    /// The most writes that wait for a batch.
    let queueLimit: Int

    private struct Queued: Sendable {
        let body: @Sendable (SQLiteConnection) throws -> Void
        let write: DeferredWrite
    }

    private struct State {
        var queue: [Queued] = []
        var started = false
        var closed = false
        var batches = 0
    }

    private let groupCommit: SQLiteGroupCommit
    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// The committer thread's `pthread_self()`, once it runs (0 before).
    private let committer = Atomic<UInt>(0)

    /// Deferred writes committed through `groupCommit`, at most `queueLimit` waiting.
    init(groupCommit: SQLiteGroupCommit, queueLimit: Int = 1024) {
        precondition(queueLimit > 0, "deferred writes need room for at least one")
        self.groupCommit = groupCommit
        self.queueLimit = queueLimit
    }

    /// How many batches of deferred writes have run (committed or failed) so far.
    var batches: Int {
        state.withLock { $0.batches }
    }

    /// Queues `body` for the committer and returns its write; nil, with nothing queued, when
    /// ``queueLimit`` writes wait already or the queue is closed.
    func submit(_ body: @escaping @Sendable (SQLiteConnection) throws -> Void) -> DeferredWrite? {
        let write = DeferredWrite()
        let accepted = state.withLock { state -> (starts: Bool, wakes: Bool)? in
            guard !state.closed, state.queue.count < queueLimit else { return nil }
            state.queue.append(Queued(body: body, write: write))
            defer { state.started = true }
            // The committer sleeps only with the queue empty: only the first write wakes it.
            return (!state.started, state.queue.count == 1)
        }
        guard let accepted else { return nil }
        if accepted.starts { startCommitter() }
        if accepted.wakes { wakeUp.signal() }
        return write
    }

    /// Takes no more writes, waits until the committer has run those queued, and ends it.
    /// Does not wait when called on the committer itself (from a settled write's callback).
    func close() {
        let started = state.withLock { state -> Bool in
            state.closed = true
            return state.started
        }
        guard started else { return }
        wakeUp.signal()
        if committer.load(ordering: .acquiring) != Self.currentThread { finished.wait() }
    }

    /// The calling thread's identity (`pthread_self()`) as a number.
    private static var currentThread: UInt {
        #if canImport(Glibc)
        pthread_self()
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    private func startCommitter() {
        let thread = Thread { [self] in
            committer.store(Self.currentThread, ordering: .releasing)
            while true {
                wakeUp.wait()
                while true {
                    let (batch, closed) = state.withLock { state in
                        let batch = Array(state.queue.prefix(Self.batchLimit))
                        state.queue.removeFirst(batch.count)
                        return (batch, state.closed)
                    }
                    guard !batch.isEmpty else {
                        if closed {
                            finished.signal()
                            return
                        }
                        break
                    }
                    run(batch)
                }
            }
        }
        thread.name = "sqlite-commit"
        thread.start()
    }

    /// Runs `batch` in one transaction of the group commit (see the type's description), then
    /// settles each write: committed, its own error (only its changes undone), or the batch's
    /// error (nothing kept).
    private func run(_ batch: [Queued]) {
        var outcomes = [DeferredWrite.Outcome](repeating: .success(()), count: batch.count)
        do {
            try groupCommit.run { connection in
                // All in one savepoint first; only when one throws, all again, each in its own.
                _ = try connection.execute("SAVEPOINT deferred", [])
                do {
                    for queued in batch { try queued.body(connection) }
                } catch {
                    guard connection.isInsideTransaction else { throw error }
                    _ = try connection.execute("ROLLBACK TO deferred", [])
                    let failures = try SQLiteGroupCommit.runEach(batch.map(\.body), on: connection)
                    for (index, failure) in failures.enumerated() {
                        if let failure { outcomes[index] = .failure(DeferredWrite.failure(failure)) }
                    }
                }
                _ = try connection.execute("RELEASE deferred", [])
            }
        } catch {
            outcomes = Array(repeating: .failure(DeferredWrite.failure(error)), count: batch.count)
        }
        state.withLock { $0.batches += 1 }
        for (queued, outcome) in zip(batch, outcomes) {
            queued.write.settle(outcome)
        }
    }
}
