package import Foundation

/// Writing the server's key files (signing keys, the address key): mode 0600, never half
/// written, and safe when several instances start at once on a shared directory.
package enum KeyFile {
    /// Writes `data` to `file` through a temporary file (mode 0600): renamed over the file
    /// when `replacing` (atomic: a crash leaves the old or the new content, never half), else
    /// hard-linked into place, which leaves a file that already exists untouched — so of
    /// racing creators exactly one wins, and the others read the winner's file.
    package static func write(_ data: Data, to file: URL, replacing: Bool) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw LatchkeyError(.invalidConfiguration, "Cannot write the key file \(file.path)")
        }
        defer { try? FileManager.default.removeItem(at: temporary) }
        if replacing {
            guard rename(temporary.path, file.path) == 0 else {
                throw LatchkeyError(.invalidConfiguration, "Cannot replace the key file \(file.path)")
            }
        } else if link(temporary.path, file.path) != 0, errno != EEXIST {
            throw LatchkeyError(.invalidConfiguration, "Cannot create the key file \(file.path)")
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
            throw LatchkeyError(.invalidConfiguration, "Cannot open the lock file \(lockPath)", detail: "errno \(errno)")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw LatchkeyError(.invalidConfiguration, "Cannot lock \(lockPath)", detail: "errno \(errno)")
            }
        }
        return try body()
    }
}
