/// How ``KeychainTokenStore`` keeps the tokens: which item, who may read it, when. Plain
/// values, so every choice is checked on any platform (see ``KeychainItemStore``).
public struct KeychainOptions: Sendable, Equatable {
    /// When the item can be read (`kSecAttrAccessible…`).
    public enum Accessibility: String, Sendable, CaseIterable {
        /// While the device is unlocked; never leaves the device (not in backups restored
        /// elsewhere, not in iCloud Keychain). The default.
        case whenUnlockedThisDeviceOnly
        /// After the first unlock since boot, for background refresh; never leaves the device.
        case afterFirstUnlockThisDeviceOnly
        /// While unlocked, only if the device has a passcode; deleted if the passcode is removed.
        case whenPasscodeSetThisDeviceOnly
        /// While unlocked; may move to a new device through an encrypted backup.
        case whenUnlocked
        /// After the first unlock; may move to a new device through an encrypted backup.
        case afterFirstUnlock

        /// Whether the item stays on this device.
        public var isThisDeviceOnly: Bool { rawValue.hasSuffix("ThisDeviceOnly") }
    }

    /// Whether reading the item needs the person (`SecAccessControl` flags).
    public enum UserPresence: String, Sendable, CaseIterable {
        /// No extra check beyond ``Accessibility``.
        case none
        /// Face ID or Touch ID with the biometrics enrolled now (`.biometryCurrentSet`):
        /// enrolling another face or finger makes the item unreadable.
        case biometryCurrentSet
        /// Biometrics or the device passcode (`.userPresence`).
        case userPresence
    }

    /// `kSecAttrService`.
    public var service: String
    /// `kSecAttrAccount`: the item's name; the store writes each save as a new item named
    /// `<account>#<generation>` before removing the older ones (see ``KeychainItemStore``).
    public var account: String
    /// `kSecAttrAccessGroup`, to share the tokens with app extensions or other apps of
    /// the same team (`TEAMID.group.name`, listed in the Keychain Sharing entitlement). An
    /// item the app wrote before it had one (in its default group) is still read, and moved
    /// into this group by the next save.
    public var accessGroup: String?
    /// When a new item can be read; default ``Accessibility/whenUnlockedThisDeviceOnly``.
    public var accessibility: Accessibility
    /// Whether reading a new item needs Face ID, Touch ID or the passcode; default none.
    public var userPresence: UserPresence
    /// The sentence under the system's Face ID or passcode sheet when the store asks for
    /// the item (``AuthenticatingTokenStore/authenticate()``); required with ``userPresence``.
    public var authenticationPrompt: String?
    /// Treat an item a previous installation of the app left behind as absent, and remove
    /// it with the next save or sign-out: iOS keeps Keychain items when an app is deleted,
    /// so a reinstalled app would otherwise find the previous person's session. An item is
    /// left over when it was created before the app's own container; app extensions never
    /// decide this (their containers are not the app's). Off by default.
    public var wipeOnReinstall: Bool
    /// The App Group (`group.com.example.shared`, in the App Groups entitlement of the
    /// app and of each extension sharing the item through ``accessGroup``). Its container
    /// holds the lock file that lets the app and its extensions take turns refreshing
    /// (so the session is refreshed once, never twice with one refresh token). Without it
    /// the lock file is in the app's own container.
    public var appGroup: String?

    /// Options with the given values; the defaults suit a typical app.
    public init(
        service: String = "dev.latchkey.tokens", account: String = "default", accessGroup: String? = nil,
        accessibility: Accessibility = .whenUnlockedThisDeviceOnly, userPresence: UserPresence = .none,
        authenticationPrompt: String? = nil, wipeOnReinstall: Bool = false, appGroup: String? = nil
    ) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.userPresence = userPresence
        self.authenticationPrompt = authenticationPrompt
        self.wipeOnReinstall = wipeOnReinstall
        self.appGroup = appGroup
    }

    /// The protection new items get: ``accessibility`` and ``userPresence``.
    public var protection: KeychainProtection {
        KeychainProtection(accessibility: accessibility, userPresence: userPresence)
    }
}
