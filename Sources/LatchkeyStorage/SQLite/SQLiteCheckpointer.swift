import LatchkeyCore
import Synchronization

/// Copies the WAL back into the database file on a connection and a thread of its own, so a
/// write transaction does not wait for a checkpoint.
///
/// SQLite's automatic checkpoint runs on the connection that committed, right after a commit
/// that leaves 1 000 frames (pages) in the WAL: it copies them into the database file and
/// syncs both files while every other write of this process waits for the writer. Under a
/// stream of writes (refresh-token rotation, reset requests) that left the core idle a quarter
/// of the time, waiting for the disk. Here the writer only reports each commit's WAL size
/// (``committed(walFrames:)``): from ``requestFrames`` on, this checkpointer's thread is woken
/// (requests coalesce while one is pending) and runs a PASSIVE checkpoint beside the writes.
/// WAL readers and writers do not wait for it, and it waits for nobody.
///
/// A checkpoint beside a stream of writes rarely catches up with the last frame, and only a
/// WAL that was copied whole starts again from its beginning. So the writer still checkpoints
/// itself from ``writerFrames`` on: then nothing of this process writes meanwhile, it catches
/// up, and the next write restarts the WAL. This bounds the WAL file at about
/// ``writerFrames`` frames (16 MiB with the default and SQLite's 4 KiB pages) whether or not
/// this thread keeps up, and leaves the writer one sync per ``writerFrames`` frames instead
/// of one per 1 000.
///
/// The thread starts with the first request (a short-lived command never starts one), also
/// runs once a minute, and ends with ``stop()``.
final class SQLiteCheckpointer: Sendable {
    /// The default ``requestFrames``: where SQLite's automatic checkpoint would run.
    static let defaultRequestFrames = 1000
    /// The default ``writerFrames``.
    static let defaultWriterFrames = 4000

    /// The WAL size, in frames, from which a commit wakes this checkpointer.
    let requestFrames: Int
    /// The WAL size, in frames, from which the writer checkpoints itself after a commit.
    let writerFrames: Int
    private let worker: WorkerThread
    private let shared: Shared

    /// What the thread and the writers share: whether a request is pending, the thread's
    /// connection, and what the checkpoints have done so far.
    private final class Shared: Sendable {
        let pending = Atomic<Bool>(false)
        let connection = Mutex<SQLiteConnection?>(nil)
        let background = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let byWriter = Atomic<Int>(0)
    }

    /// A checkpointer for the database file at `path` (opened when the thread first runs, with
    /// `busyTimeoutMilliseconds`), woken from `requestFrames` frames in the WAL, leaving the
    /// writer to checkpoint itself from `writerFrames` on.
    init(
        path: String, busyTimeoutMilliseconds: Int32, requestFrames: Int = defaultRequestFrames,
        writerFrames: Int = defaultWriterFrames
    ) {
        self.requestFrames = requestFrames
        self.writerFrames = writerFrames
        let shared = Shared()
        worker = WorkerThread(name: "latchkey-sqlite-checkpoint", schedule: JobSchedule(interval: 60)) { _ in
            shared.pending.store(false, ordering: .sequentiallyConsistent)
            do {
                let checkpointing = try shared.connection.withLock { open in
                    if let open { return open }
                    let opened = try SQLiteConnection(path: path, role: .checkpointer, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                    open = opened
                    return opened
                }
                // Nil: another connection (another process's writer) is checkpointing; the next request comes soon.
                guard let frames = try checkpointing.checkpoint(), frames > 0 else { return }
                shared.background.add(1, ordering: .relaxed)
            } catch {
                // The writer's own checkpoint still bounds the WAL; the connection is opened again next time.
                shared.failures.add(1, ordering: .relaxed)
                shared.connection.withLock { $0 = nil }
            }
        }
        self.shared = shared
    }

    /// Called by the writer after each commit with the frames now in the WAL: wakes this
    /// checkpointer from ``requestFrames`` on; true from ``writerFrames`` on, when the writer
    /// is to checkpoint itself now. Returns at once.
    func committed(walFrames: Int) -> Bool {
        if walFrames >= writerFrames { return true }
        if walFrames >= requestFrames, !shared.pending.exchange(true, ordering: .sequentiallyConsistent) {
            // A thread that was not running yet runs its first checkpoint as it starts.
            if !worker.start() { worker.wake() }
        }
        return false
    }

    /// Counts a checkpoint the writer ran itself.
    func writerCheckpointed() {
        shared.byWriter.add(1, ordering: .relaxed)
    }

    /// Ends the thread, waiting for a checkpoint it is running.
    func stop() {
        worker.stop()
    }

    /// How many checkpoints this thread has run on a WAL that held frames.
    var backgroundCheckpoints: Int { shared.background.load(ordering: .relaxed) }

    /// How many checkpoints the writer has run itself (at ``writerFrames``).
    var writerCheckpoints: Int { shared.byWriter.load(ordering: .relaxed) }

    /// How many of this thread's checkpoints failed (an I/O error).
    var failedCheckpoints: Int { shared.failures.load(ordering: .relaxed) }
}
