import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock(2)` lock on a lock file, held from ``acquire(path:timeout:)``
/// until ``release()`` or deinit. `flock` locks belong to the open file description, so
/// two holders conflict whether they are in two processes or in one; the kernel drops
/// the lock when a process dies.
///
/// ``release()`` may come from another thread than the one that took the lock — on iOS
/// from a background task's expiration handler, which must let go of every lock on a
/// file in a shared container before the app is suspended (else the system ends the app
/// with `0xdead10cc`) — so the descriptor is guarded by a lock of its own.
// `Mutex` would need iOS 18, so an `NSLock` guards the descriptor instead.
final class FileLock: TokenStoreLock, @unchecked Sendable {
    /// How long to wait between attempts while the lock is taken.
    static let retryInterval: UInt64 = 10_000_000

    private let guardLock = NSLock()
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the lock on `path` (created 0600 if missing, with Data Protection class
    /// ``FileProtection/none``: it holds no secret, and a background refresh before the first
    /// unlock after a restart must open it too), polling without blocking a thread, for up
    /// to `timeout` seconds.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked` (`lock_timeout`; or
    ///   `protected_data_unavailable`: `EPERM`/`EACCES`, a lock file an earlier version left
    ///   with a stricter class, before the first unlock) or `token_store_failed`;
    ///   `CancellationError` if the task is cancelled while waiting.
    static func acquire(path: String, timeout: Double) async throws -> FileLock {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw FileProtection.storeError(errno: errno) }
        let lock = FileLock(descriptor: descriptor)
        // A lock file made by an earlier version got its directory's class; this one needs none.
        try FileProtection.none.apply(to: path)
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw FileProtection.storeError(errno: errno) }
            guard Date() < deadline else { throw LatchkeyClientError(.tokenStoreLocked, reasons: ["lock_timeout"]) }
            try await Task.sleep(nanoseconds: retryInterval)
        }
        return lock
    }

    /// Releases the lock; later calls do nothing.
    func release() {
        guardLock.lock()
        defer { guardLock.unlock() }
        guard descriptor >= 0 else { return }
        // Closing the only descriptor of the open file description releases the lock.
        close(descriptor)
        descriptor = -1
    }
}
