#if os(iOS) || os(macOS)
    import Foundation
    import LocalAuthentication
    import Security

    /// A ``TokenStore`` in the Keychain (iOS and macOS). Every decision — attributes,
    /// protection, when to wipe, migrate, update or replace, how a status maps to an error —
    /// is made by ``KeychainQueryPlan``, ``KeychainStatus``, ``ReinstallMarker`` and
    /// ``KeychainSupportFiles`` (portable, tested on Linux); this type only runs the
    /// Security calls they name.
    ///
    /// - One `LAContext` serves every read of an access-controlled item
    ///   (`kSecUseAuthenticationContext`: "If this key is specified with a context that has
    ///   been previously authenticated, the operation will succeed without asking user for
    ///   authentication" — Apple's documentation of the key), so a session asks for Face ID
    ///   once, not on every refresh; ``requireAuthentication()`` makes the next read ask again.
    /// - Saving an access-controlled item deletes and adds it instead of `SecItemUpdate`,
    ///   which asks for Face ID; Valet reads through one context and passes it only when
    ///   reading ("we only need to pass the LAContext instance when reading keys from the
    ///   Keychain, not when adding or removing keys", square/Valet#116).
    /// - The item is audited (attributes only, with an `LAContext` whose
    ///   `interactionNotAllowed` is set, so never a prompt) before each read and write: an
    ///   item written with other protection is rewritten with the current one, and the
    ///   reinstall wipe happens only once the Keychain has answered for the item — proof
    ///   that protected data is available, never during a prewarm before the first unlock.
    /// - The store is a ``LockingTokenStore``: an `flock` on a lock file, as
    ///   ``FileTokenStore`` has — in the group's container with ``KeychainOptions/appGroup``
    ///   (app and extensions take turns), else in the app's own (two sessions of the app
    ///   over one item take turns).
    public struct KeychainTokenStore: LockingTokenStore {
        /// The plan the store follows.
        public let plan: KeychainQueryPlan
        /// Where the lock file and the install marker are.
        public let files: KeychainSupportFiles
        private let authentication: AuthenticationContext

        /// A store with `options`.
        ///
        /// - Throws: ``LatchkeyClientError`` `invalid_configuration` for contradictory
        ///   options, or (`missing_app_group`) for an App Group the app is not entitled to.
        public init(options: KeychainOptions = KeychainOptions()) throws {
            plan = try KeychainQueryPlan(options: options)
            files = KeychainSupportFiles(container: try Self.container(for: options), options: options)
            authentication = AuthenticationContext(prompt: options.authenticationPrompt)
        }

        /// Makes the next read of an access-controlled item ask for Face ID (or the
        /// passcode) again, for instance when the app returns from the background: the
        /// store's authentication context is invalidated and replaced.
        public func requireAuthentication() {
            authentication.reset()
        }

        /// The stored tokens, nil when there are none; "locked" is an error, not nil.
        /// On the first launch after a reinstall (with ``KeychainOptions/wipeOnReinstall``)
        /// a leftover item is deleted unread; an item with other protection is rewritten.
        public func load() throws -> StoredTokens? {
            guard case .present(let tag) = try itemState() else { return nil }
            let marker = ReinstallMarker(file: files.installMarker)
            let action = plan.loadAction(for: tag, isFirstLaunchAfterInstall: marker.isFirstLaunchAfterInstall)
            if action == .wipe { try clear() }
            markInstalled(marker)
            guard action != .wipe, let data = try readData() else { return nil }
            // A protection the device cannot hold yet (no passcode) leaves the item as it
            // is; the migration is tried again on a later load.
            if action == .migrate { try? replace(with: data) }
            guard let tokens = try? JSONDecoder().decode(StoredTokens.self, from: data) else {
                throw LatchkeyClientError(.tokenStoreCorrupted)
            }
            return tokens
        }

        /// Writes `tokens` the way ``KeychainQueryPlan/saveMethod(over:)`` says.
        public func save(_ tokens: StoredTokens) throws {
            guard let data = try? JSONEncoder().encode(tokens) else { throw LatchkeyClientError(.tokenStoreFailed) }
            switch plan.saveMethod(over: try itemState()) {
            case .add: try add(data)
            case .update: try check(SecItemUpdate(try query(plan.identity), [kSecValueData as String: data] as CFDictionary))
            case .replace: try replace(with: data)
            }
            markInstalled(ReinstallMarker(file: files.installMarker))
        }

        /// Deletes the item; succeeds when there is none. Never asks for Face ID.
        public func clear() throws {
            let status = SecItemDelete(try query(plan.identity))
            if status == KeychainStatus.itemNotFound { return }
            try check(status)
        }

        /// An exclusive `flock` on ``KeychainSupportFiles/lockFile``: in the group's
        /// container with ``KeychainOptions/appGroup``, so the app and its extensions take
        /// turns; else in the app's own container, so two sessions of one process over the
        /// same item (one replacing the other) do.
        public func acquireExclusiveLock(timeout: Double) async throws -> any TokenStoreLock {
            try files.prepareDirectory()
            return try await FileLock.acquire(path: files.lockFile.path, timeout: timeout)
        }

        /// Whether the item exists, and its protection tag; never prompts.
        private func itemState() throws -> KeychainQueryPlan.ItemState {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(try query(plan.auditQuery), &result)
            if status == KeychainStatus.itemNotFound { return .absent }
            try check(status)
            let tag = ((result as? [String: Any])?[kSecAttrGeneric as String] as? Data).map { String(decoding: $0, as: UTF8.self) }
            return .present(protectionTag: tag)
        }

        /// The item's data, nil when it is gone; may ask for Face ID once per context.
        private func readData() throws -> Data? {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(try query(plan.loadQuery), &result)
            if status == KeychainStatus.itemNotFound { return nil }
            try check(status)
            guard let data = result as? Data else { throw LatchkeyClientError(.tokenStoreCorrupted) }
            return data
        }

        /// Deletes the item (if any) and adds it with `data` and the current protection —
        /// unless the device cannot hold that protection (``KeychainQueryPlan/deviceRequirement``):
        /// then nothing is deleted and `token_store_failed` (`passcode_not_set` or
        /// `biometry_not_enrolled`) is thrown.
        private func replace(with data: Data) throws {
            if let requirement = plan.deviceRequirement { try Self.check(requirement) }
            try clear()
            try add(data)
        }

        /// Throws unless the device meets `requirement`; never shows a prompt
        /// (`canEvaluatePolicy` only asks whether the policy could be evaluated).
        private static func check(_ requirement: KeychainQueryPlan.DeviceRequirement) throws {
            let context = LAContext()
            var error: NSError?
            switch requirement {
            case .passcode:
                guard context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error) else {
                    throw LatchkeyClientError(.tokenStoreFailed, reasons: ["passcode_not_set"])
                }
            case .enrolledBiometrics:
                let usable = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
                guard usable || error?.code == LAError.Code.biometryLockout.rawValue else {
                    throw LatchkeyClientError(.tokenStoreFailed, reasons: ["biometry_not_enrolled"])
                }
            }
        }

        /// Adds the item; if another writer added one first, replaces that once.
        private func add(_ data: Data) throws {
            var attributes = try dictionary(plan.addAttributes)
            attributes[kSecValueData as String] = data
            var status = SecItemAdd(attributes as CFDictionary, nil)
            if status == KeychainStatus.duplicateItem {
                try clear()
                status = SecItemAdd(attributes as CFDictionary, nil)
            }
            try check(status)
        }

        /// Sets the install marker once the Keychain has answered for the item. A marker
        /// that cannot be written is tried again on the next call; it never fails the call.
        private func markInstalled(_ marker: ReinstallMarker) {
            guard marker.isFirstLaunchAfterInstall else { return }
            try? files.prepareDirectory()
            try? marker.markInstalled()
        }

        private func check(_ status: OSStatus) throws {
            if let error = KeychainStatus.error(for: status) { throw error }
        }

        private func query(_ attributes: [KeychainQueryPlan.Attribute]) throws -> CFDictionary {
            try dictionary(attributes) as CFDictionary
        }

        /// The `kSec…` dictionary for `attributes`.
        private func dictionary(_ attributes: [KeychainQueryPlan.Attribute]) throws -> [String: Any] {
            var query: [String: Any] = [:]
            for attribute in attributes {
                switch attribute {
                case .classGenericPassword: query[kSecClass as String] = kSecClassGenericPassword
                case .service(let service): query[kSecAttrService as String] = service
                case .account(let account): query[kSecAttrAccount as String] = account
                case .accessGroup(let group): query[kSecAttrAccessGroup as String] = group
                case .notSynchronizable: query[kSecAttrSynchronizable as String] = false
                case .dataProtectionKeychain: query[kSecUseDataProtectionKeychain as String] = true
                case .accessible(let accessibility): query[kSecAttrAccessible as String] = Self.constant(accessibility)
                case .accessControl(let accessibility, let presence):
                    guard let control = SecAccessControlCreateWithFlags(nil, Self.constant(accessibility), Self.flags(presence), nil)
                    else { throw LatchkeyClientError(.invalidConfiguration, reasons: ["access_control"]) }
                    query[kSecAttrAccessControl as String] = control
                case .protectionTag(let tag): query[kSecAttrGeneric as String] = Data(tag.utf8)
                case .returnData: query[kSecReturnData as String] = true
                case .returnAttributes: query[kSecReturnAttributes as String] = true
                case .matchLimitOne: query[kSecMatchLimit as String] = kSecMatchLimitOne
                case .authenticationContext: query[kSecUseAuthenticationContext as String] = authentication.current
                case .noInteraction:
                    // `interactionNotAllowed` replaces the deprecated kSecUseAuthenticationUIFail.
                    let context = LAContext()
                    context.interactionNotAllowed = true
                    query[kSecUseAuthenticationContext as String] = context
                }
            }
            return query
        }

        /// The App Group's container, or this app's own Application Support directory.
        private static func container(for options: KeychainOptions) throws -> URL {
            if let group = options.appGroup {
                // Nil when the group is not in the app's App Groups entitlement.
                guard let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else {
                    throw LatchkeyClientError(.invalidConfiguration, reasons: ["missing_app_group"])
                }
                return url
            }
            guard let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first else {
                throw LatchkeyClientError(.tokenStoreFailed, reasons: ["support_directory"])
            }
            // On macOS outside the sandbox, Application Support is shared by every app.
            return support.appendingPathComponent(Bundle.main.bundleIdentifier ?? "Latchkey", isDirectory: true)
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

    /// The store's one `LAContext`, replaced by ``reset()``.
    // `LAContext` is not Sendable; an `NSLock` guards the one reference, and the context is
    // only handed to Security calls (`Mutex` would need iOS 18).
    private final class AuthenticationContext: @unchecked Sendable {
        private let lock = NSLock()
        private let prompt: String?
        private var context: LAContext

        init(prompt: String?) {
            self.prompt = prompt
            context = Self.make(prompt)
        }

        var current: LAContext {
            lock.lock()
            defer { lock.unlock() }
            return context
        }

        func reset() {
            lock.lock()
            defer { lock.unlock() }
            context.invalidate()
            context = Self.make(prompt)
        }

        private static func make(_ prompt: String?) -> LAContext {
            let context = LAContext()
            if let prompt, !prompt.isEmpty { context.localizedReason = prompt }
            return context
        }
    }
#endif
