import LatchkeyCore
import Dispatch
import Synchronization

/// Group commit on the one writer connection: write transactions that arrive while another
/// batch holds the writer run next as one batch, each in a savepoint of its own, inside one
/// SQLite transaction that commits once.
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
/// in a batch after `waitMilliseconds` gives up with `storage_error` ("The database is
/// busy."); once in a batch, it waits for that batch.
final class SQLiteGroupCommit: Sendable {
    /// The most transactions one batch runs; more wait for the next.
    static let batchLimit = 64

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
    }

    private let writer: SQLiteConnectionPool
    private let waitMilliseconds: Int
    private let state = Mutex(State())

    /// Groups the transactions run on `writer`, a pool of one connection; a caller waits
    /// at most `waitMilliseconds` for its transaction to be taken into a batch.
    init(writer: SQLiteConnectionPool, waitMilliseconds: Int) {
        precondition(writer.limit == 1, "group commit needs the one writer connection")
        self.writer = writer
        self.waitMilliseconds = waitMilliseconds
    }

    /// How many batches have been run (committed or rolled back) so far.
    var batches: Int {
        state.withLock { $0.batches }
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
                if state.leading { return false }
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
                throw LatchkeyError(
                    .storage, "The database is busy.",
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

    /// Runs `batch` in one transaction on `connection`: each in a savepoint when there are
    /// several; throws (having rolled back) when the batch as a whole failed.
    private static func run(_ batch: [Transaction], on connection: SQLiteConnection) throws {
        _ = try connection.execute("BEGIN IMMEDIATE", [])
        do {
            if batch.count == 1, let body = batch[0].body {
                try body(connection)
            } else {
                for transaction in batch {
                    guard let body = transaction.body else { continue }
                    _ = try connection.execute("SAVEPOINT grouped", [])
                    do {
                        try body(connection)
                    } catch {
                        transaction.failure = error
                        // SQLite ends the whole transaction after some errors (a full disk, an
                        // I/O error); then nothing of the batch is left to commit.
                        guard connection.isInsideTransaction else { throw error }
                        _ = try connection.execute("ROLLBACK TO grouped", [])
                    }
                    _ = try connection.execute("RELEASE grouped", [])
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
}
