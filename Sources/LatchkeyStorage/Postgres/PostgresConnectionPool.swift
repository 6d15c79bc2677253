import LatchkeyCore
import Dispatch
import Foundation
import Synchronization

/// A bounded set of ``PostgresConnection``s shared by every thread of one store.
///
/// At most ``size`` connections exist at once; a caller that finds them all in use waits,
/// behind earlier callers (see ``FairSemaphore``), up to ``acquireTimeout`` and then fails
/// with `storage_unavailable` (a 503) instead of hanging.
/// Connections are opened on demand and kept for reuse; one that broke (the server
/// restarted, its backend was terminated) or was left inside a transaction is dropped and
/// replaced, so the first call after the database comes back simply reconnects.
///
/// ``read(_:)`` and ``transaction(_:)`` also retry on a fresh connection when the one they
/// used turned out to be lost, but only when that is safe: a read always is, a transaction
/// only when it failed before `COMMIT` was sent (the server then certainly rolled it
/// back). A transaction PostgreSQL aborted for a deadlock or serialization conflict is run
/// again too, up to ``attempts`` times in all.
final class PostgresConnectionPool: SQLDatabase {
    /// How often one call runs its body at most.
    static let attempts = 3

    /// The most connections open at once.
    let size: Int
    /// How long a call waits for a free connection.
    let acquireTimeout: TimeInterval
    private let url: PostgresURL
    private let statementTimeout: TimeInterval
    private let connectTimeout: Int
    private let slots: FairSemaphore
    private let idle = Mutex<[PostgresConnection]>([])

    /// A pool of at most `size` connections to `url`, each with `statementTimeout` seconds
    /// per statement and `connectTimeout` seconds to connect; no connection is opened yet.
    init(url: PostgresURL, size: Int, statementTimeout: TimeInterval, connectTimeout: Int, acquireTimeout: TimeInterval) {
        precondition(size > 0, "a connection pool needs at least one connection")
        self.url = url
        self.size = size
        self.statementTimeout = statementTimeout
        self.connectTimeout = connectTimeout
        self.acquireTimeout = acquireTimeout
        slots = FairSemaphore(permits: size)
    }

    var dialect: SQLDialect { .postgres }

    /// Runs `body`, which only reads, on a pooled connection with each statement committing
    /// on its own; runs it again on a new connection if the connection was lost.
    @discardableResult
    func read<Output: Sendable>(_ body: (borrowing any SQLConnection & ~Copyable) throws -> Output) throws -> Output {
        try withSlot {
            try attempt { connection in
                do {
                    return .success(try body(connection))
                } catch {
                    return .failure(error, retry: connection.lastFailure == .connectionLost)
                }
            }
        }
    }

    /// Runs `body` in one transaction (`BEGIN` … `COMMIT`, or `ROLLBACK` when it throws) on a
    /// pooled connection, at PostgreSQL's default READ COMMITTED isolation; runs it again
    /// when the transaction was aborted for a conflict, or the connection was lost before
    /// `COMMIT`. `body` may therefore run more than once and must not have effects outside
    /// the database. A connection lost during `COMMIT` is reported, never retried: whether
    /// the transaction committed is then unknown.
    @discardableResult
    func transaction<Output: Sendable>(_ body: (borrowing any SQLConnection & ~Copyable) throws -> Output) throws -> Output {
        try withSlot {
            try attempt { connection in
                var committing = false
                do {
                    try connection.execute("BEGIN")
                    let output = try body(connection)
                    committing = true
                    try connection.execute("COMMIT")
                    return .success(output)
                } catch {
                    let failure = connection.lastFailure
                    if !committing, failure != .connectionLost {
                        // A failed ROLLBACK leaves the connection inside a transaction: it is then dropped, not reused.
                        _ = try? connection.execute("ROLLBACK")
                    }
                    let retry = failure == .conflict || (failure == .connectionLost && !committing)
                    return .failure(error, retry: retry)
                }
            }
        }
    }

    /// What one run of a body gave: its output, or its error and whether to run it again.
    private enum Outcome<Output> {
        case success(Output)
        case failure(any Error, retry: Bool)
    }

    /// Runs `run` on a connection, returning the connection to the pool afterwards, up to
    /// ``attempts`` times while it asks for a retry.
    private func attempt<Output>(_ run: (PostgresConnection) -> Outcome<Output>) throws -> Output {
        var attempt = 1
        while true {
            let connection = try checkOut()
            let outcome = run(connection)
            checkIn(connection)
            switch outcome {
            case .success(let output):
                return output
            case .failure(let error, let retry):
                guard retry, attempt < Self.attempts else { throw error }
                attempt += 1
            }
        }
    }

    /// Runs `body` holding one of the ``size`` slots, waiting up to ``acquireTimeout`` for one.
    private func withSlot<Output>(_ body: () throws -> Output) throws -> Output {
        guard slots.wait(timeout: .milliseconds(Int(acquireTimeout * 1000))) else {
            throw LatchkeyError.storageUnavailable(
                "The database is busy.",
                detail: "all \(size) connections to \(url) stayed in use for \(acquireTimeout) s")
        }
        defer { slots.signal() }
        return try body()
    }

    /// An idle connection that is still usable, or a new one.
    private func checkOut() throws -> PostgresConnection {
        while let connection = idle.withLock({ $0.popLast() }) {
            if connection.isReusable { return connection }
        }
        return try PostgresConnection(url: url, statementTimeout: statementTimeout, connectTimeout: connectTimeout)
    }

    /// Keeps `connection` for reuse, or drops (closes) it when it is not reusable.
    private func checkIn(_ connection: PostgresConnection) {
        guard connection.isReusable else { return }
        idle.withLock { $0.append(connection) }
    }
}
