public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A signed-in session: hands out a valid access token, renews it before it expires,
/// and signs requests with it.
///
/// Promises:
/// - ``validAccessToken()`` refreshes only when the access token is within
///   `refreshLeeway` of its expiry; however many callers ask at once, one refresh
///   request is made and all of them get its result.
/// - A caller that is cancelled while a refresh runs never loses the tokens: the refresh
///   runs in its own task, which no caller's cancellation stops.
/// - A rotation is never dropped on the floor: once the server has answered a refresh,
///   the new tokens are the session's, even when the store cannot take them right now
///   (the Keychain locks about ten seconds after the screen does; the background time
///   ran out). They are then kept in memory, used, and saved on the session's next call
///   (or ``saveUnsavedTokens()``) — unless the store was changed meanwhile (a sign-out or
///   sign-in elsewhere), which wins.
/// - With a ``LockingTokenStore`` (``FileTokenStore``; ``KeychainTokenStore`` with a lock
///   file in the app group), the store's lock is held from reading the tokens to saving
///   the refreshed ones, and the tokens are read again once the lock is held, so two
///   processes sharing the store (an app and its extension) never present the same
///   refresh token: the second one finds the first one's fresh tokens.
/// - With a ``BackgroundActivity`` (``ApplicationBackgroundTask`` on iOS), every
///   operation that holds the store's lock runs inside it; if the background time runs
///   out first, the lock is released at once (iOS ends an app suspended while it holds a
///   lock on a file in a shared container) and the outcome is kept in memory as above;
///   a refresh request not yet sent then is not sent at all (`token_store_locked`,
///   reason `background_time_expired`), since another process may be presenting the
///   same refresh token.
/// - When the server rejects the refresh token, the tokens are removed and
///   ``AuthSessionEvent/signedOut(_:)`` (`.sessionEnded`) is sent; a transient failure
///   (network, 5xx, rate limit) keeps them, and while the old access token has not yet
///   expired it is still returned.
/// - A sign-out or a new sign-in while a refresh request runs is never undone by it:
///   the refresh saves only if the store still holds the tokens it started from.
/// - ``signOut()`` works whatever state the store is in; ``completePasswordReset(_:token:newPassword:email:)``
///   never reports a failure once the server has accepted the new password.
public actor AuthSession {
    /// Renewed tokens the store has not taken yet, and the stored tokens they replace.
    private struct UnsavedTokens {
        let tokens: StoredTokens
        let replacing: StoredTokens
    }

    private let store: any TokenStore
    private let refresher: SessionRefresher
    private let refreshLeeway: TimeInterval
    private let lockTimeout: TimeInterval
    private let urlSession: URLSession
    private let http: ClientHTTP
    private let backgroundActivity: (any BackgroundActivity)?
    private let now: @Sendable () -> Date
    private var refreshTask: Task<StoredTokens, any Error>?
    private var unsaved: UnsavedTokens?
    /// An access token the server no longer takes although it has not expired (a password
    /// change moved the credential version): never handed out again.
    private var outdatedAccessToken: ClientSecret?
    private var subscribers: [UUID: AsyncStream<AuthSessionEvent>.Continuation] = [:]

    /// A session over the tokens in `store`, renewed by `refresher`.
    ///
    /// - Parameters:
    ///   - refreshLeeway: renew when the access token expires within this many seconds.
    ///   - lockTimeout: how long to wait for a ``LockingTokenStore``'s lock.
    ///   - urlSession: the session ``data(for:)`` sends requests with.
    ///   - backgroundActivity: what keeps the process running while the store's lock is
    ///     held; on iOS pass ``ApplicationBackgroundTask`` (not in app extensions).
    ///   - now: the clock deciding whether a token is about to expire.
    public init(
        store: any TokenStore, refresher: SessionRefresher, refreshLeeway: TimeInterval = 60, lockTimeout: TimeInterval = 30,
        urlSession: URLSession = .shared, backgroundActivity: (any BackgroundActivity)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.refresher = refresher
        self.refreshLeeway = refreshLeeway
        self.lockTimeout = lockTimeout
        self.urlSession = urlSession
        self.http = ClientHTTP(session: urlSession, now: now)
        self.backgroundActivity = backgroundActivity
        self.now = now
    }

    deinit {
        for subscriber in subscribers.values { subscriber.finish() }
    }

    /// A new subscription to the session's events. Any number of subscribers may follow
    /// the session; each gets every event from ``AuthSessionEvent/current(_:)`` — the
    /// state at the moment of subscribing — on (the newest 64 when it falls behind). The
    /// stream ends when the session is released; stopping iteration unsubscribes.
    public func events() -> AsyncStream<AuthSessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: AuthSessionEvent.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        continuation.yield(.current(state()))
        subscribers[id] = continuation
        return stream
    }

    /// Whether the session holds tokens, as far as the store can tell now.
    public func state() -> AuthSessionState {
        do {
            guard let tokens = try currentTokens() else { return .signedOut }
            return .signedIn(subject: tokens.subject)
        } catch let error as LatchkeyClientError {
            return .unavailable(error)
        } catch {
            return .unavailable(LatchkeyClientError(.tokenStoreFailed))
        }
    }

    /// Stores the tokens of a completed sign-in and sends ``AuthSessionEvent/signedIn``.
    /// A login the store held before (one that can no longer be read, say, after Face ID
    /// changed) is revoked on the server in the background, best effort.
    ///
    /// When the store keeps the tokens behind Face ID and could not end this login without
    /// it (``AuthenticatingTokenStore/canSignOutWithoutUser()``), the first refresh token is
    /// spent at once — one refresh, holding the store's lock — so that a spent one is kept
    /// where a sign-out needs no Face ID. Offline, that waits for the first refresh.
    ///
    /// - Throws: the store's error.
    public func signIn(_ tokens: StoredTokens) async throws {
        let replaced = try? store.tokensForSignOut()
        try store.save(tokens)
        unsaved = nil
        emit(.signedIn)
        if let replaced, replaced.refreshToken != nil, replaced.refreshToken != tokens.refreshToken {
            Task { [refresher] in try? await refresher.revoke(replaced) }
        }
        if refreshTask == nil, let authenticating = store as? any AuthenticatingTokenStore, let refreshToken = tokens.refreshToken,
            (try? authenticating.canSignOutWithoutUser()) == false
        {
            // As the session's refresh, so that a caller meanwhile joins it instead of
            // presenting the same refresh token.
            let task = Task { try await self.spend(refreshToken, of: tokens) }
            refreshTask = task
            defer { refreshTask = nil }
            _ = try? await task.value
        }
    }

    /// Refreshes `tokens` just stored, holding the store's lock, and saves the result (in
    /// memory when the store cannot take it); the refresh token spent is kept as the new
    /// tokens' ``StoredTokens/revocationToken``.
    private func spend(_ refreshToken: ClientSecret, of tokens: StoredTokens) async throws -> StoredTokens {
        try await withStoreLock(activity: "Latchkey token refresh") { hold in
            guard hold.mayWrite else { throw LatchkeyClientError(.tokenStoreLocked, reasons: ["background_time_expired"]) }
            let renewed = try await refresher.refresh(tokens, with: refreshToken)
            if hold.mayWrite, (try? store.save(renewed)) != nil {
                unsaved = nil
            } else {
                unsaved = UnsavedTokens(tokens: renewed, replacing: tokens)
            }
            emit(.refreshed)
            return renewed
        }
    }

    /// Asks the person for the stored tokens when the store keeps them behind Face ID,
    /// Touch ID or the passcode (an ``AuthenticatingTokenStore`` whose ``TokenStore/load()``
    /// throws `user_authentication_required`): the system's sheet is shown while this call
    /// waits, and the session serves every other call meanwhile. Nothing else in the SDK
    /// ever asks; call this from a button, never on every scene activation (the sheet
    /// itself deactivates and reactivates the scene). Returns at once for other stores.
    ///
    /// - Throws: what ``AuthenticatingTokenStore/authenticate()`` throws:
    ///   `user_authentication_failed` when the person cancels or fails.
    public nonisolated func authenticate() async throws {
        try await (store as? any AuthenticatingTokenStore)?.authenticate()
    }

    /// Whether tokens are held (they may still be rejected by the server).
    public func isSignedIn() throws -> Bool {
        try currentTokens() != nil
    }

    /// Whether renewed tokens are waiting in memory for the store (see the type).
    public var hasUnsavedTokens: Bool { unsaved != nil }

    /// An access token that is not about to expire, refreshing first if needed (also when
    /// the held one was outdated by a password change, ``AccountClient/changePassword(to:currentPassword:code:email:)``).
    ///
    /// - Throws: `session_expired` when not signed in (reason `not_signed_in`) or when the
    ///   server ended the session (the tokens are then removed); a transient error when
    ///   the token expired (or was outdated) and could not be renewed right now; a token
    ///   store error.
    public func validAccessToken() async throws -> ClientSecret {
        await saveUnsavedTokens()
        guard let tokens = try currentTokens() else { throw Self.notSignedIn }
        let outdated = tokens.accessToken == outdatedAccessToken
        if isFresh(tokens), !outdated { return tokens.accessToken }
        do {
            return try await refreshed(rejecting: outdated ? tokens.accessToken : nil).accessToken
        } catch let error as LatchkeyClientError where error.kind == .retryable && tokens.expiresAt > now() && !outdated {
            return tokens.accessToken
        }
    }

    /// A new access token after the server refused `token` (an API answered 401). If
    /// the held token is already another one (someone refreshed meanwhile), that one
    /// is returned without a request.
    public func accessToken(replacing token: ClientSecret) async throws -> ClientSecret {
        await saveUnsavedTokens()
        return try await refreshed(rejecting: token).accessToken
    }

    /// Tries again to save renewed tokens the store could not take (see the type). Every
    /// call that hands out a token does this first; call it too when the device's
    /// protected data becomes available again. Does nothing while a refresh runs (it
    /// saves its own outcome) or when nothing waits.
    public func saveUnsavedTokens() async {
        guard unsaved != nil, refreshTask == nil else { return }
        _ = try? await withStoreLock(activity: "Latchkey token save") { hold in storeUnsaved(hold) }
    }

    /// Signs out: waits for a running refresh, removes the tokens (also when the store
    /// holds something unreadable, and without Face ID), revokes the login on the server
    /// (best effort: an unreachable server does not keep the person signed in) with what
    /// ``TokenStore/tokensForSignOut()`` gives — the tokens, or the spent refresh token a
    /// Face ID store keeps for this — and sends ``AuthSessionEvent/signedOut(_:)`` `.userRequested`.
    ///
    /// - Throws: the store's error when the tokens cannot be removed (they are then kept
    ///   and nothing is revoked), or `token_store_locked` (`lock_timeout`).
    public func signOut() async throws {
        _ = await refreshTask?.result
        let held = try await withStoreLock(activity: "Latchkey sign-out") { _ in try removeTokens() }
        if let held { try? await refresher.revoke(held) }
        emit(.signedOut(.userRequested))
    }

    /// Sets a new password with `recovery` (see ``PasswordRecovery/resetPassword(token:newPassword:email:)``),
    /// then removes the local tokens — the server has ended every session of the
    /// account — and sends ``AuthSessionEvent/passwordRecovered``.
    ///
    /// - Throws: what `resetPassword` throws, and nothing once the server accepted the
    ///   password: tokens that cannot be removed now are dead on the server, and the next
    ///   refresh removes them.
    public func completePasswordReset(
        _ recovery: PasswordRecovery, token: ClientSecret, newPassword: ClientSecret, email: String? = nil
    ) async throws {
        try await recovery.resetPassword(token: token, newPassword: newPassword, email: email)
        _ = await refreshTask?.result
        unsaved = nil
        _ = try? await withStoreLock(activity: "Latchkey sign-out") { _ in try store.clear() }
        emit(.passwordRecovered)
    }

    /// Sends `request` with `Authorization: Bearer <access token>`. If the server answers
    /// 401, the token is refreshed once; an idempotent request (GET, HEAD, PUT, DELETE,
    /// OPTIONS) is then sent again with the new token, any other gets the 401 reply (the
    /// next attempt will carry the new token).
    ///
    /// - Throws: `session_expired` when the session is over, `network_unavailable` and
    ///   the other transport errors, `CancellationError`.
    public nonisolated func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let token = try await validAccessToken()
        let first = try await send(request, token: token)
        guard first.1.statusCode == 401 else { return first }
        let renewed = try await accessToken(replacing: token)
        guard Self.isIdempotent(request.httpMethod ?? "GET") else { return first }
        return try await send(request, token: renewed)
    }

    /// Sends `request` to one of the server's own routes with the access token, and returns
    /// the reply and the token it carried. A reply that refuses the token itself (`401` with a
    /// `Bearer` challenge: the server acted on nothing) renews it once and sends the request
    /// again, whatever its method.
    ///
    /// - Throws: `session_expired` when the session is over, or when the renewed token is
    ///   refused too (`access_token_refused`; the tokens are kept); the transport errors.
    nonisolated func authorizedReply(to request: URLRequest) async throws -> (HTTPReply, ClientSecret) {
        let token = try await validAccessToken()
        let first = try await http.send(Self.authorized(request, token))
        guard first.refusesAccessToken else { return (first, token) }
        let renewed = try await accessToken(replacing: token)
        let second = try await http.send(Self.authorized(request, renewed))
        guard !second.refusesAccessToken else {
            throw LatchkeyClientError(.sessionExpired, reasons: ["access_token_refused"], status: 401, serverCode: second.error.serverCode)
        }
        return (second, renewed)
    }

    /// The server no longer takes `token` (a password change moved the account's credential
    /// version; the refresh token goes on): renews it now, and if that fails for the moment,
    /// at the next call that needs a token — `token` is never handed out again.
    func accessTokenOutdated(_ token: ClientSecret) async {
        outdatedAccessToken = token
        _ = try? await accessToken(replacing: token)
    }

    /// The server deleted the account, and with it every token: removes the local tokens
    /// (nothing to revoke) and sends ``AuthSessionEvent/signedOut(_:)`` `.accountDeleted`.
    /// Never fails: tokens that cannot be removed now are dead on the server, and the next
    /// refresh removes them.
    func accountDeleted() async {
        _ = await refreshTask?.result
        unsaved = nil
        _ = try? await withStoreLock(activity: "Latchkey sign-out") { _ in try store.clear() }
        emit(.signedOut(.accountDeleted))
    }

    static func isIdempotent(_ method: String) -> Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method.uppercased())
    }

    private nonisolated func send(_ request: URLRequest, token: ClientSecret) async throws -> (Data, HTTPURLResponse) {
        try await ClientHTTP.transfer(Self.authorized(request, token), with: urlSession)
    }

    private static func authorized(_ request: URLRequest, _ token: ClientSecret) -> URLRequest {
        var request = request
        request.setValue("Bearer " + token.exposed, forHTTPHeaderField: "Authorization")
        return request
    }

    private func isFresh(_ tokens: StoredTokens) -> Bool {
        tokens.expiresAt.timeIntervalSince(now()) > refreshLeeway
    }

    /// The tokens the session holds: unsaved renewed ones first, else the store's.
    private func currentTokens() throws -> StoredTokens? {
        if let unsaved { return unsaved.tokens }
        return try store.load()
    }

    /// Joins the running refresh, or starts one. The refresh is an unstructured task so
    /// that a caller's cancellation does not reach it.
    private func refreshed(rejecting rejected: ClientSecret?) async throws -> StoredTokens {
        if let running = refreshTask { return try await running.value }
        let task = Task { try await self.refreshHoldingLock(rejecting: rejected) }
        refreshTask = task
        defer { refreshTask = nil }
        return try await task.value
    }

    private func refreshHoldingLock(rejecting rejected: ClientSecret?) async throws -> StoredTokens {
        try await withStoreLock(activity: "Latchkey token refresh") { hold in try await refreshNow(rejecting: rejected, hold: hold) }
    }

    /// Reads the tokens again (another process may have refreshed), refreshes if still
    /// needed, and saves before returning — unless the store was changed while the
    /// request ran (a sign-out, a new sign-in, a password reset, a writer that does not
    /// take the lock): that change wins, and the refresh's outcome is dropped. Renewed
    /// tokens the store cannot take stay in memory (``storeUnsaved(_:)`` saves them later).
    private func refreshNow(rejecting rejected: ClientSecret?, hold: StoreLockHold) async throws -> StoredTokens {
        // `basis`: what the store holds and a save replaces; `current`: what this process
        // holds — its unsaved tokens while the store still holds what they replace.
        let onDisk: StoredTokens?
        do {
            onDisk = try store.load()
        } catch {
            // Unreadable now (the device locked): carry on from unsaved tokens, if any.
            guard let unsaved else { throw error }
            onDisk = unsaved.replacing
        }
        let current: StoredTokens, basis: StoredTokens
        if let pending = unsaved, pending.replacing == onDisk {
            (current, basis) = (pending.tokens, pending.replacing)
        } else {
            unsaved = nil
            guard let onDisk else { throw Self.notSignedIn }
            (current, basis) = (onDisk, onDisk)
        }
        if let rejected {
            if current.accessToken != rejected { return current }
        } else if isFresh(current) {
            return current
        }
        guard let refreshToken = current.refreshToken else {
            // Nothing to renew with: the access token serves until it expires, unless the
            // server has already refused it.
            if rejected == nil, current.expiresAt > now() { return current }
            try endSession()
            throw LatchkeyClientError(.sessionExpired, reasons: ["no_refresh_token"])
        }
        // Without the lock (the background time ran out), another process may be
        // presenting this refresh token now: sending it too could end the login.
        guard hold.mayWrite else { throw LatchkeyClientError(.tokenStoreLocked, reasons: ["background_time_expired"]) }
        let outcome: Result<StoredTokens, any Error>
        do {
            outcome = .success(try await refresher.refresh(current, with: refreshToken))
        } catch {
            outcome = .failure(error)
        }
        let stored: StoredTokens?
        do {
            stored = try store.load()
        } catch {
            stored = basis  // unreadable now: nobody can have changed it; the save below tells
        }
        guard stored == basis else {
            unsaved = nil
            guard let stored else { throw Self.notSignedIn }
            return stored
        }
        let renewed: StoredTokens
        do {
            renewed = try outcome.get()
        } catch let error as LatchkeyClientError where error.code == .sessionExpired {
            try endSession()
            throw error
        }
        if hold.mayWrite, (try? store.save(renewed)) != nil {
            unsaved = nil
        } else {
            unsaved = UnsavedTokens(tokens: renewed, replacing: basis)
        }
        emit(.refreshed)
        return renewed
    }

    /// Saves the unsaved tokens if the store still holds what they replace; drops them
    /// if another writer changed the store since; keeps them when the store cannot be
    /// read or written now.
    private func storeUnsaved(_ hold: StoreLockHold) {
        guard let pending = unsaved, hold.mayWrite else { return }
        let onDisk: StoredTokens?
        do {
            onDisk = try store.load()
        } catch {
            return
        }
        if onDisk == pending.replacing, (try? store.save(pending.tokens)) == nil { return }
        unsaved = nil
    }

    /// Clears the store and returns what revokes the login it held, in one step on the
    /// actor, so that no refresh can read them in between. Tokens that cannot be read
    /// (corrupted, or the device locked) are still removed; only their revocation is skipped.
    private func removeTokens() throws -> StoredTokens? {
        let held = unsaved?.tokens ?? (try? store.tokensForSignOut())
        try store.clear()
        unsaved = nil
        return held
    }

    private func endSession() throws {
        unsaved = nil
        try store.clear()
        emit(.signedOut(.sessionEnded))
    }

    /// Runs `body` holding the store's lock (for a ``LockingTokenStore``), inside a
    /// background activity named `name` whose expiration releases the lock at once.
    private func withStoreLock<Value>(
        activity name: String, _ body: (StoreLockHold) async throws -> Value
    ) async throws -> Value {
        let hold = StoreLockHold()
        let assertion = await backgroundActivity?.begin(name: name) { hold.expire() }
        let outcome: Result<Value, any Error>
        do {
            if let locking = store as? any LockingTokenStore {
                hold.hold(try await locking.acquireExclusiveLock(timeout: lockTimeout))
            }
            outcome = .success(try await body(hold))
        } catch {
            outcome = .failure(error)
        }
        hold.release()
        await assertion?.end()
        return try outcome.get()
    }

    private func emit(_ event: AuthSessionEvent) {
        for subscriber in subscribers.values { subscriber.yield(event) }
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }

    private static let notSignedIn = LatchkeyClientError(.sessionExpired, reasons: ["not_signed_in"])
}
