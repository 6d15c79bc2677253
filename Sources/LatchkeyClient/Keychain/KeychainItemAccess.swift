package import Foundation

/// A Keychain call that failed: the `OSStatus` it returned (``KeychainStatus`` names them).
package struct KeychainFailure: Error, Sendable, Equatable {
    /// The `OSStatus`.
    package let status: Int32

    /// The failure with `status`.
    package init(_ status: Int32) {
        self.status = status
    }
}

/// Where one generic-password item is: `kSecAttrService`, `kSecAttrAccount` and
/// `kSecAttrAccessGroup`.
package struct KeychainItemID: Sendable, Hashable {
    /// The service.
    package var service: String
    /// The account.
    package var account: String
    /// The access group; nil when adding: the app's default group.
    package var accessGroup: String?

    /// The item `service`/`account` in `accessGroup`.
    package init(service: String, account: String, accessGroup: String?) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
    }
}

/// One item as a listing returns it: its attributes, never its data.
package struct KeychainItemAttributes: Sendable, Equatable {
    /// Where it is, with the access group it is in.
    package var id: KeychainItemID
    /// `kSecAttrGeneric`: the store's ``KeychainItemLabel``, which no Face ID guards.
    package var label: Data?
    /// `kSecAttrCreationDate`.
    package var createdAt: Date?

    /// An item's attributes.
    package init(id: KeychainItemID, label: Data?, createdAt: Date?) {
        self.id = id
        self.label = label
        self.createdAt = createdAt
    }
}

/// What the device offers for protected items, read without showing anything
/// (`LAContext.canEvaluatePolicy`).
package struct DeviceSecurity: Sendable, Equatable {
    /// A passcode is set.
    package var passcodeSet: Bool
    /// Biometrics are enrolled (a lockout leaves them enrolled).
    package var biometryEnrolled: Bool
    /// `evaluatedPolicyDomainState` after a successful biometric `canEvaluatePolicy`: it
    /// changes when a face or finger is enrolled or removed; nil without biometrics.
    package var biometryState: Data?

    /// The device's state.
    package init(passcodeSet: Bool, biometryEnrolled: Bool, biometryState: Data?) {
        self.passcodeSet = passcodeSet
        self.biometryEnrolled = biometryEnrolled
        self.biometryState = biometryState
    }

    /// The device's state from LocalAuthentication's answers: `canEvaluatePolicy` for the
    /// device-owner policy, for the biometric one (with the `LAError` code it reported), and
    /// the biometric context's `evaluatedPolicyDomainState`. A biometric lockout (`-8`)
    /// leaves the enrollment in place.
    package init(ownerPolicy: Bool, biometricPolicy: Bool, biometricErrorCode: Int?, domainState: Data?) {
        self.init(
            passcodeSet: ownerPolicy, biometryEnrolled: biometricPolicy || biometricErrorCode == -8,
            biometryState: biometricPolicy ? domainState : nil)
    }

    /// Whether the device can hold an item with `protection` now.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed` (`passcode_not_set` or
    ///   `biometry_not_enrolled`).
    package func check(_ protection: KeychainProtection) throws {
        switch protection.deviceRequirement {
        case .passcode? where !passcodeSet:
            throw LatchkeyClientError(.tokenStoreFailed, reasons: ["passcode_not_set"])
        case .enrolledBiometrics? where !biometryEnrolled:
            throw LatchkeyClientError(.tokenStoreFailed, reasons: ["biometry_not_enrolled"])
        default:
            return
        }
    }
}

/// The Keychain as ``KeychainItemStore`` uses it: four calls on one generic-password item
/// (list, read, add, delete), each with an authentication context that never shows UI, and
/// the authentication that makes such a context able to read a protected item. On Apple
/// platforms `SecItemKeychain` maps each call onto `SecItemCopyMatching`, `SecItemAdd`,
/// `SecItemDelete` and `LAContext`; the Linux tests use an in-memory Keychain that behaves
/// as Apple documents and can fail or stop between any two calls.
package protocol KeychainItemAccess: Sendable {
    /// An authentication context (`LAContext`): UI is never allowed on it once made.
    associatedtype Context: AnyObject, Sendable

    /// A context no one has authenticated, with UI forbidden.
    func makeContext() -> Context

    /// Asks the person (Face ID, Touch ID or the passcode, as `protection` allows) with
    /// `reason`, then forbids UI on the context and returns it:
    /// `LAContext.evaluateAccessControl(_:operation: .useItem, localizedReason:)`.
    ///
    /// - Throws: ``LatchkeyClientError`` `user_authentication_failed`.
    func authenticate(for protection: KeychainProtection, reason: String) async throws -> Context

    /// Ends `context`: nothing it authenticated can be read with it again (`invalidate()`).
    func invalidate(_ context: Context)

    /// What the device offers now; never shows UI.
    func deviceSecurity() -> DeviceSecurity

    /// The attributes of every non-synchronizable generic-password item of `service`, in
    /// every access group the app has (`kSecMatchLimitAll`, `kSecReturnAttributes`);
    /// `errSecItemNotFound` when there are none.
    func items(service: String, context: Context) throws(KeychainFailure) -> [KeychainItemAttributes]

    /// The data of the item `id` (`kSecReturnData`, `kSecMatchLimitOne`).
    func data(of id: KeychainItemID, context: Context) throws(KeychainFailure) -> Data

    /// Adds the item `id` with `protection`, `label` and `data`; `errSecDuplicateItem` when
    /// one exists.
    func add(_ id: KeychainItemID, protection: KeychainProtection, label: Data, data: Data, context: Context) throws(KeychainFailure)

    /// Deletes the item `id`; `errSecItemNotFound` when there is none.
    func delete(_ id: KeychainItemID, context: Context) throws(KeychainFailure)
}
