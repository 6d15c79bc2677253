package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// write(2), named apart from ``KeyFile/write(_:to:replacing:)``.
private let posixWrite = write

/// Writing the server's key files (signing keys, the address key): private from their first
/// byte, never half written, and safe when several instances start at once on a shared
/// directory.
package enum KeyFile {
    /// Writes `data` to `file` through a temporary file created with `O_CREAT | O_EXCL` at mode
    /// 0600 (so no other user can open it at any moment, whatever the umask) and flushed to
    /// disk, then renamed over the file when `replacing` (atomic: a crash leaves the old or the
    /// new content, never half), else hard-linked into place, which leaves a file that already
    /// exists untouched — so of racing creators exactly one wins, and the others read the
    /// winner's file.
    package static func write(_ data: Data, to file: URL, replacing: Bool) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw LatchkeyError(.invalidConfiguration, "Cannot write the key file \(file.path)", detail: String(cString: strerror(errno)))
        }
        defer { unlink(temporary.path) }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = posixWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        let flushed = fsync(descriptor) == 0
        guard close(descriptor) == 0, written, flushed else {
            throw LatchkeyError(.invalidConfiguration, "Cannot write the key file \(file.path)", detail: String(cString: strerror(errno)))
        }
        if replacing {
            guard rename(temporary.path, file.path) == 0 else {
                throw LatchkeyError(.invalidConfiguration, "Cannot replace the key file \(file.path)", detail: String(cString: strerror(errno)))
            }
        } else if link(temporary.path, file.path) != 0, errno != EEXIST {
            throw LatchkeyError(.invalidConfiguration, "Cannot create the key file \(file.path)", detail: String(cString: strerror(errno)))
        }
    }

    /// Runs `body` while holding an exclusive `flock(2)` on a lock file beside `file`
    /// (`.NAME.lock`, mode 0600), so that read-modify-write updates of `file` by several
    /// processes on one directory happen one after the other. The kernel drops the lock if
    /// the process dies.
    package static func whileLocked<Result>(_ file: URL, _ body: () throws -> Result) throws -> Result {
        let lockPath = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw LatchkeyError(.invalidConfiguration, "Cannot open the lock file \(lockPath)", detail: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw LatchkeyError(.invalidConfiguration, "Cannot lock \(lockPath)", detail: String(cString: strerror(errno)))
            }
        }
        return try body()
    }
}
