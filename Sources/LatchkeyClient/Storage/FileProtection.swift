public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Data Protection class of a file the SDK writes (`FileProtectionType`), chosen for what
/// the file holds: on iOS a file's contents can be read only while its class allows, and a
/// new file otherwise gets its directory's (or the container's) default. Setting it is
/// `FileManager.setAttributes([.protectionKey: …])`, which Linux accepts and ignores.
public enum FileProtection: Sendable, Equatable, CaseIterable {
    /// Readable only while the device is unlocked (`.complete`): tokens an app uses in
    /// the foreground.
    case complete
    /// Readable from the first unlock after a restart on (`.completeUntilFirstUserAuthentication`):
    /// tokens a background refresh must read while the device is locked.
    case completeUntilFirstUserAuthentication
    /// Always readable (`.none`): only for files that hold no secret — a lock file, which
    /// must open before the first unlock too. A secret in such a file is an open door while
    /// the device is locked.
    case none

    /// The class of a token file kept as readable as the app chose for its Keychain item:
    /// `…AfterFirstUnlock…` (background refresh) → ``completeUntilFirstUserAuthentication``,
    /// every other accessibility → ``complete``.
    public init(matching accessibility: KeychainOptions.Accessibility) {
        switch accessibility {
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: self = .completeUntilFirstUserAuthentication
        case .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: self = .complete
        }
    }

    /// The `FileProtectionType`.
    public var type: FileProtectionType {
        switch self {
        case .complete: .complete
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        case .none: .none
        }
    }

    /// Gives the file or directory at `path` this class.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed` (`file_protection`).
    func apply(to path: String) throws {
        do {
            try FileManager.default.setAttributes([.protectionKey: type], ofItemAtPath: path)
        } catch {
            throw LatchkeyClientError(.tokenStoreFailed, reasons: ["file_protection"])
        }
    }

    /// The error for a file the store could not open or write: `EPERM` or `EACCES` — what
    /// iOS answers for a file whose class is not available yet (the device locked, or not
    /// unlocked since a restart) — is `token_store_locked` (`protected_data_unavailable`,
    /// retryable); any other `errno` is `token_store_failed`.
    package static func storeError(errno code: Int32) -> LatchkeyClientError {
        switch code {
        case EPERM, EACCES: LatchkeyClientError(.tokenStoreLocked, reasons: ["protected_data_unavailable"])
        default: LatchkeyClientError(.tokenStoreFailed, reasons: ["errno \(code)"])
        }
    }
}
