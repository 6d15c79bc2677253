import LatchkeyCore
/// A SQL database the shared store logic (``SQLStore``) runs on: it lends a connection for
/// a read or a transaction, and says which ``SQLDialect`` it speaks.
protocol SQLDatabase: Sendable {
    /// The few ways this database's SQL differs from the others'.
    var dialect: SQLDialect { get }

    /// Runs `body`, which only reads, with each statement committing on its own.
    @discardableResult
    func read<Output: Sendable>(_ body: (borrowing any SQLConnection & ~Copyable) throws -> Output) throws -> Output

    /// Runs `body` in one transaction: committed when it returns, rolled back when it (or
    /// the commit) throws, and the error rethrown. `body` may run more than once (a
    /// database may retry a transaction that conflicted with another), so it must have no
    /// effects outside the database.
    @discardableResult
    func transaction<Output: Sendable>(_ body: (borrowing any SQLConnection & ~Copyable) throws -> Output) throws -> Output

    /// Takes `body` as a deferred write: run in a transaction committed with other writes,
    /// without the caller waiting for that commit. The returned ``DeferredWrite`` settles once
    /// it committed (or failed, with nothing of `body` kept), on the thread that commits it.
    /// `body` may run more than once, as for ``transaction(_:)``. A database without such
    /// batching runs it now, as ``transaction(_:)`` does, and returns it settled
    /// (``committedNow(_:)``).
    func deferredWrite(_ body: @escaping @Sendable (borrowing any SQLConnection & ~Copyable) throws -> Void) -> DeferredWrite
}

extension SQLDatabase {
    func deferredWrite(_ body: @escaping @Sendable (borrowing any SQLConnection & ~Copyable) throws -> Void) -> DeferredWrite {
        committedNow(body)
    }

    /// `body` run now in a transaction (``transaction(_:)``), as a settled deferred write:
    /// committed, or failed with its error (one that is not a ``LatchkeyError`` as `storage_error`).
    func committedNow(_ body: (borrowing any SQLConnection & ~Copyable) throws -> Void) -> DeferredWrite {
        do {
            try transaction(body)
            return DeferredWrite(settled: .success(()))
        } catch {
            return DeferredWrite(settled: .failure(DeferredWrite.failure(error)))
        }
    }
}
