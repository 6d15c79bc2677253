/// Where a session's tokens live between launches. Implementations are safe to call from
/// any thread; each call is complete on return (a `save` is never half visible).
public protocol TokenStore: Sendable {
    /// The stored tokens, or nil when none are stored.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_corrupted` when stored data cannot
    ///   be read back, `token_store_failed` when the medium fails.
    func load() throws -> StoredTokens?

    /// Replaces whatever is stored with `tokens`.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`.
    func save(_ tokens: StoredTokens) throws

    /// Removes the stored tokens; succeeds when none are stored.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`.
    func clear() throws
}
