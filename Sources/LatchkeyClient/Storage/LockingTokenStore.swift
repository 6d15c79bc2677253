/// A ``TokenStore`` whose users can take turns across processes (for instance two
/// command-line tools, or an app and its extension sharing one store).
///
/// ``AuthSession`` holds the lock from reading the tokens to saving the refreshed ones,
/// so two processes never present the same refresh token — which a server with
/// refresh-token reuse detection (like Latchkey) would punish by ending the login.
public protocol LockingTokenStore: TokenStore {
    /// Runs `body` while holding an exclusive lock shared by every process using this
    /// store; waits up to `timeout` seconds for it. The lock is released when `body`
    /// returns or throws (and by the system if the process dies).
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked` (reason `lock_timeout`) when
    ///   the lock was not free in time, `token_store_failed` when it cannot be taken, or
    ///   what `body` throws.
    func withExclusiveLock<Result: Sendable>(
        timeout: Double, _ body: @Sendable () async throws -> Result
    ) async throws -> Result
}
