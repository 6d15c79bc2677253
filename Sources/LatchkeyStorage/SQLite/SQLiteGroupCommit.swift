import LatchkeyCore
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Group commit on the one writer connection: write transactions that arrive while another
/// batch holds the writer run next as one batch, one after another inside one SQLite
/// transaction that commits once. When one of them throws, the SQLite transaction is rolled
/// back and the batch runs again with each in a savepoint of its own, so the one that threw
/// is undone alone: a transaction may thus run twice, its first run undone (as the
/// ``SQLDatabase`` contract allows). A savepoint for every transaction, each copying the
/// pages it changed into SQLite's statement journal, slowed the refresh grant down
/// (measured: docs/performance.md, "Group commit: no savepoint per transaction").
///
/// A commit costs more than a small transaction's statements (the WAL frames of every page
/// it changed, a checkpoint now and then), and the writes of concurrent callers share pages
/// (a table's last leaf, the inner pages of its indexes), so under load one commit for many
/// callers does the work of many commits. And a queue that forms is drained in one go,
/// where handing the writer to one waiter at a time kept the queue (and a context switch
/// per transaction) going once it had formed. The outcome is that of running the transactions
/// one after another, in arrival order:
/// - each sees what the ones before it in its batch wrote, as it would after their commits;
/// - one that throws is rolled back to its savepoint, alone, and gets its error; the others
///   in its batch still commit;
/// - a caller gets its result only after the commit that made it durable; when the commit
///   (or an error after which SQLite ended the transaction itself) fails, every caller of
///   the batch gets that error and nothing of the batch is kept.
///
/// The first caller to find no batch running leads: it takes what has queued, at most
/// ``batchLimit`` transactions, runs them with the writer connection and wakes their
/// callers; if more queued meanwhile, it hands the lead to the longest waiting one, whose
/// transaction is then first in the next batch. Every caller thus leads at most one batch,
/// and waits behind at most those queued before it. A caller whose transaction is not yet
/// in a batch after `waitMilliseconds` gives up with `storage_unavailable` ("The database
/// is busy.", a 503); once in a batch, it waits for that batch.
///
/// A leader alone in the queue while writers meet (one had to queue behind a batch within
/// the last 5 ms) first waits 200 µs for the others to queue (``Gathering/standard``), as
/// PostgreSQL's `commit_delay` does: on one busy core a thread otherwise runs its transaction
/// to its commit before another thread gets there, batches stay single, and every request
/// pays a whole commit (the WAL frames of every page it changed, written and checksummed;
/// the write lock taken and given back; a checkpoint every 1 000 frames). A writer that met
/// no other for 5 ms, such as a command or a background job running one transaction after
/// another on a quiet server, never waits.
final class SQLiteGroupCommit: Sendable {
    /// The most transactions one batch runs; more wait for the next.
    static let batchLimit = 64
    /// When and how long a leader alone in the queue waits for others to join its batch.
    struct Gathering: Sendable {
        /// How long the leader waits, in microseconds.
        var window: UInt32
        /// How long after a transaction last had to queue behind a batch writers count as meeting.
        var contentionMemory: Duration

        /// 200 µs within 5 ms of writers meeting.
        static let standard = Gathering(window: 200, contentionMemory: .milliseconds(5))
    }

    /// One caller's transaction. Its fields are written by the thread that runs it (the
    /// leader of its batch) before that thread signals `settled`, and read by the caller
    /// only after that signal, which orders the two; `promoted` and `taken` only under
    /// the group's lock.
    private final class Transaction: @unchecked Sendable {
        /// The caller's work; dropped once run, or when the caller gives up, so the caller
        /// can confirm that it did not escape.
        var body: ((SQLiteConnection) throws -> Void)?
        var failure: (any Error)?
        /// Whether a leader has taken it into a batch (the caller can no longer withdraw).
        var taken = false
        /// Whether the lead was handed to its caller instead of a result.
        var promoted = false
        let settled = DispatchSemaphore(value: 0)

        init(_ body: @escaping (SQLiteConnection) throws -> Void) {
            self.body = body
        }
    }

    private struct State {
        /// Oldest first.
        var queue: [Transaction] = []
        var leading = false
        var batches = 0
        /// How many batches began with their leader waiting for others.
        var gathered = 0
        /// When a transaction last found a batch running and queued behind it.
        var lastContention: ContinuousClock.Instant?
    }

    private let writer: SQLiteConnectionPool
    private let waitMilliseconds: Int
    private let gathering: Gathering
    private let state = Mutex(State())

    /// Groups the transactions run on `writer`, a pool of one connection; a caller waits
    /// at most `waitMilliseconds` for its transaction to be taken into a batch, and a leader
    /// alone while writers meet waits for others as `gathering` says.
    init(writer: SQLiteConnectionPool, waitMilliseconds: Int, gathering: Gathering = .standard) {
        precondition(writer.limit == 1, "group commit needs the one writer connection")
        self.writer = writer
        self.waitMilliseconds = waitMilliseconds
        self.gathering = gathering
    }

    /// How many batches have been run (committed or rolled back) so far.
    var batches: Int {
        state.withLock { $0.batches }
    }

