import Foundation

/// A ``BackgroundActivity`` on an expiring-activity call such as
/// `ProcessInfo.performExpiringActivity(withReason:using:)` — what app extensions have
/// instead of UIKit's background tasks (``ExtensionBackgroundActivity``). Such a call runs
/// its block on a thread of its own with `false` and keeps the process running until the
/// block returns; when the process is about to be suspended it runs the block again, on
/// another thread, with `true`; when it cannot keep the process running at all, it runs the
/// block once, with `true`. Here the first block waits until ``BackgroundActivityAssertion/end()``
/// (or the expiry), and the expiry runs `expiration` — which releases the store's lock, so
/// an extension is never suspended holding it (`0xdead10cc`) — and lets the first block return.
/// Portable, so the Linux tests drive every order of those calls.
package struct ExpiringActivity: BackgroundActivity {
    /// Runs `block` as an expiring activity named `reason`.
    package typealias Perform = @Sendable (_ reason: String, _ block: @escaping @Sendable (_ expired: Bool) -> Void) -> Void

    private let perform: Perform

    /// An activity on `perform`.
    package init(perform: @escaping Perform) {
        self.perform = perform
    }

    /// Begins the activity; returns once it holds the process, or has expired.
    package func begin(name: String, expiration: @escaping @Sendable () -> Void) async -> any BackgroundActivityAssertion {
        let assertion = ExpiringActivityAssertion(expiration: expiration)
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            assertion.onStart { started.resume() }
            perform(name) { expired in assertion.run(expired: expired) }
        }
        return assertion
    }
}

/// One expiring activity: held until ``end()`` or its expiry, whichever comes first.
// `Mutex` would need iOS 18, so an `NSLock` guards the state.
final class ExpiringActivityAssertion: BackgroundActivityAssertion, @unchecked Sendable {
    private let lock = NSLock()
    private let release = DispatchSemaphore(value: 0)
    private let expiration: @Sendable () -> Void
    private var started: (@Sendable () -> Void)?
    private var hasStarted = false
    private var released = false
    private var expired = false

    init(expiration: @escaping @Sendable () -> Void) {
        self.expiration = expiration
    }

    /// Calls `action` once the activity holds the process or has expired.
    func onStart(_ action: @escaping @Sendable () -> Void) {
        let now: Bool = withLock {
            if hasStarted { return true }
            started = action
            return false
        }
        if now { action() }
    }

    /// The activity's block: with `false`, holds the process until released; with `true`,
    /// the expiry.
    func run(expired isExpiry: Bool) {
        markStarted()
        if isExpiry {
            let first = withLock {
                defer { expired = true }
                return !expired
            }
            if first { expiration() }
            releaseOnce()
        } else {
            release.wait()
        }
    }

    /// Ends the activity: the held block returns.
    func end() async {
        releaseOnce()
    }

    private func markStarted() {
        let action: (@Sendable () -> Void)? = withLock {
            guard !hasStarted else { return nil }
            hasStarted = true
            defer { started = nil }
            return started
        }
        action?()
    }

    private func releaseOnce() {
        let first = withLock {
            defer { released = true }
            return !released
        }
        if first { release.signal() }
    }

    private func withLock<Value>(_ body: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
