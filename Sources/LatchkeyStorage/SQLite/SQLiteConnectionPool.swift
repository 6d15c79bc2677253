import LatchkeyCore
import Dispatch
import Synchronization

/// A bounded set of ``SQLiteConnection``s of one role, each lent to one caller at a time.
///
/// At most ``limit`` connections exist at once. A caller that finds them all in use waits,
/// behind earlier callers (see ``FairSemaphore``), up to ``waitMilliseconds`` and then fails
/// with `storage_unavailable` ("The database is busy.") instead of hanging. Connections are opened on demand and kept for reuse; one returned
/// inside a transaction is rolled back, and dropped (closed) when even that fails, so the
/// next caller never inherits someone else's transaction.
final class SQLiteConnectionPool: Sendable {
    /// The most connections open at once.
    let limit: Int
    /// How long a caller waits for a free connection.
    let waitMilliseconds: Int
    private let role: SQLiteConnection.Role
    private let open: @Sendable () throws -> SQLiteConnection
    private let slots: FairSemaphore
    private let idle: Mutex<[SQLiteConnection]>
    private let openCount: Atomic<Int>

    /// A pool of at most `limit` connections of `role`, opened by `open` when needed, that
    /// starts with the already open `initial` connections (at most `limit` of them).
    init(
        role: SQLiteConnection.Role, limit: Int, waitMilliseconds: Int, initial: [SQLiteConnection] = [],
        open: @escaping @Sendable () throws -> SQLiteConnection
    ) {
        precondition(limit > 0 && initial.count <= limit, "a pool holds at least one and at most limit connections")
        self.role = role
        self.limit = limit
        self.waitMilliseconds = waitMilliseconds
        self.open = open
        slots = FairSemaphore(permits: limit)
        idle = Mutex(initial)
        openCount = Atomic(initial.count)
    }

    /// How many connections are open now, lent or idle; never more than ``limit``.
    var openConnections: Int {
        openCount.load(ordering: .relaxed)
    }

    /// Runs `body` with a connection of its own, waiting up to ``waitMilliseconds`` for one.
    func withConnection<Output>(_ body: (SQLiteConnection) throws -> Output) throws -> Output {
        guard slots.wait(timeout: .milliseconds(waitMilliseconds)) else {
            throw LatchkeyError.storageUnavailable(
                "The database is busy.",
                detail: "all \(limit) \(role) connections stayed in use for \(waitMilliseconds) ms")
        }
        defer { slots.signal() }
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// An idle connection, or a new one; the caller holds a slot, so at most ``limit`` exist.
    private func checkOut() throws -> SQLiteConnection {
        if let connection = idle.withLock({ $0.popLast() }) { return connection }
        let connection = try open()
        openCount.add(1, ordering: .relaxed)
        return connection
    }

    /// Keeps `connection` for reuse outside any transaction, or drops (closes) it.
    private func checkIn(_ connection: SQLiteConnection) {
        if connection.isInsideTransaction {
            _ = try? connection.executeScript("ROLLBACK")
            guard !connection.isInsideTransaction else {
                openCount.subtract(1, ordering: .relaxed)
                return
            }
        }
        idle.withLock { $0.append(connection) }
    }
}
