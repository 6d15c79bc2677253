public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``TokenStore`` that keeps the tokens in one JSON file, for command-line tools on
/// Linux and macOS (and an app that chooses a file over the Keychain).
///
/// On Apple platforms the token file gets the Data Protection class ``protection``
/// (``FileProtection/complete`` by default; ``FileProtection/completeUntilFirstUserAuthentication``
/// when a background refresh must read it while the device is locked — see
/// ``FileProtection/init(matching:)``), and the lock file ``FileProtection/none``: it holds
/// no secret and must open before the first unlock. A file the device's protection keeps
/// shut (`EPERM`, `EACCES`) is `token_store_locked`, never "signed out".
///
/// Promises: the directory is mode 0700 (tightened if it already exists with more), the
/// file is created with mode 0600 and never exists with wider permissions, and a
/// ``save(_:)`` writes a temporary file in the same directory, flushes it and renames it
/// over the old one, so a reader sees the old tokens or the new ones, never a mix —
/// also across processes. A file that is not valid tokens (or larger than 64 KiB) is
/// reported as `token_store_corrupted` rather than treated as "signed out". Processes
/// sharing the directory can take turns with ``acquireExclusiveLock(timeout:)``, which
/// ``AuthSession`` uses around every refresh.
///
/// It is also a ``DeviceTokenStore``: each server's device token in a file of its own in the
/// same directory (``deviceFileName(for:)``), with the same promises; ``clear()`` leaves it.
public struct FileTokenStore: LockingTokenStore {
    /// The file name inside ``directory``.
    public static let fileName = "tokens.json"
    /// The largest token file read; a bigger one is corrupted.
    static let maximumFileSize = 64 * 1024

    /// The directory holding the token file.
    public let directory: URL
    /// The token file's Data Protection class.
    public let protection: FileProtection

    /// The token file: ``directory`` / ``fileName``.
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    /// The lock file next to the token file (see ``acquireExclusiveLock(timeout:)``).
    public static let lockFileName = "tokens.lock"

    /// A store in `directory`, which is created (mode 0700) on the first save, whose token
    /// file gets the Data Protection class `protection`.
    public init(directory: URL, protection: FileProtection = .complete) {
        self.directory = directory
        self.protection = protection
    }

    /// A store in ``defaultDirectory(environment:)``.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(directory: Self.defaultDirectory(environment: environment))
    }

    /// `$XDG_STATE_HOME/latchkey` when `XDG_STATE_HOME` is an absolute path (the XDG
    /// Base Directory rule: relative values are ignored), else
    /// `$HOME/.local/state/latchkey` (the home directory of the process when `HOME` is
    /// unset or relative).
    public static func defaultDirectory(environment: [String: String]) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("latchkey", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/state/latchkey", isDirectory: true)
    }

    /// The stored tokens, or nil when there is no token file.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_corrupted` when the file is not
    ///   valid tokens, `token_store_failed` when it cannot be read.
    public func load() throws -> StoredTokens? {
        guard let data = try read(named: Self.fileName) else { return nil }
        guard data.count <= Self.maximumFileSize,
            let tokens = try? JSONDecoder().decode(StoredTokens.self, from: data)
        else { throw LatchkeyClientError(.tokenStoreCorrupted) }
        return tokens
    }

    /// Atomically replaces the token file with `tokens`, creating the directory if needed.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`.
    public func save(_ tokens: StoredTokens) throws {
        let data: Data
        do {
            data = try JSONEncoder().encode(tokens)
        } catch {
            throw LatchkeyClientError(.tokenStoreFailed)
        }
        try write(data, named: Self.fileName, protection: protection)
    }

    /// Atomically replaces the file `name` in ``directory`` with `data`, creating the directory
    /// if needed: a temporary file made with mode 0600 and given `protection` while still
    /// empty, written, flushed, then renamed over the old one.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`, `token_store_locked`.
    func write(_ data: Data, named name: String, protection: FileProtection) throws {
        try prepareDirectory()
        let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw FileProtection.storeError(errno: errno) }
        do {
            // The class is set while the file is still empty, before any secret is in it.
            try protection.apply(to: temporary)
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            unlink(temporary)
            throw error as? LatchkeyClientError ?? LatchkeyClientError(.tokenStoreFailed)
        }
        guard rename(temporary, directory.appendingPathComponent(name).path) == 0 else {
            let failure = Self.failure()
            unlink(temporary)
            throw failure
        }
    }

    /// The contents of the file `name` in ``directory`` (at most ``maximumFileSize`` + 1
    /// bytes, not following a symbolic link), or nil when there is no such file.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`, `token_store_locked`.
    func read(named name: String) throws -> Data? {
        let descriptor = open(directory.appendingPathComponent(name).path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw FileProtection.storeError(errno: errno)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            return try handle.read(upToCount: Self.maximumFileSize + 1) ?? Data()
        } catch {
            throw LatchkeyClientError(.tokenStoreFailed)
        }
    }

    /// Deletes the file `name` in ``directory``; succeeds when there is none.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`.
    func remove(named name: String) throws {
        guard unlink(directory.appendingPathComponent(name).path) == 0 || errno == ENOENT else { throw Self.failure() }
    }

    /// Deletes the token file; succeeds when there is none.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`.
    public func clear() throws {
        try remove(named: Self.fileName)
    }

    /// Takes an exclusive `flock(2)` on ``lockFileName`` in ``directory`` (created 0600),
    /// waiting up to `timeout` seconds; see ``LockingTokenStore``. The lock is a separate
    /// file because the token file is replaced by rename on every save, and a lock on a
    /// replaced file guards nothing.
    public func acquireExclusiveLock(timeout: Double) async throws -> any TokenStoreLock {
        try prepareDirectory()
        return try await FileLock.acquire(path: directory.appendingPathComponent(Self.lockFileName).path, timeout: timeout)
    }

    /// Creates the directory with mode 0700, or tightens an existing one to 0700.
    private func prepareDirectory() throws {
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw LatchkeyClientError(.tokenStoreFailed)
        }
        if mkdir(directory.path, 0o700) != 0 {
            guard errno == EEXIST else { throw Self.failure() }
            var status = stat()
            guard stat(directory.path, &status) == 0 else { throw Self.failure() }
            guard status.st_mode & S_IFMT == S_IFDIR else { throw LatchkeyClientError(.tokenStoreFailed) }
            if status.st_mode & 0o777 != 0o700, chmod(directory.path, 0o700) != 0 { throw Self.failure() }
        }
    }

    /// `token_store_failed` naming the current `errno`, for logs.
    private static func failure() -> LatchkeyClientError {
        LatchkeyClientError(.tokenStoreFailed, reasons: ["errno \(errno)"])
    }
}
