import CSQLite
import Foundation
import LatchkeyCore

/// A copy of a SQLite database made with SQLite's online backup API (`sqlite3_backup_*`) while
/// servers go on reading and writing it: the copy is the database as one transaction saw it
/// (in WAL mode, writers are not held up while it is read), written to a new file of mode
/// 0600 next to the destination, checked (`PRAGMA quick_check`), synced, and only then renamed
/// into place, so the destination is complete or absent. An existing file is never
/// overwritten.
package enum SQLiteBackup {
    /// What a backup copied.
    package struct Summary: Sendable, Equatable {
        /// Database pages copied.
        package let pages: Int
        /// The copy's size in bytes.
        package let bytes: Int
    }

    /// How long a step waits for a lock before it tries again, and how many times it tries.
    private static let retryDelayMicroseconds: UInt32 = 50_000
    private static let maximumRetries = 200

    /// Copies the database at `source` to a new file at `destination`. Throws `storage_error`
    /// naming the file when the source cannot be read, the destination exists or cannot be
    /// written, or the copy does not check out (the partial file is removed).
    package static func copy(databaseAt source: String, to destination: String) throws -> Summary {
        guard try SQLiteFileAccess.databaseExists(at: source) else {
            throw LatchkeyError(.storage, "There is no database at \(source).")
        }
        try SQLiteFileAccess.check(databasePath: source)
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw LatchkeyError(.storage, "\(destination) exists already; the backup never replaces a file. Choose another name.")
        }
        let directory = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        let partial = directory + "/." + URL(fileURLWithPath: destination).lastPathComponent + ".partial-\(getpid())"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw LatchkeyError(.storage, "The backup cannot be written in \(directory).", detail: String(cString: strerror(errno)))
        }
        close(descriptor)
        do {
            let pages = try copyPages(from: source, to: partial)
            try syncFile(at: partial)
            guard rename(partial, destination) == 0 else {
                throw LatchkeyError(.storage, "The backup cannot be renamed to \(destination).", detail: String(cString: strerror(errno)))
            }
            try syncFile(at: directory)
            let size = ((try? FileManager.default.attributesOfItem(atPath: destination))?[.size] as? Int) ?? 0
            return Summary(pages: pages, bytes: size)
        } catch {
            unlink(partial)
            throw error
        }
    }

    /// Copies every page of `source` into the (empty) database file `target` and checks the
    /// copy; returns the number of pages.
    private static func copyPages(from source: String, to target: String) throws -> Int {
        let reader = try openDatabase(source, flags: SQLITE_OPEN_READWRITE)
        defer { sqlite3_close_v2(reader) }
        let writer = try openDatabase(target, flags: SQLITE_OPEN_READWRITE)
        defer { sqlite3_close_v2(writer) }
        guard let backup = sqlite3_backup_init(writer, "main", reader, "main") else {
            throw failure("The backup could not start", writer)
        }
        var status = SQLITE_OK
        var retries = 0
        // All pages in one step: one read transaction, so the copy is one consistent state.
        repeat {
            status = sqlite3_backup_step(backup, -1)
            if status == SQLITE_BUSY || status == SQLITE_LOCKED {
                retries += 1
                usleep(retryDelayMicroseconds)
            }
        } while (status == SQLITE_BUSY || status == SQLITE_LOCKED) && retries < maximumRetries
        let pages = Int(sqlite3_backup_pagecount(backup))
        sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE else { throw failure("The backup did not finish", writer, code: status) }
        var check: OpaquePointer?
        guard sqlite3_prepare_v2(writer, "PRAGMA quick_check", -1, &check, nil) == SQLITE_OK, let check else {
            throw failure("The backup could not be checked", writer)
        }
        defer { sqlite3_finalize(check) }
        guard sqlite3_step(check) == SQLITE_ROW, let text = sqlite3_column_text(check, 0), String(cString: text) == "ok" else {
            throw LatchkeyError(.storage, "The backup does not check out (PRAGMA quick_check); it was removed.")
        }
        return pages
    }

    private static func openDatabase(_ path: String, flags: Int32) throws -> OpaquePointer {
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "status \(status)"
            sqlite3_close_v2(handle)
            throw LatchkeyError(.storage, "The database \(path) cannot be opened.", detail: detail)
        }
        sqlite3_busy_timeout(handle, 5000)
        return handle
    }

    private static func failure(_ what: String, _ handle: OpaquePointer, code: Int32? = nil) -> LatchkeyError {
        LatchkeyError(.storage, "\(what).", detail: code.map { String(cString: sqlite3_errstr($0)) } ?? String(cString: sqlite3_errmsg(handle)))
    }

    /// `fsync(2)` of the file or directory at `path`.
    private static func syncFile(at path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LatchkeyError(.storage, "\(path) cannot be synced.", detail: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw LatchkeyError(.storage, "\(path) cannot be synced.", detail: String(cString: strerror(errno))) }
    }
}
