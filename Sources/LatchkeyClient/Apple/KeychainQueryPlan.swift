/// The Keychain queries ``KeychainTokenStore`` runs and every choice between them, as
/// plain values: the decisions are made here, in portable code that the Linux tests
/// cover, and the Apple-only store merely translates each ``Attribute`` to its `kSec…`
/// constant and runs the calls the plan names.
///
/// Decisions:
/// - The item is a generic password identified by service, account and (if set) access
///   group; it is never synchronizable, and on macOS lives in the data-protection keychain.
/// - Without user presence the item gets `kSecAttrAccessible`; with it, a
///   `SecAccessControl` carrying the accessibility and the flag instead (setting both is
///   `errSecParam`). User presence requires a *ThisDeviceOnly* accessibility.
/// - The item carries its protection as a tag (``protectionTag``, in `kSecAttrGeneric`),
///   read without the data and without any prompt (``auditQuery``), so a change of
///   options is noticed and the item rewritten with the new protection (``loadAction(for:isFirstLaunchAfterInstall:)``).
/// - Reading an access-controlled item uses the store's one authentication context
///   (`kSecUseAuthenticationContext`): once the person passed Face ID, further reads do
///   not ask again until the store is told to (``KeychainTokenStore/requireAuthentication()``).
/// - An access-controlled item is never updated in place (`SecItemUpdate` on it asks for
///   Face ID): saving deletes it and adds the new one, which asks for nothing.
public struct KeychainQueryPlan: Sendable, Equatable {
    /// One entry of a Keychain query or attribute dictionary.
    public enum Attribute: Sendable, Hashable {
        /// `kSecClass: kSecClassGenericPassword`.
        case classGenericPassword
        /// `kSecAttrService`.
        case service(String)
        /// `kSecAttrAccount`.
        case account(String)
        /// `kSecAttrAccessGroup`.
        case accessGroup(String)
        /// `kSecAttrSynchronizable: false`.
        case notSynchronizable
        /// `kSecUseDataProtectionKeychain: true` (macOS; ignored on iOS).
        case dataProtectionKeychain
        /// `kSecAttrAccessible`.
        case accessible(KeychainOptions.Accessibility)
        /// `kSecAttrAccessControl`: `SecAccessControlCreateWithFlags(accessibility, flag)`.
        case accessControl(KeychainOptions.Accessibility, KeychainOptions.UserPresence)
        /// `kSecAttrGeneric`: the tag naming the protection the item was written with.
        case protectionTag(String)
        /// `kSecReturnData: true`.
        case returnData
        /// `kSecReturnAttributes: true`.
        case returnAttributes
        /// `kSecMatchLimit: kSecMatchLimitOne`.
        case matchLimitOne
        /// `kSecUseAuthenticationContext`: the store's shared `LAContext`, whose
        /// `localizedReason` is ``KeychainOptions/authenticationPrompt``.
        case authenticationContext
        /// `kSecUseAuthenticationContext`: an `LAContext` with `interactionNotAllowed`,
        /// so the query can never show a prompt.
        case noInteraction
    }

    /// What the Keychain holds for the item, as read by ``auditQuery``.
    public enum ItemState: Sendable, Equatable {
        /// No item.
        case absent
        /// An item, with the ``protectionTag`` it was written with (nil: written without
        /// one, by an earlier version of the SDK).
        case present(protectionTag: String?)
    }

    /// What ``KeychainTokenStore/load()`` does with an item that is present.
    public enum LoadAction: Sendable, Equatable {
        /// Read it.
        case read
        /// Delete it unread: the app was reinstalled and wipes what a previous install left.
        case wipe
        /// Read it and write it back with the current protection (the options changed).
        case migrate
    }

    /// How ``KeychainTokenStore/save(_:)`` writes.
    public enum SaveMethod: Sendable, Equatable {
        /// `SecItemAdd` (on `errSecDuplicateItem` — another writer added it first — the
        /// store replaces the item instead).
        case add
        /// `SecItemUpdate` of the data: a plain item with the current protection.
        case update
        /// `SecItemDelete` then `SecItemAdd`: an access-controlled item (updating it would
        /// ask for Face ID) or one written with other protection.
        case replace
    }

    /// The options the plan was made from.
    public let options: KeychainOptions

