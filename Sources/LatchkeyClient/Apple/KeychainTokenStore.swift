#if canImport(Security)
    public import Foundation
    import Security
    #if canImport(LocalAuthentication)
        import LocalAuthentication
    #endif

    /// A ``TokenStore`` in the Keychain (Apple platforms). Every decision — attributes,
    /// protection, how a status maps to an error — is made by ``KeychainQueryPlan`` and
    /// ``KeychainStatus``; this type only translates them into Security calls.
    public struct KeychainTokenStore: TokenStore {
        /// The plan the store follows.
        public let plan: KeychainQueryPlan

        /// A store with `options`; with ``KeychainOptions/wipeOnReinstall`` a stored item
        /// is deleted on the first launch after an install (marker in `defaults`). An app
        /// extension sharing the item through an access group must pass the app group's
        /// `UserDefaults(suiteName:)`, or its own first launch wipes the app's session.
        ///
        /// - Throws: ``LatchkeyClientError`` `invalid_configuration` for contradictory
        ///   options, or the error of deleting a leftover item.
        public init(options: KeychainOptions = KeychainOptions(), defaults: UserDefaults = .standard) throws {
            plan = try KeychainQueryPlan(options: options)
            let marker = ReinstallMarker(defaults: defaults, service: options.service, account: options.account)
            guard marker.isFirstLaunchAfterInstall else { return }
            // Marked only once the wipe succeeded, so a failed wipe is tried again next launch.
            if options.wipeOnReinstall { try clear() }
            marker.markInstalled()
        }

        /// The stored tokens, nil when there are none; "locked" is an error, not nil.
        public func load() throws -> StoredTokens? {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(try Self.dictionary(plan.loadQuery) as CFDictionary, &result)
            if status == KeychainStatus.itemNotFound { return nil }
            if let error = KeychainStatus.error(for: status) { throw error }
            guard let data = result as? Data, let tokens = try? JSONDecoder().decode(StoredTokens.self, from: data) else {
                throw LatchkeyClientError(.tokenStoreCorrupted)
            }
            return tokens
        }

        /// Updates the item's data, or adds the item when there is none.
        public func save(_ tokens: StoredTokens) throws {
            guard let data = try? JSONEncoder().encode(tokens) else { throw LatchkeyClientError(.tokenStoreFailed) }
            let identity = try Self.dictionary(plan.identity) as CFDictionary
            var status = SecItemUpdate(identity, [kSecValueData as String: data] as CFDictionary)
            if status == KeychainStatus.itemNotFound {
                var attributes = try Self.dictionary(plan.addAttributes)
                attributes[kSecValueData as String] = data
                status = SecItemAdd(attributes as CFDictionary, nil)
                if status == KeychainStatus.duplicateItem {
                    status = SecItemUpdate(identity, [kSecValueData as String: data] as CFDictionary)
                }
            }
            if let error = KeychainStatus.error(for: status) { throw error }
        }

        /// Deletes the item; succeeds when there is none.
        public func clear() throws {
            let status = SecItemDelete(try Self.dictionary(plan.identity) as CFDictionary)
            if status == KeychainStatus.itemNotFound { return }
            if let error = KeychainStatus.error(for: status) { throw error }
        }

        /// The `kSec…` dictionary for `attributes`.
        private static func dictionary(_ attributes: [KeychainQueryPlan.Attribute]) throws -> [String: Any] {
            var query: [String: Any] = [:]
            for attribute in attributes {
                switch attribute {
                case .classGenericPassword: query[kSecClass as String] = kSecClassGenericPassword
                case .service(let service): query[kSecAttrService as String] = service
                case .account(let account): query[kSecAttrAccount as String] = account
                case .accessGroup(let group): query[kSecAttrAccessGroup as String] = group
                case .notSynchronizable: query[kSecAttrSynchronizable as String] = false
                case .dataProtectionKeychain: query[kSecUseDataProtectionKeychain as String] = true
                case .accessible(let accessibility): query[kSecAttrAccessible as String] = constant(accessibility)
                case .accessControl(let accessibility, let presence):
                    guard let control = SecAccessControlCreateWithFlags(nil, constant(accessibility), flags(presence), nil)
                    else { throw LatchkeyClientError(.invalidConfiguration, reasons: ["access_control"]) }
                    query[kSecAttrAccessControl as String] = control
                case .returnData: query[kSecReturnData as String] = true
                case .matchLimitOne: query[kSecMatchLimit as String] = kSecMatchLimitOne
                #if canImport(LocalAuthentication)
                    case .authenticationPrompt(let prompt):
                        let context = LAContext()
                        context.localizedReason = prompt
                        query[kSecUseAuthenticationContext as String] = context
                #else
                    case .authenticationPrompt: break  // no LocalAuthentication (tvOS): the system's own prompt
                #endif
                }
            }
            return query
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

        private static func flags(_ presence: KeychainOptions.UserPresence) -> SecAccessControlCreateFlags {
            switch presence {
            case .none: []
            case .biometryCurrentSet: .biometryCurrentSet
            case .userPresence: .userPresence
            }
        }
    }
#endif
