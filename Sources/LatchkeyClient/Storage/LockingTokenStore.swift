/// A ``TokenStore`` whose users can take turns across processes (for instance two
/// command-line tools, or an app and its extension sharing one store).
///
/// ``AuthSession`` holds the lock from reading the tokens to saving the refreshed ones,
/// so two processes never present the same refresh token — which a server with
/// refresh-token reuse detection (like Latchkey) would punish by ending the login.
public protocol LockingTokenStore: TokenStore {
    /// Takes an exclusive lock shared by every process using this store, waiting up to
    /// `timeout` seconds for it. The lock is held until ``TokenStoreLock/release()`` (or
    /// until the process dies).
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked` (reason `lock_timeout`) when
    ///   the lock was not free in time, `token_store_failed` when it cannot be taken,
    ///   `CancellationError` when the task is cancelled while waiting.
    func acquireExclusiveLock(timeout: Double) async throws -> any TokenStoreLock
}

/// A held ``LockingTokenStore`` lock.
public protocol TokenStoreLock: AnyObject, Sendable {
    /// Releases the lock. Safe to call from any thread, more than once: later calls do nothing.
    func release()
}

extension LockingTokenStore {
    /// Runs `body` holding the store's exclusive lock (see ``acquireExclusiveLock(timeout:)``)
    /// and releases it when `body` returns or throws.
    ///
    /// - Throws: what ``acquireExclusiveLock(timeout:)`` or `body` throws.
    public func withExclusiveLock<Result: Sendable>(
        timeout: Double, _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        let lock = try await acquireExclusiveLock(timeout: timeout)
        defer { lock.release() }
        return try await body()
    }
}
