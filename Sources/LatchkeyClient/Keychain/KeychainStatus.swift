/// What a Keychain result code (`OSStatus`) means for the token store: the one place
/// where Security's numeric codes meet ``LatchkeyClientError``. Portable, so the Linux
/// tests cover it; the constants are Security's values.
public enum KeychainStatus {
    /// `errSecSuccess`.
    public static let success: Int32 = 0
    /// `errSecItemNotFound`: no such item.
    public static let itemNotFound: Int32 = -25300
    /// `errSecDuplicateItem`: the item exists (another writer added it first).
    public static let duplicateItem: Int32 = -25299
    /// `errSecInteractionNotAllowed`: the device is locked (the item's data-protection
    /// class is not available yet) or UI is not allowed now.
    public static let interactionNotAllowed: Int32 = -25308
    /// `errSecUserCanceled`: the person cancelled Face ID or the passcode sheet.
    public static let userCanceled: Int32 = -128
    /// `errSecAuthFailed`: authentication failed.
    public static let authFailed: Int32 = -25293
    /// `errSecMissingEntitlement`: the access group is not in the app's entitlements.
    public static let missingEntitlement: Int32 = -34018
    /// `errSecParam`: invalid query.
    public static let param: Int32 = -50
    /// `errSecDecode`: the stored data cannot be decoded.
    public static let decode: Int32 = -26275

    /// The error for `status`, or nil for success. `errSecItemNotFound` is not an error
    /// for reading ("nothing stored") or deleting ("already gone"); callers check it first.
    ///
    /// Mapping: locked → `token_store_locked` (`device_locked`, retryable, the item is
    /// kept: never confuse "locked" with "absent"); cancelled or failed authentication →
    /// `user_authentication_failed`; missing entitlement or a bad query →
    /// `invalid_configuration`; undecodable data → `token_store_corrupted`; anything
    /// else → `token_store_failed` with `osstatus <n>`.
    public static func error(for status: Int32) -> LatchkeyClientError? {
        switch status {
        case success: nil
        case interactionNotAllowed: LatchkeyClientError(.tokenStoreLocked, reasons: ["device_locked"])
        case userCanceled: LatchkeyClientError(.userAuthenticationFailed, reasons: ["cancelled"])
        case authFailed: LatchkeyClientError(.userAuthenticationFailed, reasons: ["failed"])
        case missingEntitlement: LatchkeyClientError(.invalidConfiguration, reasons: ["missing_entitlement"])
        case param: LatchkeyClientError(.invalidConfiguration, reasons: ["invalid_keychain_query"])
        case decode: LatchkeyClientError(.tokenStoreCorrupted)
        default: LatchkeyClientError(.tokenStoreFailed, reasons: ["osstatus \(status)"])
        }
    }
}
