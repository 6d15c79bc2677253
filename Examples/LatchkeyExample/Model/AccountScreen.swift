public import Foundation
public import LatchkeyClient

/// The Account screen's content: the account (its address) and the devices signed in to it,
/// as loaded from the server.
public struct AccountScreen: Sendable, Equatable {
    /// Where loading is.
    public enum Step: Sendable, Equatable {
        /// The account and its devices are being read.
        case loading
        /// Both are shown.
        case loaded
        /// Reading failed; the message says why.
        case failed(String)
    }

    /// Where loading is.
    public private(set) var step = Step.loading
    /// The account, once read.
    public private(set) var account: UserAccount?
    /// The devices signed in to it, most recently used first.
    public private(set) var devices: [SignedInDevice] = []
    /// Why signing a device out failed, if it did.
    public private(set) var deviceError: String?
    /// The account's passkeys, newest first.
    public private(set) var passkeys: [Passkey] = []
    /// Why adding or removing a passkey failed, if it did.
    public private(set) var passkeyError: String?
    /// Whether a passkey is being added.
    public private(set) var isAddingPasskey = false

    /// A screen that is loading.
    public init() {}

    /// The account and its devices were read.
    public mutating func loaded(_ account: UserAccount, devices: [SignedInDevice]) {
        self.account = account
        self.devices = devices
        deviceError = nil
        step = .loaded
    }

    /// The account's passkeys were read.
    public mutating func passkeysLoaded(_ passkeys: [Passkey]) {
        self.passkeys = passkeys
    }

    /// "Add a passkey" started; false (and nothing changes) while one is being added.
    public mutating func startAddingPasskey() -> Bool {
        guard !isAddingPasskey else { return false }
        isAddingPasskey = true
        passkeyError = nil
        return true
    }

    /// Adding a passkey ended: with the new one, or with `error` shown in `language` — nothing
    /// for a cancelled sheet, which the person chose.
    public mutating func passkeyAdded(_ result: Result<Passkey, LatchkeyClientError>, language: ClientLanguage) {
        isAddingPasskey = false
        switch result {
        case .success(let passkey): passkeys.insert(passkey, at: 0)
        case .failure(let error): passkeyFailed(error, language: language)
        }
    }

    /// `passkey` was removed from the account.
    public mutating func passkeyRemoved(_ passkey: Passkey) {
        passkeys.removeAll { $0.id == passkey.id }
        passkeyError = nil
    }

    /// Adding or removing a passkey failed with `error`, shown in `language`; a cancelled
    /// sheet shows nothing.
    public mutating func passkeyFailed(_ error: LatchkeyClientError, language: ClientLanguage) {
        passkeyError = error.code == .passkeyCancelled ? nil : error.message(for: language)
    }

    /// How the screen names `passkey`: its name, whether it is synced, when it was last used
    /// ("iPhone — synced, last used May 3, 2026"; "never used" before its first sign-in).
    public func summary(of passkey: Passkey, locale: Locale = .current) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.dateStyle = .medium
        formatter.timeStyle = .none
        let kind = passkey.isSynced ? "synced" : "this device only"
        let used = passkey.lastUsedAt.map { "last used \(formatter.string(from: $0))" } ?? "never used"
        return "\(passkey.name) — \(kind), \(used)"
    }

    /// Reading failed with `error`, shown in `language`; what was shown before stays.
    public mutating func loadFailed(_ error: LatchkeyClientError, language: ClientLanguage) {
        step = .failed(error.message(for: language))
    }

    /// Signing a device out failed with `error`, shown in `language`.
    public mutating func deviceSignOutFailed(_ error: LatchkeyClientError, language: ClientLanguage) {
        deviceError = error.message(for: language)
    }

    /// How the screen names `device`: what it is and when it was last used, and whether it is
    /// this one ("Safari on iOS, last used May 3, 2026 at 10:00 AM (this device)").
    public func summary(of device: SignedInDevice, locale: Locale = .current) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        let name = device.userAgent ?? device.clientID ?? "Unknown device"
        return "\(name), last used \(formatter.string(from: device.lastUsedAt))" + (device.isCurrent ? " (this device)" : "")
    }
}
