import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server with one account, signed in through the first-party routes, with the stored
/// access token already expired so that the next `validAccessToken()` must refresh.
/// A directory for file stores comes with it; ``stop()`` ends the server and removes it.
struct SignedInFixture {
    let server: LatchkeyServerProcess
    let login: FirstPartyLogin
    let tokens: StoredTokens
    let directory: TemporaryDirectory

    static func start() async throws -> SignedInFixture {
        let server = try await LatchkeyServerProcess()
        do {
            try server.createUser("jane@example.com")
            let login = FirstPartyLogin(baseURL: server.baseURL)
            let fresh = try await login.signIn(email: "jane@example.com", password: ClientSecret(LatchkeyServerProcess.goodPassword))
            let expired = StoredTokens(accessToken: fresh.accessToken, refreshToken: fresh.refreshToken, expiresAt: wholeSeconds(from: 0))
            return SignedInFixture(server: server, login: login, tokens: expired, directory: try TemporaryDirectory())
        } catch {
            server.stop()
            throw error
        }
    }

    func stop() {
        server.stop()
        directory.cleanUp()
    }

    /// A ``ControlledTokenStore`` in the fixture's directory, holding the signed-in tokens.
    func controlledStore() throws -> ControlledTokenStore {
        try ControlledTokenStore(directory: directory.url, initial: tokens)
    }

    func session(_ store: any TokenStore) -> AuthSession {
        AuthSession(store: store, refresher: .firstParty(login))
    }

    /// A session on a ``controlledStore()`` whose background time runs out right after the
    /// store's read number `read`, and whether the store's lock could be taken by another
    /// holder just before and just after that.
    func expiringBackgroundTime(afterRead read: Int) throws
        -> (ControlledTokenStore, RecordingBackgroundActivity, AuthSession, (freeBeforeExpiry: Flag, freeAfterExpiry: Flag))
    {
        let store = try controlledStore()
        let activity = RecordingBackgroundActivity()
        let session = AuthSession(store: store, refresher: .firstParty(login), backgroundActivity: activity)
        let lockFile = directory.url.appendingPathComponent(FileTokenStore.lockFileName).path
        let lock = (freeBeforeExpiry: Flag(), freeAfterExpiry: Flag())
        store.afterRead(read) {
            lock.freeBeforeExpiry.set(canTakeLock(at: lockFile))
            activity.expireRunning()
            lock.freeAfterExpiry.set(canTakeLock(at: lockFile))
        }
        return (store, activity, session, lock)
    }

    /// How many refreshes the server answered with new tokens, and how many it refused.
    func refreshes() async throws -> (succeeded: Int, refused: Int) {
        (try await server.requestCount(route: "directus_refresh", status: 200),
         try await server.requestCount(route: "directus_refresh", status: 401))
    }
}

/// Collects a session's events as they arrive, from one subscription.
actor EventLog {
    private(set) var events: [AuthSessionEvent] = []

    /// A log of a new subscription to `session`'s events.
    static func following(_ session: AuthSession) async -> EventLog {
        let log = EventLog()
        let stream = await session.events()
        Task { await log.follow(stream) }
        return log
    }

    private func follow(_ stream: AsyncStream<AuthSessionEvent>) async {
        for await event in stream { events.append(event) }
    }

    /// Waits until `count` events arrived, then returns them.
    func first(_ count: Int) async throws -> [AuthSessionEvent] {
        for _ in 0..<400 where events.count < count { try await Task.sleep(nanoseconds: 5_000_000) }
        return events
    }
}

@Suite struct AuthSessionTests {
    @Test("50 concurrent validAccessToken() calls make exactly one refresh, and all get its token")
    func singleFlight() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let store = InMemoryTokenStore(fixture.tokens)
        let session = fixture.session(store)
        let events = await EventLog.following(session)

