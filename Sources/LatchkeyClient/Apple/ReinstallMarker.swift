public import Foundation

/// Detects the first launch after an install, for ``KeychainOptions/wipeOnReinstall``:
/// iOS deletes an app's container with the app but keeps its Keychain items, so a
/// missing marker file next to an existing Keychain item means the app was reinstalled.
///
/// The marker is a file, not a `UserDefaults` key: before the first unlock after a
/// reboot (when iOS may prewarm the app) `UserDefaults` reads as empty, while whether a
/// file exists can be told at any time (file-system metadata is not protected by a
/// data-protection class; only contents are).
public struct ReinstallMarker: Sendable {
    /// The marker file.
    public let file: URL

    /// The marker at `file` (see ``KeychainSupportFiles/installMarker``).
    public init(file: URL) {
        self.file = file
    }

    /// Whether this is the first launch since the install: the marker is absent. It stays
    /// true until ``markInstalled()``.
    public var isFirstLaunchAfterInstall: Bool { !FileManager.default.fileExists(atPath: file.path) }

    /// Creates the marker (mode 0600; its directory must exist, see
    /// ``KeychainSupportFiles/prepareDirectory()``) once the first-launch work (the wipe)
    /// has succeeded; does nothing when it exists.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed` when it cannot be written.
    public func markInstalled() throws {
        guard FileManager.default.fileExists(atPath: file.path)
            || FileManager.default.createFile(atPath: file.path, contents: Data(), attributes: [.posixPermissions: 0o600])
        else { throw LatchkeyClientError(.tokenStoreFailed, reasons: ["install_marker"]) }
    }
}
