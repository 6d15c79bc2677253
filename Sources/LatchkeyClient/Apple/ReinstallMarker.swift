public import Foundation

/// Detects the first launch after an install, for ``KeychainOptions/wipeOnReinstall``:
/// iOS deletes an app's `UserDefaults` with the app but keeps its Keychain items, so a
/// missing marker in `UserDefaults` next to an existing Keychain item means the app was
/// reinstalled.
public struct ReinstallMarker: @unchecked Sendable {
    // `UserDefaults` is documented as thread-safe but not marked Sendable.
    private let defaults: UserDefaults
    private let key: String

    /// The marker for the item `service`/`account` in `defaults`.
    public init(defaults: UserDefaults, service: String, account: String) {
        self.defaults = defaults
        self.key = "dev.latchkey.installed." + service + "." + account
    }

    /// Whether this is the first launch since the install: the marker is absent. It stays
    /// true until ``markInstalled()``.
    public var isFirstLaunchAfterInstall: Bool { !defaults.bool(forKey: key) }

    /// Sets the marker, once the first-launch work (the wipe) has succeeded.
    public func markInstalled() {
        defaults.set(true, forKey: key)
    }
}
