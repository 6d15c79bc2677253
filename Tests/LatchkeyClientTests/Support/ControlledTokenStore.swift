import Foundation
import LatchkeyClient

/// A ``FileTokenStore`` (with its real `flock`) whose medium the test can make fail —
/// saves refused as when the Keychain locks after the screen does, a clear that fails —
/// and that runs a hook right after a chosen `load()`, to put an event at an exact point
/// of a refresh instead of racing for it.
final class ControlledTokenStore: LockingTokenStore, @unchecked Sendable {
    let file: FileTokenStore
    private let lock = NSLock()
    private var reads = 0
    private var failingSaves = false
    private var failingClears = false
    private var hook: (read: Int, action: @Sendable () -> Void)?

    init(directory: URL, initial: StoredTokens?) throws {
        file = FileTokenStore(directory: directory)
        if let initial { try file.save(initial) }
    }

    /// Makes saves fail with `token_store_locked` (`device_locked`) until called with false.
    func setSavesFail(_ fail: Bool) { withLock { failingSaves = fail } }

    /// Makes clears fail with `token_store_failed` until called with false.
    func setClearsFail(_ fail: Bool) { withLock { failingClears = fail } }

    /// Runs `action` right after the `read`-th load from now (counting from 1).
    func afterRead(_ read: Int, _ action: @escaping @Sendable () -> Void) {
        withLock { hook = (reads + read, action) }
    }

    func load() throws -> StoredTokens? {
        let loaded = try file.load()
        let action: (@Sendable () -> Void)? = withLock {
            reads += 1
            guard let hook, hook.read == reads else { return nil }
            self.hook = nil
            return hook.action
        }
        action?()
        return loaded
    }

    func save(_ tokens: StoredTokens) throws {
        if withLock({ failingSaves }) { throw LatchkeyClientError(.tokenStoreLocked, reasons: ["device_locked"]) }
        try file.save(tokens)
    }

    func clear() throws {
        if withLock({ failingClears }) { throw LatchkeyClientError(.tokenStoreFailed) }
        try file.clear()
    }

    func acquireExclusiveLock(timeout: Double) async throws -> any TokenStoreLock {
        try await file.acquireExclusiveLock(timeout: timeout)
    }

    private func withLock<Value>(_ body: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// A ``BackgroundActivity`` standing in for UIKit's background tasks: it records what
/// began and ended, and lets the test make the system's expiration happen.
final class RecordingBackgroundActivity: BackgroundActivity, @unchecked Sendable {
    private final class Assertion: BackgroundActivityAssertion, @unchecked Sendable {
        let name: String
        let expiration: @Sendable () -> Void
        var ended = false
        unowned let owner: RecordingBackgroundActivity

        init(name: String, expiration: @escaping @Sendable () -> Void, owner: RecordingBackgroundActivity) {
            self.name = name
            self.expiration = expiration
            self.owner = owner
        }

        func end() async { owner.withLock { ended = true } }
    }

    private let lock = NSLock()
    private var assertions: [Assertion] = []

    func begin(name: String, expiration: @escaping @Sendable () -> Void) async -> any BackgroundActivityAssertion {
        let assertion = Assertion(name: name, expiration: expiration, owner: self)
        withLock { assertions.append(assertion) }
        return assertion
    }

    /// The system ran out of background time: every running activity expires, as UIKit
    /// calls the expiration handler and ends the task.
    func expireRunning() {
        let running = withLock { assertions.filter { !$0.ended } }
        for assertion in running {
            assertion.expiration()
            withLock { assertion.ended = true }
        }
    }

    /// The names of the activities begun, in order.
    var names: [String] { withLock { assertions.map(\.name) } }

    /// How many activities have not ended.
    var running: Int { withLock { assertions.filter { !$0.ended }.count } }

    fileprivate func withLock<Value>(_ body: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