        let tokens = try await withThrowingTaskGroup(of: ClientSecret.self) { group in
            for _ in 0..<50 { group.addTask { try await session.validAccessToken() } }
            return try await group.reduce(into: [ClientSecret]()) { $0.append($1) }
        }
        #expect(tokens.count == 50)
        #expect(Set(tokens.map(\.exposed)).count == 1)
        #expect(tokens[0] != fixture.tokens.accessToken)
        #expect(store.load()?.accessToken == tokens[0])
        #expect(try await fixture.refreshes() == (1, 0))
        #expect(try await events.first(2) == [.current(.signedIn(subject: nil)), .refreshed])

        // A fresh token is handed out without a request.
        #expect(try await session.validAccessToken() == tokens[0])
        // The stored refresh token is the current one: had it been presented twice, the
        // server would have ended the login and this refresh would fail.
        let forced = try await session.accessToken(replacing: tokens[0])
        #expect(forced != tokens[0])
        #expect(try await fixture.refreshes() == (2, 0))
    }

    @Test("a session whose login was revoked is signed out: tokens removed, signedOut event, session_expired")
    func revokedFamily() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let store = InMemoryTokenStore(fixture.tokens)
        let session = fixture.session(store)
        let events = await EventLog.following(session)
        try await fixture.login.signOut(try #require(fixture.tokens.refreshToken))

        let error = await #expect(throws: LatchkeyClientError.self) { try await session.validAccessToken() }
        #expect(error?.code == .sessionExpired)
        #expect(error?.kind == .needsUserAction)
        #expect(store.load() == nil)
        #expect(try await events.first(2) == [.current(.signedIn(subject: nil)), .signedOut(.sessionEnded)])
        let again = await #expect(throws: LatchkeyClientError.self) { try await session.validAccessToken() }
        #expect(again?.reasons == ["not_signed_in"])
    }

    @Test("a transient failure keeps the tokens; a not-yet-expired token is still handed out")
    func transientFailureKeepsTokens() async throws {
        let unreachable = FirstPartyLogin(baseURL: LatchkeyServerProcess.unreachableBaseURL)
        let expired = StoredTokens(accessToken: ClientSecret("a1"), refreshToken: ClientSecret("r1"), expiresAt: Date())
        let store = InMemoryTokenStore(expired)
        let session = AuthSession(store: store, refresher: .firstParty(unreachable))
        let error = await #expect(throws: LatchkeyClientError.self) { try await session.validAccessToken() }
        #expect(error?.code == .networkUnavailable)
        #expect(store.load() == expired)

        let expiring = StoredTokens(accessToken: ClientSecret("a2"), refreshToken: ClientSecret("r2"), expiresAt: Date() + 30)
        store.save(expiring)
        #expect(try await session.validAccessToken() == ClientSecret("a2"))
        #expect(store.load() == expiring)
    }

    @Test("without a refresh token the access token serves until it expires; then the session ends")
    func noRefreshToken() async throws {
        let unreachable = FirstPartyLogin(baseURL: LatchkeyServerProcess.unreachableBaseURL)
        let expiring = StoredTokens(accessToken: ClientSecret("a1"), refreshToken: nil, expiresAt: Date() + 3600)
        let store = InMemoryTokenStore(expiring)
        let session = AuthSession(store: store, refresher: .firstParty(unreachable))
        #expect(try await session.validAccessToken() == ClientSecret("a1"))
        #expect(store.load() == expiring)

        store.save(StoredTokens(accessToken: ClientSecret("a2"), refreshToken: nil, expiresAt: Date()))
        let error = await #expect(throws: LatchkeyClientError.self) { try await session.validAccessToken() }
        #expect(error?.code == .sessionExpired)
        #expect(error?.reasons == ["no_refresh_token"])
        #expect(store.load() == nil)
    }

    @Test("a caller cancelled during the refresh does not lose the tokens: the refresh finishes and is saved")
    func cancelledCaller() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let store = FileTokenStore(directory: fixture.directory.url)
        try store.save(fixture.tokens)
        let session = fixture.session(store)

        // Hold the store's lock so the refresh is pending while the caller is cancelled.
        let caller = try await store.withExclusiveLock(timeout: 5) {
            let caller = Task { try await session.validAccessToken() }
            caller.cancel()
            return caller
        }
        let result = await caller.result
        let saved = try #require(try store.load())
        #expect(saved.accessToken != fixture.tokens.accessToken)
        if case .success(let token) = result { #expect(token == saved.accessToken) }
        #expect(try await fixture.refreshes() == (1, 0))
        // The saved refresh token is the server's current one.
        _ = try await session.accessToken(replacing: saved.accessToken)
        #expect(try await fixture.refreshes() == (2, 0))
    }

    @Test("two sessions on one file store (two lock holders) refresh once, and the login survives")
    func twoSessionsOneFileStore() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        try FileTokenStore(directory: fixture.directory.url).save(fixture.tokens)
        let first = fixture.session(FileTokenStore(directory: fixture.directory.url))
        let second = fixture.session(FileTokenStore(directory: fixture.directory.url))

        async let a = first.validAccessToken()
        async let b = second.validAccessToken()
        let (tokenA, tokenB) = try await (a, b)
        #expect(tokenA == tokenB)
        #expect(try await fixture.refreshes() == (1, 0))
        _ = try await first.accessToken(replacing: tokenA)
        #expect(try await fixture.refreshes() == (2, 0))
    }

    @Test("a sign-out while the refresh request runs is not undone: the refreshed tokens are not saved")
    func signOutDuringRefresh() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let store = try fixture.controlledStore()
        // Read 1 is the freshness check, read 2 the refresh's own; another writer clears
        // the store right after it, while the request is on the wire.
        store.afterRead(2) { try? store.file.clear() }
        let session = fixture.session(store)

        let error = await #expect(throws: LatchkeyClientError.self) { try await session.validAccessToken() }
        #expect(error?.reasons == ["not_signed_in"])
        #expect(try store.load() == nil)
        #expect(await !session.hasUnsavedTokens)
        #expect(try await fixture.refreshes() == (1, 0))
    }

    @Test("a new sign-in while the refresh request runs wins over the refresh")
    func signInDuringRefresh() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let newLogin = StoredTokens(accessToken: ClientSecret("a-new"), refreshToken: ClientSecret("r-new"), expiresAt: wholeSeconds(from: 3600))
        let store = try fixture.controlledStore()
        store.afterRead(2) { try? store.file.save(newLogin) }
        let session = fixture.session(store)

        #expect(try await session.validAccessToken() == newLogin.accessToken)
        #expect(try store.load() == newLogin)
        #expect(try await fixture.refreshes() == (1, 0))
    }

    @Test("sign-out revokes the login on the server, removes the tokens and reports it")
    func signOut() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let store = InMemoryTokenStore()
        let session = fixture.session(store)
        let events = await EventLog.following(session)
        try await session.signIn(fixture.tokens)
        #expect(try await session.isSignedIn())
        try await session.signOut()
        #expect(store.load() == nil)
        #expect(try await events.first(3) == [.current(.signedOut), .signedIn, .signedOut(.userRequested)])
        let refused = await #expect(throws: LatchkeyClientError.self) {
            try await fixture.login.refresh(try #require(fixture.tokens.refreshToken))
        }
        #expect(refused?.code == .sessionExpired)
    }

    @Test("a completed password reset clears the local session and reports passwordRecovered")
    func passwordRecovered() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let store = InMemoryTokenStore(fixture.tokens)
        let session = fixture.session(store)
        let events = await EventLog.following(session)
        let recovery = PasswordRecovery(baseURL: fixture.server.baseURL)
        try await recovery.requestReset(email: "jane@example.com")
        let mail = try #require(try await fixture.server.waitForMails(to: "jane@example.com").first)
        let link = try LatchkeyServerProcess.resetLink(in: mail)
        let resetToken = try ResetLinkParser(universalLinkHosts: ["127.0.0.1"], customSchemes: [])
            .parse(URL(string: "https://127.0.0.1/reset-password#" + (link.fragment ?? ""))!).token
        try await session.completePasswordReset(recovery, token: resetToken, newPassword: ClientSecret("violet tractor quietly juggles mountains"))
        #expect(store.load() == nil)
        #expect(try await events.first(2) == [.current(.signedIn(subject: nil)), .passwordRecovered])
    }

    @Test("a rotation the store cannot save (Keychain locked) stays in memory, is used, and is saved later: the login survives")
    func unsavedRotation() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let store = try fixture.controlledStore()
        let session = fixture.session(store)
        store.setSavesFail(true)

        let renewed = try await session.validAccessToken()
        #expect(renewed != fixture.tokens.accessToken)
        #expect(try store.load() == fixture.tokens)
        #expect(await session.hasUnsavedTokens)
        #expect(try await session.validAccessToken() == renewed)
        // Still locked: a forced refresh goes on from the unsaved refresh token, never the
        // stale stored one (which the server would take for reuse and end the login).
        let again = try await session.accessToken(replacing: renewed)
        #expect(try await fixture.refreshes() == (2, 0))
        #expect(try store.load() == fixture.tokens)

        store.setSavesFail(false)
        #expect(try await session.validAccessToken() == again)
        #expect(await !session.hasUnsavedTokens)
        #expect(try store.load()?.accessToken == again)
        _ = try await session.accessToken(replacing: again)
        #expect(try await fixture.refreshes() == (3, 0))
    }

    @Test("unsaved tokens are dropped, not saved, when another writer changed the store meanwhile")
    func unsavedLosesToAnotherWriter() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let store = try fixture.controlledStore()
        let session = fixture.session(store)
        store.setSavesFail(true)
        _ = try await session.validAccessToken()
        #expect(await session.hasUnsavedTokens)

        let elsewhere = StoredTokens(accessToken: ClientSecret("a-other"), refreshToken: ClientSecret("r-other"), expiresAt: wholeSeconds(from: 3600))
        try store.file.save(elsewhere)
        store.setSavesFail(false)
        #expect(try await session.validAccessToken() == elsewhere.accessToken)
        #expect(await !session.hasUnsavedTokens)
        #expect(try store.load() == elsewhere)
    }

    @Test("when the background time runs out before the refresh request, the lock is released at once and no refresh token is sent")
    func backgroundExpirationBeforeRequest() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        // Read 2 runs holding the lock, just before the refresh request.
        let (store, activity, session, lock) = try fixture.expiringBackgroundTime(afterRead: 2)

        let error = await #expect(throws: LatchkeyClientError.self) { try await session.validAccessToken() }
        #expect(error?.code == .tokenStoreLocked)
        #expect(error?.reasons == ["background_time_expired"])
        #expect(!lock.freeBeforeExpiry.value)
        #expect(lock.freeAfterExpiry.value)
        #expect(try store.load() == fixture.tokens)
        #expect(await !session.hasUnsavedTokens)
        #expect(activity.running == 0)
        #expect(try await fixture.refreshes() == (0, 0))

        // The next call, with background time again, refreshes.
        #expect(try await session.validAccessToken() != fixture.tokens.accessToken)
        #expect(try await fixture.refreshes() == (1, 0))
    }

    @Test("when the background time runs out during the refresh request, the lock is released at once and the result saved later")
    func backgroundExpiration() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        // Read 3 runs holding the lock, once the refresh reply has come.
        let (store, activity, session, lock) = try fixture.expiringBackgroundTime(afterRead: 3)

        let renewed = try await session.validAccessToken()
        #expect(!lock.freeBeforeExpiry.value)
        #expect(lock.freeAfterExpiry.value)
        #expect(renewed != fixture.tokens.accessToken)
        #expect(try store.load() == fixture.tokens)  // not written without the lock
        #expect(await session.hasUnsavedTokens)
        #expect(activity.running == 0)

        await session.saveUnsavedTokens()
        #expect(try store.load()?.accessToken == renewed)
        #expect(activity.names == ["Latchkey token refresh", "Latchkey token save"])
        #expect(activity.running == 0)
        _ = try await session.accessToken(replacing: renewed)
        #expect(try await fixture.refreshes() == (2, 0))
    }

    @Test("any number of subscribers get every event, each starting with the state when it subscribed")
    func multipleSubscribers() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let session = fixture.session(InMemoryTokenStore())
        let first = await EventLog.following(session)
        try await session.signIn(fixture.tokens)
        let second = await EventLog.following(session)
        _ = try await session.validAccessToken()
        try await session.signOut()
        #expect(try await first.first(4) == [.current(.signedOut), .signedIn, .refreshed, .signedOut(.userRequested)])
        #expect(try await second.first(3) == [.current(.signedIn(subject: nil)), .refreshed, .signedOut(.userRequested)])
        #expect(await session.state() == .signedOut)
    }

    @Test("sign-out works when the stored tokens are corrupted: the file is removed and signedOut reported")
    func signOutCorrupted() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url)
        try store.save(StoredTokens(accessToken: ClientSecret("a"), refreshToken: nil, expiresAt: Date()))
        try Data("{not json".utf8).write(to: store.fileURL)
        let session = AuthSession(store: store, refresher: .firstParty(FirstPartyLogin(baseURL: LatchkeyServerProcess.unreachableBaseURL)))
        #expect(await session.state() == .unavailable(LatchkeyClientError(.tokenStoreCorrupted)))
        let events = await EventLog.following(session)

        try await session.signOut()
        #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
        #expect(try await events.first(2) == [.current(.unavailable(LatchkeyClientError(.tokenStoreCorrupted))), .signedOut(.userRequested)])
    }

    @Test("a password reset the server accepted is reported as done even when the local tokens cannot be removed")
    func resetSucceedsWhenClearFails() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let store = try fixture.controlledStore()
        store.setClearsFail(true)
        let session = fixture.session(store)
        let events = await EventLog.following(session)
        let recovery = PasswordRecovery(baseURL: fixture.server.baseURL)
        try await recovery.requestReset(email: "jane@example.com")
        let mail = try #require(try await fixture.server.waitForMails(to: "jane@example.com").first)
        let token = try #require(LatchkeyServerProcess.resetLink(in: mail).fragment?.split(separator: "=").last.map(String.init))

        try await session.completePasswordReset(recovery, token: ClientSecret(token), newPassword: ClientSecret("violet tractor quietly juggles mountains"))
        #expect(try await events.first(2) == [.current(.signedIn(subject: nil)), .passwordRecovered])
        #expect(try fixture.server.passwordMatches("jane@example.com", "violet tractor quietly juggles mountains"))
        // The tokens left behind are dead: the next use ends the session and removes them.
        store.setClearsFail(false)
        let ended = await #expect(throws: LatchkeyClientError.self) { try await session.validAccessToken() }
        #expect(ended?.code == .sessionExpired)
        #expect(try store.load() == nil)
    }
}

/// Now plus `offset` seconds, in whole seconds, so that tokens expiring then compare equal
/// after a trip through a store's JSON (seconds since 1970 as a floating-point number).
func wholeSeconds(from offset: TimeInterval) -> Date {
    Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + offset).rounded(.down))
}

/// Whether an exclusive `flock` on `path` can be taken right now (it is released again).
func canTakeLock(at path: String) -> Bool {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return flock(descriptor, LOCK_EX | LOCK_NB) == 0
}

/// A Boolean set from one thread and read from another.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var state = false

    func set(_ value: Bool) {
        lock.lock()
        defer { lock.unlock() }
        state = value
    }

    var value: Bool {
        lock.lock()
        defer { lock.unlock() }
        return state
    }
}
