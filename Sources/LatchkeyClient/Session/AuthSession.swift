public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A signed-in session: hands out a valid access token, renews it before it expires,
/// and signs requests with it.
///
/// Promises:
/// - ``validAccessToken()`` refreshes only when the stored access token is within
///   `refreshLeeway` of its expiry; however many callers ask at once, one refresh
///   request is made and all of them get its result.
/// - A caller that is cancelled while a refresh runs never loses the stored tokens: the
///   refresh runs in its own task, which no caller's cancellation stops, and it saves the
///   new tokens before anyone gets them.
/// - With a ``LockingTokenStore`` (``FileTokenStore``), the store's lock is held from
///   reading the tokens to saving the refreshed ones, and the tokens are read again once
///   the lock is held, so two processes sharing the store never present the same
///   refresh token: the second one finds the first one's fresh tokens.
/// - When the server rejects the refresh token, the tokens are removed and
///   ``AuthSessionEvent/signedOut(_:)`` (`.sessionEnded`) is sent; a transient failure
///   (network, 5xx, rate limit) keeps them, and while the old access token has not yet
///   expired it is still returned.
/// - A sign-out or a new sign-in while a refresh request runs is never undone by it:
///   the refresh saves only if the store still holds the tokens it started from.
public actor AuthSession {
    /// The session's events, for one consumer (an `AsyncStream` delivers each event once).
    public nonisolated let events: AsyncStream<AuthSessionEvent>

    private let continuation: AsyncStream<AuthSessionEvent>.Continuation
    private let store: any TokenStore
    private let refresher: SessionRefresher
    private let refreshLeeway: TimeInterval
    private let lockTimeout: TimeInterval
    private let urlSession: URLSession
    private let now: @Sendable () -> Date
    private var refreshTask: Task<StoredTokens, any Error>?

    /// A session over the tokens in `store`, renewed by `refresher`.
    ///
    /// - Parameters:
    ///   - refreshLeeway: renew when the access token expires within this many seconds.
    ///   - lockTimeout: how long to wait for a ``LockingTokenStore``'s lock.
    ///   - urlSession: the session ``data(for:)`` sends requests with.
    ///   - now: the clock deciding whether a token is about to expire.
    public init(
        store: any TokenStore, refresher: SessionRefresher, refreshLeeway: TimeInterval = 60, lockTimeout: TimeInterval = 30,
        urlSession: URLSession = .shared, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        (events, continuation) = AsyncStream.makeStream(of: AuthSessionEvent.self, bufferingPolicy: .bufferingNewest(64))
        self.store = store
        self.refresher = refresher
        self.refreshLeeway = refreshLeeway
        self.lockTimeout = lockTimeout
        self.urlSession = urlSession
        self.now = now
    }

    deinit { continuation.finish() }

    /// Stores the tokens of a completed sign-in and sends ``AuthSessionEvent/signedIn``.
    ///
    /// - Throws: the store's error.
    public func signIn(_ tokens: StoredTokens) throws {
        try store.save(tokens)
        continuation.yield(.signedIn)
    }

    /// Whether tokens are stored (they may still be rejected by the server).
    public func isSignedIn() throws -> Bool {
        try store.load() != nil
    }

    /// An access token that is not about to expire, refreshing first if needed.
    ///
    /// - Throws: `session_expired` when not signed in (reason `not_signed_in`) or when the
    ///   server ended the session (the tokens are then removed); a transient error when
    ///   the token expired and could not be renewed right now; a token store error.
    public func validAccessToken() async throws -> ClientSecret {
        guard let tokens = try store.load() else { throw Self.notSignedIn }
        if isFresh(tokens) { return tokens.accessToken }
        do {
            return try await refreshed(rejecting: nil).accessToken
        } catch let error as LatchkeyClientError where error.kind == .retryable && tokens.expiresAt > now() {
            return tokens.accessToken
        }
    }

    /// A new access token after the server refused `token` (an API answered 401). If
    /// the stored token is already another one (someone refreshed meanwhile), that one
    /// is returned without a request.
    public func accessToken(replacing token: ClientSecret) async throws -> ClientSecret {
        try await refreshed(rejecting: token).accessToken
    }

    /// Signs out: waits for a running refresh, removes the tokens, revokes the refresh
    /// token on the server (best effort: an unreachable server does not keep the person
    /// signed in) and sends ``AuthSessionEvent/signedOut(_:)`` `.userRequested`.
    ///
    /// - Throws: the store's error (the tokens are then kept and nothing is revoked).
    public func signOut() async throws {
        _ = await refreshTask?.result
        let refreshToken = try await withStoreLock { try await self.removeTokens() }
        if let refreshToken { try? await refresher.revoke(refreshToken) }
        continuation.yield(.signedOut(.userRequested))
    }

    /// Clears the store and returns the refresh token it held, in one step on the actor,
    /// so that no refresh can read the tokens in between.
    private func removeTokens() throws -> ClientSecret? {
        let refreshToken = try store.load()?.refreshToken
        try store.clear()
        return refreshToken
    }

    /// Sets a new password with `recovery` (see ``PasswordRecovery/resetPassword(token:newPassword:email:)``),
    /// then removes the local tokens — the server has ended every session of the
    /// account — and sends ``AuthSessionEvent/passwordRecovered``.
    public func completePasswordReset(
        _ recovery: PasswordRecovery, token: ClientSecret, newPassword: ClientSecret, email: String? = nil
    ) async throws {
        try await recovery.resetPassword(token: token, newPassword: newPassword, email: email)
        _ = await refreshTask?.result
        try store.clear()
        continuation.yield(.passwordRecovered)
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

    static func isIdempotent(_ method: String) -> Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method.uppercased())
    }

    private nonisolated func send(_ request: URLRequest, token: ClientSecret) async throws -> (Data, HTTPURLResponse) {
        var request = request
        request.setValue("Bearer " + token.exposed, forHTTPHeaderField: "Authorization")
        return try await ClientHTTP.transfer(request, with: urlSession)
    }

    private func isFresh(_ tokens: StoredTokens) -> Bool {
        tokens.expiresAt.timeIntervalSince(now()) > refreshLeeway
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
        try await withStoreLock { try await self.refreshNow(rejecting: rejected) }
    }

    /// Reads the tokens again (another process may have refreshed), refreshes if still
    /// needed, and saves before returning — unless the tokens were replaced while the
    /// request ran (a sign-out, a new sign-in, a password reset, a writer that does not
    /// take the lock): that change wins, and the refresh's outcome is dropped.
    private func refreshNow(rejecting rejected: ClientSecret?) async throws -> StoredTokens {
        guard let current = try store.load() else { throw Self.notSignedIn }
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
        let outcome: Result<StoredTokens, any Error>
        do {
            outcome = .success(try await refresher.refresh(refreshToken))
        } catch {
            outcome = .failure(error)
        }
        let stored = try store.load()
        guard stored == current else {
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
        try store.save(renewed)
        continuation.yield(.refreshed)
        return renewed
    }

    private func endSession() throws {
        try store.clear()
        continuation.yield(.signedOut(.sessionEnded))
    }

    private func withStoreLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        if let locking = store as? any LockingTokenStore {
            return try await locking.withExclusiveLock(timeout: lockTimeout, body)
        }
        return try await body()
    }

    private static let notSignedIn = LatchkeyClientError(.sessionExpired, reasons: ["not_signed_in"])
}
