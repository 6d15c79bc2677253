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

    /// Takes `body` to run in a transaction committed with other writes, without the caller
    /// waiting for that commit: the returned write settles once it committed (or failed, with
    /// nothing of `body` kept). `body` may run more than once, as for ``transaction(_:)``. A
    /// database without such batching runs it now, as ``transaction(_:)`` does, and returns it
    /// settled (``committedNow(_:)``).
    func transactionCommittedLater(_ body: @escaping @Sendable (borrowing any SQLConnection & ~Copyable) throws -> Void) -> PendingWrite
}

extension SQLDatabase {
    func transactionCommittedLater(_ body: @escaping @Sendable (borrowing any SQLConnection & ~Copyable) throws -> Void) -> PendingWrite {
        committedNow(body)
    }

    /// `body` run now in a transaction (``transaction(_:)``), as a settled write: committed,
    /// or failed with its error (one that is not a ``LatchkeyError`` as `storage_error`).
    func committedNow(_ body: (borrowing any SQLConnection & ~Copyable) throws -> Void) -> PendingWrite {
        do {
            try transaction(body)
            return PendingWrite(settled: .success(()))
        } catch {
            return PendingWrite(settled: .failure(PendingWrite.failure(error)))
        }
    }
}
