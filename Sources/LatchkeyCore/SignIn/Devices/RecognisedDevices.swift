package import Foundation
import LatchkeyCrypto

/// The devices an account signed in from, and what a sign-in from a new one sets off: the
/// device token a sign-in hands back, whether a presented token is a recognised device of an
/// account (for the limits of guessable methods, see ``PasswordSignIn``), and the notice of a
/// sign-in from a new device. ``SignInService/recordDevice(_:presented:origin:)`` is the one
/// place every sign-in method's route records its device through.
///
/// Promises:
/// - A device is recognised only for an account it signed in to, under the account's current
///   credential version (a completed reset or a password change forgets every device: an
///   attacker who reset the password and signed in is not recognised once the owner has reset
///   it back), and only within ``Settings/lifetime`` of its last sign-in; each account keeps its
///   ``Settings/devicesPerAccount`` most recently used devices.
/// - A presented token is kept only when this server issued it (some account has it), so one
///   token names one device for every account signed in from it; any other gets a fresh one.
/// - The first sign-in from a device that is not recognised, on an account that signed in
///   before, queues one mail to the account (in its language, else English: the request's
///   `Accept-Language` may be an attacker's) saying when, from what and from where (the user
///   agent's family and the truncated address), with a link to the reset page; at most one an
///   hour per account, none when ``Settings/notices`` is off. Refreshes never come here.
package struct RecognisedDevices: Sendable {
    /// How devices are kept and when notices go out.
    package struct Settings: Sendable {
        /// The devices each account keeps, the most recently used first.
        package var devicesPerAccount: Int = 20
        /// How long after its last sign-in a device stays recognised.
        package var lifetime: TimeInterval = 365 * 86_400
        /// Whether new-device notices are mailed (`LATCHKEY_NEW_DEVICE_MAIL`).
        package var notices: Bool
        /// The web reset page the notice links to (its `?lang=` is added).
        package var resetPageURL: String

        /// Settings with the documented defaults: 20 devices per account, each recognised for a
        /// year after its last sign-in.
        package init(notices: Bool, resetPageURL: String) {
            self.notices = notices
            self.resetPageURL = resetPageURL
        }
    }

    /// At most one new-device notice per account in an hour.
    package static let noticePolicy = RateLimitPolicy(windows: [.init(limit: 1, seconds: 3600)])

    private let store: any RecognisedDeviceStore & OutboxStore
    private let limiter: any RateLimiter
    private let templates: MailTemplates
    private let settings: Settings
    private let clock: any WallClock
    private let logger: Logger

    /// Creates it from its dependencies.
    package init(
        store: any RecognisedDeviceStore & OutboxStore, limiter: any RateLimiter, templates: MailTemplates, settings: Settings,
        clock: any WallClock, logger: Logger
    ) {
        self.store = store
        self.limiter = limiter
        self.templates = templates
        self.settings = settings
        self.clock = clock
        self.logger = logger
    }

    /// Whether `device` is a recognised device of `account` at `now`.
    package func isRecognised(_ device: DeviceToken?, of account: Account, now: Date) throws -> Bool {
        guard let device else { return false }
        return try store.isRecognisedDevice(
            accountID: account.id, tokenDigest: device.digest, credentialVersion: account.credentialVersion,
            usedSince: now.addingTimeInterval(-settings.lifetime))
    }

    /// Records that `account` signed in from the device that presented `presented` (nil: none,
    /// or one not shaped like ours), started from `origin`; returns the device's token, the
    /// presented one when it was ours, else a new one. Queues the new-device notice when due.
    package func signedIn(_ account: Account, presented: DeviceToken?, origin: LoginOrigin) throws -> DeviceToken {
        let now = clock.now()
        let fresh = DeviceToken.generate()
        let record = try store.recordDeviceSignIn(
            accountID: account.id, credentialVersion: account.credentialVersion, presentedDigest: presented?.digest,
            freshDigest: fresh.digest, now: now, expiredBefore: now.addingTimeInterval(-settings.lifetime),
            keep: settings.devicesPerAccount)
        let device = record.keptPresented ? presented ?? fresh : fresh
        guard !record.wasRecognised, record.accountHadDevices else { return device }
        guard settings.notices else { return device }
        guard try limiter.consume("new-device-mail:" + account.id, policy: Self.noticePolicy, now: now) == .allowed else {
            logger.info("new_device_notice_skipped", ["account": .string(account.id)])
            return device
        }
        let language = SupportedLanguage.negotiate(explicit: nil, acceptLanguage: nil, accountLocale: account.locale)
        let message = try templates.render(
            .newDeviceSignIn(
                signedInAt: now, device: origin.userAgent, address: origin.ip,
                resetPageURL: settings.resetPageURL + "?lang=" + language.rawValue),
            to: account.email, language: language, id: SecureRandom.identifier())
        try store.enqueue(message, now: now)
        logger.info("new_device_notice_queued", ["account": .string(account.id)])
        return device
    }
}
