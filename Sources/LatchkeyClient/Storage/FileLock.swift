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
final class FileLock {
    /// How long to wait between attempts while the lock is taken.
    static let retryInterval: UInt64 = 10_000_000

    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the lock on `path` (created 0600 if missing), polling without blocking a
    /// thread, for up to `timeout` seconds.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked` (`lock_timeout`) or
    ///   `token_store_failed`; `CancellationError` if the task is cancelled while waiting.
    static func acquire(path: String, timeout: Double) async throws -> FileLock {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw LatchkeyClientError(.tokenStoreFailed, reasons: ["errno \(errno)"]) }
        let lock = FileLock(descriptor: descriptor)
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw LatchkeyClientError(.tokenStoreFailed, reasons: ["errno \(errno)"])
            }
            guard Date() < deadline else { throw LatchkeyClientError(.tokenStoreLocked, reasons: ["lock_timeout"]) }
            try await Task.sleep(nanoseconds: retryInterval)
        }
        return lock
    }

    /// Releases the lock; later calls do nothing.
    func release() {
        guard descriptor >= 0 else { return }
        // Closing the only descriptor of the open file description releases the lock.
        close(descriptor)
        descriptor = -1
    }
}
