import LatchkeyCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Checks, before SQLite opens a database file, that this process may use it, and says in
/// words which file and which permission is missing — SQLite itself would only report "a
/// statement could not be prepared".
///
/// In WAL mode even a read writes: every connection creates or opens `FILE-wal` and
/// `FILE-shm` beside the database. So the directory must be writable and searchable, the
/// database file readable and writable, and the `-wal` and `-shm` files (when they exist,
/// e.g. left behind by a command run as another user) readable and writable — by the
/// process's effective user.
enum SQLiteFileAccess {
    /// Throws ``LatchkeyError`` `storage_error` naming the file, the user this process runs
    /// as, the file's owner and mode, and what is missing; returns when every check passes.
    /// A database file that does not exist yet passes (the writer creates it).
    static func check(databasePath path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard let directoryStatus = status(of: directory) else {
            let failure = errno
            guard failure == ENOENT || failure == ENOTDIR else {
                throw LatchkeyError(
                    .storage, "The database directory \(directory) cannot be reached by \(currentUser): "
                        + "\(String(cString: strerror(failure))) (a directory above it lacks search permission?).")
            }
            throw LatchkeyError(.storage, "The database directory \(directory) does not exist.")
        }
        guard (directoryStatus.st_mode & S_IFMT) == S_IFDIR else {
            throw LatchkeyError(.storage, "The database directory \(directory) is not a directory.")
        }
        guard permits(directory, W_OK | X_OK) else {
            throw denied(
                directory, directoryStatus, what: "The database directory",
                needs: "write and search permission (SQLite creates \(fileName(path))-wal and -shm there, also to read)")
        }
        for (file, what) in [(path, "The database file"), (path + "-wal", "The database's write-ahead log"),
                             (path + "-shm", "The database's shared-memory file")] {
            guard let fileStatus = status(of: file) else { continue }
            guard permits(file, R_OK | W_OK) else {
                throw denied(file, fileStatus, what: what, needs: "read and write permission")
            }
        }
    }

    /// Whether the database file at `path` exists (false also when its directory does not);
    /// throws as ``check(databasePath:)`` when its directory cannot be reached or used, so
    /// that a permission problem is never reported as a missing database.
    static func databaseExists(at path: String) throws -> Bool {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if status(of: directory) == nil, errno == ENOENT || errno == ENOTDIR { return false }
        try check(databasePath: path)
        return status(of: path) != nil
    }

    private static func status(of path: String) -> stat? {
        var result = stat()
        return stat(path, &result) == 0 ? result : nil
    }

    /// Whether the effective user (not the real one, as `access(2)` would check) has `mode`.
    private static func permits(_ path: String, _ mode: Int32) -> Bool {
        faccessat(AT_FDCWD, path, mode, AT_EACCESS) == 0
    }

    private static func denied(_ path: String, _ status: stat, what: String, needs: String) -> LatchkeyError {
        let mode = String(status.st_mode & 0o7777, radix: 8)
        let owner = userName(status.st_uid).map { "\($0) (uid \(status.st_uid))" } ?? "uid \(status.st_uid)"
        return LatchkeyError(
            .storage,
            "\(what) \(path) is not usable by \(currentUser): it needs \(needs), but it is owned by \(owner) with mode 0\(mode). "
                + "Run the command as the server's user, or fix the permissions.")
    }

    /// The effective user, by name and uid.
    private static var currentUser: String {
        userName(geteuid()).map { "\($0) (uid \(geteuid()))" } ?? "uid \(geteuid())"
    }

    private static func userName(_ uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    private static func fileName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }
}