    /// How many batches began with their leader waiting for others (see the type's description).
    var gatheredBatches: Int {
        state.withLock { $0.gathered }
    }

    /// How many transactions wait for a batch now.
    var queued: Int {
        state.withLock { $0.queue.count }
    }

    /// Runs `body` inside a write transaction shared with the callers that queued beside
    /// it; returns once that transaction has committed, or throws `body`'s error (only its
    /// own changes undone) or the batch's.
    func run(_ body: (SQLiteConnection) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            let transaction = Transaction(body)
            defer { transaction.body = nil }
            let leads = state.withLock { state in
                state.queue.append(transaction)
                if state.leading {
                    state.lastContention = .now
                    return false
                }
                state.leading = true
                return true
            }
            if try leads || waitForTurn(of: transaction) {
                lead(as: transaction)
            }
            if let failure = transaction.failure { throw failure }
        }
    }

    /// Waits until `transaction` ran in someone else's batch (false) or its caller is to
    /// lead the next batch (true); throws when it was not taken in time.
    private func waitForTurn(of transaction: Transaction) throws -> Bool {
        if transaction.settled.wait(timeout: .now() + .milliseconds(waitMilliseconds)) == .timedOut {
            let withdrew = state.withLock { state in
                guard !transaction.taken, !transaction.promoted,
                    let index = state.queue.firstIndex(where: { $0 === transaction })
                else { return false }
                state.queue.remove(at: index)
                return true
            }
            if withdrew {
                throw LatchkeyError.storageUnavailable(
                    "The database is busy.",
                    detail: "a write transaction waited \(waitMilliseconds) ms for the writer connection")
            }
            // Taken or promoted as the wait ran out: the signal is on its way.
            transaction.settled.wait()
        }
        return state.withLock { _ in transaction.promoted }
    }

    /// Runs one batch from the head of the queue (where `leader`, the caller's own
    /// transaction, is), wakes the other callers in it, and hands the lead on.
    private func lead(as leader: Transaction) {
        let gathers = state.withLock { state in
            guard state.queue.count == 1, let last = state.lastContention, last.duration(to: .now) < gathering.contentionMemory
            else { return false }
            state.gathered += 1
            return true
        }
        if gathers { usleep(gathering.window) }
        let batch = state.withLock { state in
            let batch = Array(state.queue.prefix(Self.batchLimit))
            state.queue.removeFirst(batch.count)
            for transaction in batch { transaction.taken = true }
            return batch
        }
        do {
            try writer.withConnection { connection in try Self.run(batch, on: connection) }
        } catch {
            for transaction in batch { transaction.failure = error }
        }
        for transaction in batch { transaction.body = nil }
        let next = state.withLock { state -> Transaction? in
            state.batches += 1
            guard let next = state.queue.first else {
                state.leading = false
                return nil
            }
            next.promoted = true
            return next
        }
        for transaction in batch where transaction !== leader { transaction.settled.signal() }
        next?.settled.signal()
    }

    /// Runs `batch` in one transaction on `connection`, and again with each in a savepoint
    /// when one of several threw; throws (having rolled back) when the batch as a whole failed.
    private static func run(_ batch: [Transaction], on connection: SQLiteConnection) throws {
        _ = try connection.execute("BEGIN IMMEDIATE", [])
        do {
            do {
                for transaction in batch { try transaction.body?(connection) }
            } catch where batch.count > 1 && connection.isInsideTransaction {
                // One of several threw: all again from the start, each in a savepoint of its own.
                _ = try connection.execute("ROLLBACK", [])
                _ = try connection.execute("BEGIN IMMEDIATE", [])
                let failures = try runEach(batch.map { $0.body ?? { _ in } }, on: connection)
                for (transaction, failure) in zip(batch, failures) {
                    transaction.failure = failure
                }
            }
            _ = try connection.execute("COMMIT", [])
        } catch {
            // A second ROLLBACK after SQLite's own would only fail with "no transaction is active".
            if connection.isInsideTransaction {
                _ = try? connection.execute("ROLLBACK", [])
            }
            throw error
        }
    }

    /// Runs each of `bodies` on `connection`, inside a transaction, in a savepoint of its own:
    /// one that throws is rolled back to its savepoint, alone, and its error is returned in its
    /// place (nil for those that ran). Throws, leaving the rest unrun, when SQLite ended the
    /// whole transaction after an error (a full disk, an I/O error): then nothing is left to commit.
    static func runEach(_ bodies: [(SQLiteConnection) throws -> Void], on connection: SQLiteConnection) throws -> [(any Error)?] {
        var failures: [(any Error)?] = []
        failures.reserveCapacity(bodies.count)
        for body in bodies {
            _ = try connection.execute("SAVEPOINT grouped", [])
            do {
                try body(connection)
                failures.append(nil)
            } catch {
                failures.append(error)
                guard connection.isInsideTransaction else { throw error }
                _ = try connection.execute("ROLLBACK TO grouped", [])
            }
            _ = try connection.execute("RELEASE grouped", [])
        }
        return failures
    }
}
