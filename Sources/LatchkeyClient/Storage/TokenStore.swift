/// Where a session's tokens live between launches. Implementations are safe to call from
/// any thread; each call is complete on return (a `save` is never half visible), and none
/// ever shows UI.
public protocol TokenStore: Sendable {
    /// The stored tokens, or nil when none are stored. Never writes.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_corrupted` when stored data cannot
    ///   be read back, `token_store_failed` when the medium fails; a store that keeps
    ///   tokens behind Face ID (``AuthenticatingTokenStore``) `user_authentication_required`
    ///   until the person passed it.
    func load() throws -> StoredTokens?

    /// Replaces whatever is stored with `tokens`.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`.
    func save(_ tokens: StoredTokens) throws

    /// Removes the stored tokens; succeeds when none are stored. Never needs the person.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`.
    func clear() throws

    /// What can end the stored login on the server, read without the person: the tokens
    /// when ``load()`` can read them, else what the store keeps for sign-out (a
    /// ``StoredTokens/revocationToken`` beside tokens behind Face ID); nil when nothing.
    /// ``AuthSession/signOut()`` revokes with it. The default is ``load()``.
    ///
    /// - Throws: what ``load()`` throws.
    func tokensForSignOut() throws -> StoredTokens?
}

extension TokenStore {
    /// The stored tokens (see ``TokenStore/tokensForSignOut()``).
    public func tokensForSignOut() throws -> StoredTokens? {
        try load()
    }
}

/// A ``TokenStore`` whose tokens may be behind Face ID, Touch ID or the passcode
/// (``KeychainTokenStore`` with ``KeychainOptions/userPresence``). Its calls never show UI:
/// ``authenticate()`` is the one place the person is asked, asynchronously, and after it
/// succeeds ``TokenStore/load()`` reads without asking until ``requireAuthentication()``.
public protocol AuthenticatingTokenStore: TokenStore {
    /// Asks the person (the system's Face ID or passcode sheet) for the stored item and
    /// keeps the result for later reads; returns at once when the item needs no one.
    ///
    /// - Throws: ``LatchkeyClientError`` `user_authentication_failed` (cancelled, failed,
    ///   locked out), `session_expired` (`biometry_changed`: the item can never be read
    ///   again), `token_store_locked`, `invalid_configuration` (`missing_authentication_prompt`).
    func authenticate() async throws

    /// Forgets the person's authentication, so the next read needs ``authenticate()`` again
    /// (for instance when the app goes to the background).
    func requireAuthentication()

    /// Whether the stored login could be ended later without the person: nothing is
    /// stored, the tokens need no one, or a spent refresh token is kept beside them
    /// (``StoredTokens/revocationToken``). Never shows UI.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked`, `token_store_failed`.
    func canSignOutWithoutUser() throws -> Bool
}

/// An ``AuthenticatingTokenStore`` whose stored item carries a protection that can be read
/// without UI and changed on request (``KeychainTokenStore``): the "Require Face ID" setting.
public protocol ProtectionChangingTokenStore: AuthenticatingTokenStore {
    /// The stored item's protection; nil when nothing is stored. Never shows UI.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked`, `token_store_failed`.
    func storedProtection() throws -> KeychainProtection?

    /// Gives the stored item the store's protection, holding the store's lock for up to
    /// `lockTimeout` seconds; asks the person first when the stored item needs it. A weaker
    /// protection needs `allowingWeaker`.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` (`weaker_protection`),
    ///   `token_store_failed` (`passcode_not_set`, `biometry_not_enrolled`), and what
    ///   ``AuthenticatingTokenStore/authenticate()`` throws.
    func changeProtection(allowingWeaker: Bool, lockTimeout: Double) async throws
}
