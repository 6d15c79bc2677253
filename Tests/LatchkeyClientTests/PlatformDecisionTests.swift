import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decisions behind the Apple-only adapters that are not the Keychain's: the Data
/// Protection class of each file, what a refused open means, an extension's expiring
/// activity, SwiftUI's browser sign-in entry.
@Suite struct PlatformDecisionTests {
    @Test("a token file is as readable as the Keychain accessibility the app chose; lock files hold no secret and get none")
    func fileProtection() async throws {
        #expect(FileProtection(matching: .afterFirstUnlockThisDeviceOnly) == .completeUntilFirstUserAuthentication)
        #expect(FileProtection(matching: .afterFirstUnlock) == .completeUntilFirstUserAuthentication)
        for accessibility in [KeychainOptions.Accessibility.whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly] {
            #expect(FileProtection(matching: accessibility) == .complete)
        }
        #expect(FileProtection.allCases.map(\.type.rawValue) == [
            FileProtectionType.complete.rawValue, FileProtectionType.completeUntilFirstUserAuthentication.rawValue, FileProtectionType.none.rawValue,
        ])
        #expect(FileTokenStore(directory: URL(fileURLWithPath: "/tmp/x")).protection == .complete)
        #expect(FileTokenStore(directory: URL(fileURLWithPath: "/tmp/x"), protection: .completeUntilFirstUserAuthentication).protection
            == .completeUntilFirstUserAuthentication)
        // Setting a class is accepted here (Linux ignores it) on every file the stores write.
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url.appendingPathComponent("tokens"), protection: .completeUntilFirstUserAuthentication)
        try store.save(StoredTokens(accessToken: ClientSecret("a"), refreshToken: nil, expiresAt: .distantFuture))
        try await store.acquireExclusiveLock(timeout: 1).release()
    }

    @Test("a file the device's Data Protection keeps shut (EPERM, EACCES) is token_store_locked, never a fatal failure")
    func refusedOpens() throws {
        let locked = LatchkeyClientError(.tokenStoreLocked, reasons: ["protected_data_unavailable"])
        #expect(FileProtection.storeError(errno: EPERM) == locked)
        #expect(FileProtection.storeError(errno: EACCES) == locked)
        #expect(FileProtection.storeError(errno: EACCES).kind == .retryable)
        #expect(FileProtection.storeError(errno: ENOSPC) == LatchkeyClientError(.tokenStoreFailed, reasons: ["errno \(ENOSPC)"]))
    }

    @Test("an expiring activity holds the process until ended; the held block then returns")
    func expiringActivityEnds() async throws {
        let system = ExpiringSystem()
        let expired = Flag()
        let assertion = await ExpiringActivity(perform: system.perform).begin(name: "refresh") { expired.set(true) }
        #expect(system.names == ["refresh"])
        #expect(system.holding == 1)
        await assertion.end()
        try await system.waitUntilReturned(1)
        #expect(!expired.value)
        await assertion.end()  // later calls do nothing
    }

    @Test("when the time runs out, the expiration runs once, before the held block returns")
    func expiringActivityExpires() async throws {
        let system = ExpiringSystem()
        let expirations = Counter()
        let assertion = await ExpiringActivity(perform: system.perform).begin(name: "save") { expirations.add() }
        system.expire()
        try await system.waitUntilReturned(2)
        #expect(expirations.value == 1)
        system.expire()
        await assertion.end()
        try await system.waitUntilReturned(3)
        #expect(expirations.value == 1)
    }

    @Test("an activity the system cannot grant expires at once: begin returns, the expiration has run")
    func expiringActivityRefused() async throws {
        let system = ExpiringSystem(grants: false)
        let expired = Flag()
        let assertion = await ExpiringActivity(perform: system.perform).begin(name: "sign-out") { expired.set(true) }
        #expect(expired.value)
        await assertion.end()
    }

    @Test("an extension's session ends every expiring activity it begins, and holds the lock only inside one")
    func extensionSessionEndsActivities() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url)
        let lockFile = temporary.url.appendingPathComponent(FileTokenStore.lockFileName).path
        try store.save(StoredTokens(accessToken: ClientSecret("a"), refreshToken: nil, expiresAt: .distantFuture))
        let system = ExpiringSystem()
        let session = AuthSession(
            store: store, refresher: .firstParty(FirstPartyLogin(baseURL: URL(string: "https://auth.invalid")!)),
            backgroundActivity: ExpiringActivity(perform: system.perform))
        try await session.signOut()
        #expect(system.names == ["Latchkey sign-out"])
        try await system.waitUntilReturned(1)
        #expect(canTakeLock(at: lockFile))
        #expect(try store.load() == nil)
    }

    @Test("SwiftUI's entry runs one sign-in at a time: a second tap while the sheet is up is refused, not shown")
    func oneSwiftUISignInAtATime() async throws {
        let flow = WebAuthenticationFlow()
        let callback = URL(string: "com.example.app:/oauth?code=c&state=s")!
        let presented = Counter()
        let release = AsyncSignal()
        let first = Task {
            try await flow.callbackURL {
                presented.add()
                await release.wait()
                return callback
            }
        }
        for _ in 0..<400 where presented.value == 0 { try await Task.sleep(nanoseconds: 2_000_000) }
        await #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["sign_in_in_progress"])) {
            try await flow.callbackURL {
                presented.add()
                return callback
            }
        }
        await release.signal()
        #expect(try await first.value == callback)
        #expect(try await flow.callbackURL { callback } == callback)  // the next one runs
        #expect(presented.value == 1)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await flow.callbackURL {
                presented.add()
                return callback
            }
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(presented.value == 1)
        #expect(WebAuthenticationFlow.shared !== flow)
    }
}

/// `performExpiringActivity` as Apple documents it: the block runs on a thread of its own
/// with `false` (or once with `true` when nothing can be granted), and again, on another
/// thread, with `true` when the time runs out.
final class ExpiringSystem: @unchecked Sendable {
    private let lock = NSLock()
    private let grants: Bool
    private var blocks: [@Sendable (Bool) -> Void] = []
    private var started: [String] = []
    private var running = 0
    private var returned = 0

    init(grants: Bool = true) {
        self.grants = grants
    }

    var perform: ExpiringActivity.Perform {
        { [self] reason, block in
            withLock {
                started.append(reason)
                blocks.append(block)
            }
            let expired = !grants
            Thread.detachNewThread { [self] in
                withLock { running += 1 }
                block(expired)
                withLock {
                    running -= 1
                    returned += 1
                }
            }
        }
    }

    /// The names of the activities begun.
    var names: [String] { withLock { started } }
    /// How many blocks run now.
    var holding: Int {
        for _ in 0..<400 where withLock({ running }) == 0 { usleep(2000) }
        return withLock { running }
    }

    /// The time runs out: every activity's block runs again with `true`, on another thread.
    func expire() {
        for block in withLock({ blocks }) {
            Thread.detachNewThread { [self] in
                block(true)
                withLock { returned += 1 }
            }
        }
    }

    /// Waits until `count` block calls returned.
    func waitUntilReturned(_ count: Int) async throws {
        for _ in 0..<400 where withLock({ returned }) < count { try await Task.sleep(nanoseconds: 2_000_000) }
        #expect(withLock { returned } >= count)
    }

    private func withLock<Value>(_ body: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() {
        lock.lock()
        defer { lock.unlock() }
        count += 1
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// A one-time signal an async test waits for.
actor AsyncSignal {
    private var signalled = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if signalled { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func signal() {
        signalled = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
