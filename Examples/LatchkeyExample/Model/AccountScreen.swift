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

    /// A screen that is loading.
    public init() {}

    /// The account and its devices were read.
    public mutating func loaded(_ account: UserAccount, devices: [SignedInDevice]) {
        self.account = account
        self.devices = devices
        deviceError = nil
        step = .loaded
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
