import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks, before a file is used, that this process may use it as it must, and says in words
/// which file, which user and which permission is missing — where the library that uses the
/// file would report something vaguer ("a statement could not be prepared") or worse (a key
/// file it cannot read taken for a missing one). Checks the effective user, as the kernel does.
package enum FileAccess {
    /// What a file or directory must allow.
    package enum Need: Sendable {
        /// Read a file.
        case read
        /// Read and write a file.
        case readWrite
        /// List a directory and open what is in it (read and search).
        case readDirectory
        /// Create and remove files in a directory (write and search).
        case writeInDirectory

        fileprivate var mode: Int32 {
            switch self {
            case .read: R_OK
            case .readWrite: R_OK | W_OK
            case .readDirectory: R_OK | X_OK
            case .writeInDirectory: W_OK | X_OK
            }
        }

        fileprivate var words: String {
            switch self {
            case .read: "read permission"
            case .readWrite: "read and write permission"
            case .readDirectory: "read and search permission"
            case .writeInDirectory: "write and search permission"
            }
        }
    }

    /// Whether `path` exists: false when it, or a directory on its way, does not. Throws
    /// ``LatchkeyError`` with `code` when it cannot be reached (a directory above it lacks
    /// search permission), so a permission problem is never taken for a missing file.
    package static func exists(_ path: String, what: String, code: LatchkeyError.Code) throws -> Bool {
        var status = stat()
        if stat(path, &status) == 0 { return true }
        let failure = errno
        if failure == ENOENT || failure == ENOTDIR { return false }
        throw LatchkeyError(
            code, "\(what) \(path) cannot be reached by \(currentUser): \(String(cString: strerror(failure))) "
                + "(a directory above it lacks search permission?). Run the command as the server's user, or fix the permissions.")
    }

    /// Throws ``LatchkeyError`` with `code` when the existing `path` does not allow `need` to
    /// this process, naming the file, the user, the file's owner and mode, and `purpose` (why
    /// the permission is needed) when given.
    package static func require(_ need: Need, of path: String, what: String, purpose: String? = nil, code: LatchkeyError.Code) throws {
        guard faccessat(AT_FDCWD, path, need.mode, AT_EACCESS) != 0 else { return }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw LatchkeyError(code, "\(what) \(path) cannot be used by \(currentUser): \(String(cString: strerror(errno))).")
        }
        let mode = String(status.st_mode & 0o7777, radix: 8)
        let owner = userName(status.st_uid).map { "\($0) (uid \(status.st_uid))" } ?? "uid \(status.st_uid)"
        let reason = purpose.map { " (\($0))" } ?? ""
        throw LatchkeyError(
            code,
            "\(what) \(path) is not usable by \(currentUser): it needs \(need.words)\(reason), but it is owned by \(owner) "
                + "with mode 0\(mode). Run the command as the server's user, or fix the permissions.")
    }

    /// The effective user, by name and uid.
    private static var currentUser: String {
        userName(geteuid()).map { "\($0) (uid \(geteuid()))" } ?? "uid \(geteuid())"
    }

    private static func userName(_ uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}