    /// A plan for `options`.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` (reason
    ///   `user_presence_needs_this_device_only`) when user presence is asked for with an
    ///   accessibility that lets the item leave the device, or (`empty_identity`) for an
    ///   empty service or account.
    public init(options: KeychainOptions) throws {
        guard !options.service.isEmpty, !options.account.isEmpty else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["empty_identity"])
        }
        if options.userPresence != .none, !options.accessibility.isThisDeviceOnly {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["user_presence_needs_this_device_only"])
        }
        self.options = options
    }

    /// Identifies the item: for update and delete queries.
    public var identity: [Attribute] {
        var attributes: [Attribute] = [.classGenericPassword, .service(options.service), .account(options.account)]
        if let group = options.accessGroup { attributes.append(.accessGroup(group)) }
        return attributes + [.notSynchronizable, .dataProtectionKeychain]
    }

    /// Reads the item's attributes, never its data, never with a prompt
    /// (`SecItemCopyMatching`): whether it exists and with which protection. It succeeds
    /// only while the item's data-protection class is available, so a result proves the
    /// device has been unlocked since it started.
    public var auditQuery: [Attribute] {
        identity + [.returnAttributes, .matchLimitOne, .noInteraction]
    }

    /// Reads the item's data (`SecItemCopyMatching`); an access-controlled item through
    /// the shared authentication context.
    public var loadQuery: [Attribute] {
        identity + [.returnData, .matchLimitOne] + (options.userPresence == .none ? [] : [.authenticationContext])
    }

    /// Creates the item (`SecItemAdd`); the store adds `kSecValueData`.
    public var addAttributes: [Attribute] {
        identity + [protection, .protectionTag(protectionTag)]
    }

    /// The item's protection: accessibility alone, or an access control with the flag.
    public var protection: Attribute {
        options.userPresence == .none
            ? .accessible(options.accessibility) : .accessControl(options.accessibility, options.userPresence)
    }

    /// What the device must have set up before an item with this protection can be added.
    public enum DeviceRequirement: Sendable, Equatable {
        /// A device passcode (`LAPolicy.deviceOwnerAuthentication` can be evaluated).
        case passcode
        /// Enrolled biometrics (`LAPolicy.deviceOwnerAuthenticationWithBiometrics` can be
        /// evaluated, or fails only for a lockout, which leaves the enrolment in place).
        case enrolledBiometrics
    }

    /// What the device must have for ``protection``: enrolled biometrics for
    /// `biometryCurrentSet`, a passcode for `userPresence` or
    /// `whenPasscodeSetThisDeviceOnly`; nil when nothing. Replacing an item deletes the old
    /// one before adding the new (one item per service and account), so the store checks
    /// this first: an add that cannot succeed must not cost the tokens the old item held.
    public var deviceRequirement: DeviceRequirement? {
        switch options.userPresence {
        case .biometryCurrentSet: .enrolledBiometrics
        case .userPresence: .passcode
        case .none: options.accessibility == .whenPasscodeSetThisDeviceOnly ? .passcode : nil
        }
    }

    /// The tag the item is written with: version, accessibility and user presence, e.g.
    /// `latchkey-protection-1 whenUnlockedThisDeviceOnly none`.
    public var protectionTag: String {
        "latchkey-protection-1 \(options.accessibility.rawValue) \(options.userPresence.rawValue)"
    }

    /// What loading does with a present item written with `storedTag`: wipe it on the
    /// first launch after an install when ``KeychainOptions/wipeOnReinstall`` is set,
    /// migrate it when its protection is not the current one, else read it.
    ///
    /// Only for an item ``auditQuery`` found: that the Keychain answered proves the
    /// device's protected data is available, so neither a prewarm before the first unlock
    /// nor a locked device can make this wipe a live session.
    public func loadAction(for storedTag: String?, isFirstLaunchAfterInstall: Bool) -> LoadAction {
        if options.wipeOnReinstall, isFirstLaunchAfterInstall { return .wipe }
        return storedTag == protectionTag ? .read : .migrate
    }

    /// How to save over `state`.
    public func saveMethod(over state: ItemState) -> SaveMethod {
        switch state {
        case .absent: .add
        case .present(let tag): tag == protectionTag && options.userPresence == .none ? .update : .replace
        }
    }
}
