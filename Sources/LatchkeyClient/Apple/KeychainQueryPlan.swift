/// The Keychain queries ``KeychainTokenStore`` runs, as plain values: every decision about
/// attributes is made here, in portable code that the Linux tests cover, and the Apple-only
/// store merely translates each ``Attribute`` to its `kSec…` constant.
///
/// Decisions:
/// - The item is a generic password identified by service, account and (if set) access
///   group; it is never synchronizable, and on macOS lives in the data-protection keychain.
/// - Without user presence the item gets `kSecAttrAccessible`; with it, a
///   `SecAccessControl` carrying the accessibility and the flag instead (setting both is
///   `errSecParam`). User presence requires a *ThisDeviceOnly* accessibility.
/// - Saving updates the existing item's data and adds the item only when there is none
///   (update-or-add), so its protection attributes are fixed when it is created.
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
        /// `kSecReturnData: true`.
        case returnData
        /// `kSecMatchLimit: kSecMatchLimitOne`.
        case matchLimitOne
        /// The prompt for Face ID or the passcode (an `LAContext`'s `localizedReason`).
        case authenticationPrompt(String)
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

    /// Reads the item's data (`SecItemCopyMatching`).
    public var loadQuery: [Attribute] {
        var attributes = identity + [.returnData, .matchLimitOne]
        if options.userPresence != .none, let prompt = options.authenticationPrompt {
            attributes.append(.authenticationPrompt(prompt))
        }
        return attributes
    }

    /// Creates the item (`SecItemAdd`); the store adds `kSecValueData`.
    public var addAttributes: [Attribute] {
        identity + [protection]
    }

    /// The item's protection: accessibility alone, or an access control with the flag.
    public var protection: Attribute {
        options.userPresence == .none
            ? .accessible(options.accessibility) : .accessControl(options.accessibility, options.userPresence)
    }
}
