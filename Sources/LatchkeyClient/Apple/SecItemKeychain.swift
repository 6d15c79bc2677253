#if os(iOS) || os(macOS)
    import Foundation
    import LocalAuthentication
    import Security

    /// ``KeychainItemAccess`` on the real Keychain: each call of the item protocol is one
    /// `SecItem…` call with an `LAContext` on which UI is forbidden (`interactionNotAllowed`),
    /// and the authentication is `LAContext.evaluateAccessControl(_:operation:localizedReason:)`.
    /// Every decision is ``KeychainItemStore``'s; the only bridging casts (Swift and CF
    /// values) are in ``query(_:_:context:)`` and ``attributes(_:)``.
    struct SecItemKeychain: KeychainItemAccess {
        /// One `LAContext`, handed to one Keychain call at a time; `invalidate()` may come
        /// from another thread, which LocalAuthentication allows.
        final class Context: @unchecked Sendable {
            let context: LAContext

            init(_ context: LAContext) {
                self.context = context
            }
        }

        func makeContext() -> Context {
            let context = LAContext()
            context.interactionNotAllowed = true
            return Context(context)
        }

        func authenticate(for protection: KeychainProtection, reason: String) async throws -> Context {
            guard let control = Self.accessControl(protection) else {
                throw LatchkeyClientError(.invalidConfiguration, reasons: ["access_control"])
            }
            let attempt = Context(LAContext())
            try await withTaskCancellationHandler {
                do {
                    guard try await attempt.context.evaluateAccessControl(control, operation: .useItem, localizedReason: reason) else {
                        throw UserAuthenticationStatus.error(forCode: LAError.Code.authenticationFailed.rawValue)
                    }
                } catch let error as LAError {
                    if Task.isCancelled { throw CancellationError() }
                    throw UserAuthenticationStatus.error(forCode: error.code.rawValue)
                }
            } onCancel: {
                attempt.context.invalidate()
            }
            attempt.context.interactionNotAllowed = true
            return attempt
        }

        func invalidate(_ context: Context) {
            context.context.invalidate()
        }

        func deviceSecurity() -> DeviceSecurity {
            var ownerError: NSError?
            let owner = LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: &ownerError)
            let biometric = LAContext()
            var biometricError: NSError?
            let biometrics = biometric.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &biometricError)
            return DeviceSecurity(
                ownerPolicy: owner, biometricPolicy: biometrics, biometricErrorCode: biometricError?.code,
                domainState: biometric.evaluatedPolicyDomainState)
        }

        func items(service: String, context: Context) throws(KeychainFailure) -> [KeychainItemAttributes] {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(
                Self.query(
                    [(kSecAttrService, service), (kSecMatchLimit, kSecMatchLimitAll), (kSecReturnAttributes, true)], nil, context: context),
                &result)
            try Self.check(status)
            return Self.attributes(result)
        }

        func data(of id: KeychainItemID, context: Context) throws(KeychainFailure) -> Data {
            var result: CFTypeRef?
            try Self.check(SecItemCopyMatching(
                Self.query([(kSecMatchLimit, kSecMatchLimitOne), (kSecReturnData, true)], id, context: context), &result))
            guard let data = result as? Data else { throw KeychainFailure(KeychainStatus.decode) }
            return data
        }

        func add(_ id: KeychainItemID, protection: KeychainProtection, label: Data, data: Data, context: Context) throws(KeychainFailure) {
            let protectionEntry: (CFString, Any)
            if protection.needsUserPresence {
                guard let control = Self.accessControl(protection) else { throw KeychainFailure(KeychainStatus.param) }
                protectionEntry = (kSecAttrAccessControl, control)
            } else {
                protectionEntry = (kSecAttrAccessible, Self.constant(protection.accessibility))
            }
            try Self.check(SecItemAdd(
                Self.query([protectionEntry, (kSecAttrGeneric, label), (kSecValueData, data)], id, context: context), nil))
        }

        func delete(_ id: KeychainItemID, context: Context) throws(KeychainFailure) {
            try Self.check(SecItemDelete(Self.query([], id, context: context)))
        }

        /// A generic-password query: `entries`, the item `id` (or every item of the service),
        /// never synchronizable, in the data-protection keychain, through `context`.
        private static func query(_ entries: [(CFString, Any)], _ id: KeychainItemID?, context: Context) -> CFDictionary {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrSynchronizable as String: false,
                kSecUseDataProtectionKeychain as String: true, kSecUseAuthenticationContext as String: context.context,
            ]
            if let id {
                query[kSecAttrService as String] = id.service
                query[kSecAttrAccount as String] = id.account
                if let group = id.accessGroup { query[kSecAttrAccessGroup as String] = group }
            }
            for (key, value) in entries { query[key as String] = value }
            return query as CFDictionary
        }

        /// The items a `kSecMatchLimitAll` listing returned.
        private static func attributes(_ result: CFTypeRef?) -> [KeychainItemAttributes] {
            (result as? [[String: Any]] ?? []).compactMap { item in
                guard let service = item[kSecAttrService as String] as? String, let account = item[kSecAttrAccount as String] as? String
                else { return nil }
                return KeychainItemAttributes(
                    id: KeychainItemID(service: service, account: account, accessGroup: item[kSecAttrAccessGroup as String] as? String),
                    label: item[kSecAttrGeneric as String] as? Data, createdAt: item[kSecAttrCreationDate as String] as? Date)
            }
        }

        private static func check(_ status: OSStatus) throws(KeychainFailure) {
            guard status == KeychainStatus.success else { throw KeychainFailure(status) }
        }

        private static func accessControl(_ protection: KeychainProtection) -> SecAccessControl? {
            let flags: SecAccessControlCreateFlags =
                switch protection.userPresence {
                case .none: []
                case .biometryCurrentSet: .biometryCurrentSet
                case .userPresence: .userPresence
                }
            return SecAccessControlCreateWithFlags(nil, constant(protection.accessibility), flags, nil)
        }

        private static func constant(_ accessibility: KeychainOptions.Accessibility) -> CFString {
            switch accessibility {
            case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
            case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
            case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
            }
        }
    }
#endif
