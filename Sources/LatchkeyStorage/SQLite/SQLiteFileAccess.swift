import LatchkeyCore
import Foundation

/// Checks, before SQLite opens a database file, that this process may use it (see
/// ``FileAccess``) — SQLite itself would only report "a statement could not be prepared".
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
        guard try FileAccess.exists(directory, what: "The database directory", code: .storage) else {
            throw LatchkeyError(.storage, "The database directory \(directory) does not exist.")
        }
        try FileAccess.require(
            .writeInDirectory, of: directory, what: "The database directory",
            purpose: "SQLite creates \(URL(fileURLWithPath: path).lastPathComponent)-wal and -shm there, also to read", code: .storage)
        for (file, what) in [(path, "The database file"), (path + "-wal", "The database's write-ahead log"),
                             (path + "-shm", "The database's shared-memory file")]
        where try FileAccess.exists(file, what: what, code: .storage) {
            try FileAccess.require(.readWrite, of: file, what: what, code: .storage)
        }
    }

    /// Whether the database file at `path` exists (false also when its directory does not);
    /// throws as ``check(databasePath:)`` when its directory cannot be reached or used, so
    /// that a permission problem is never reported as a missing database.
    static func databaseExists(at path: String) throws -> Bool {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard try FileAccess.exists(directory, what: "The database directory", code: .storage) else { return false }
        try check(databasePath: path)
        return try FileAccess.exists(path, what: "The database file", code: .storage)
    }
}
