package import LatchkeyCore
package import LatchkeyCrypto
import Foundation

/// The embedded ``Store``: one SQLite file in WAL mode, read through a pool of reader
/// connections and written through one writer connection (see ``SQLiteDatabase``).
///
/// Safe to share between threads (reads run in parallel and never wait for a write), and
/// between instances or processes opening the same file: every change is one
/// `BEGIN IMMEDIATE` transaction, which excludes every other writer, and the changes that
/// must have a single winner (consuming a reset token, leasing mail) are single
/// conditional `UPDATE … RETURNING` statements. The store logic is ``SQLStore``'s, shared
/// with ``PostgresStore``; see ``Migrations`` for the schema and how values are encoded.
package final class SQLiteStore: Sendable, SQLStore {
    let database: SQLiteDatabase
    let clock: any WallClock
    let mailBox: SecretBox

    /// Whether a database file exists at `path`. Throws `storage_error` naming the directory
    /// and the permission missing when it cannot be reached or used, so a permission problem
    /// is never taken for a missing database.
    package static func databaseExists(at path: String) throws -> Bool {
        try SQLiteFileAccess.databaseExists(at: path)
    }

    /// The default number of reader connections: the CPUs this process may run on, at least 2.
    package static var defaultReaders: Int { SQLiteDatabase.defaultReaderLimit }

    /// Opens the database at `path` with at most `readers` reader connections (opened when
    /// first needed) beside the one writer. With `creating` (the default), the file (mode 0600)
    /// and any missing parent directories (mode 0700) are created first; without it, a missing
    /// file is an error, so a command pointed at the wrong place never starts an empty
    /// database. Does not migrate: call ``migrate()`` before use. `mailBox` seals the bodies
    /// of waiting mail (see ``SQLStore/mailBox``); it is made once the database file is found
    /// usable. `clock` stamps the few
    /// changes whose methods take no `now` (migration records, status changes). Throws
    /// `storage_error` when the directory or the database cannot be created or opened, naming
    /// the file and the permission that is missing (see ``SQLiteFileAccess``).
    package init(
        path: String, mailBox: @autoclosure () throws -> SecretBox, readers: Int = SQLiteStore.defaultReaders, creating: Bool = true,
        clock: any WallClock = SystemClock()
    ) throws {
        if creating {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw LatchkeyError(
                    .storage, "The database directory could not be created.", detail: "\(directory): \(error)")
            }
            // SQLite would create the file with the process's umask; it holds password hashes, so
            // it is created 0600 first. When it exists already (or another process wins the race),
            // opening reports any real problem.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if descriptor >= 0 { close(descriptor) }
        } else if try !SQLiteFileAccess.databaseExists(at: path) {
            throw LatchkeyError(.storage, "There is no database at \(path).")
        }
        try SQLiteFileAccess.check(databasePath: path)
        database = try SQLiteDatabase(path: path, readers: max(1, readers))
        self.clock = clock
        // Only now: a database that cannot be used is named before a key file that cannot.
        self.mailBox = try mailBox()
    }
}

extension SQLiteStore: AccountStore, ResetTokenStore, OutboxStore, ClientStore, SessionStore, AuthorizationStore,
    RegistrationStore, AccountChangeStore, EmailChangeStore, MaintenanceStore, SecondFactorStore, RecognisedDeviceStore,
    PasskeyStore {}
