import Foundation

/// The store lock of one ``AuthSession`` operation, which a background activity's
/// expiration may take away at any moment from any thread: ``expire()`` releases the
/// lock at once (an iOS app suspended while it holds a lock on a file in a shared
/// container is ended with `0xdead10cc`), and the operation then asks ``mayWrite``
/// before touching the store and keeps its result in memory instead.
// `Mutex` would need iOS 18, so an `NSLock` guards the state instead.
final class StoreLockHold: @unchecked Sendable {
    private let guardLock = NSLock()
    private var lock: (any TokenStoreLock)?
    private var expired = false

    /// Holds `lock` until ``release()``, or releases it at once if already expired.
    func hold(_ lock: any TokenStoreLock) {
        guardLock.lock()
        defer { guardLock.unlock() }
        if expired {
            lock.release()
        } else {
            self.lock = lock
        }
    }

    /// The background time is over: releases the lock now.
    func expire() {
        guardLock.lock()
        defer { guardLock.unlock() }
        expired = true
        lock?.release()
        lock = nil
    }

    /// Releases the lock at the end of the operation.
    func release() {
        guardLock.lock()
        defer { guardLock.unlock() }
        lock?.release()
        lock = nil
    }

    /// Whether the operation may still write the store: its background time has not expired.
    var mayWrite: Bool {
        guardLock.lock()
        defer { guardLock.unlock() }
        return !expired
    }
}
