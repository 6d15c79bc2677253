#if os(iOS) || os(macOS)
    public import Foundation

    /// A ``TokenStore`` in the Keychain (iOS and macOS): ``KeychainItemStore`` — where every
    /// decision is made and tested on Linux — over the real Keychain (`SecItemKeychain`).
    /// In short: no call shows UI (``authenticate()`` asks for Face ID, asynchronously, and
    /// only when called); reading never writes; each save adds the new item before deleting
    /// the old one; a save keeps the stored item's protection, which changes only through
    /// ``changeProtection(allowingWeaker:lockTimeout:)``; sign-out needs no Face ID; a
    /// changed biometric enrollment ends a `biometryCurrentSet` session with `session_expired`.
    ///
    /// The store is a ``LockingTokenStore``: an `flock` on a lock file in the App Group's
    /// container with ``KeychainOptions/appGroup`` (the app and its extensions take turns),
    /// else in the app's own (two sessions of the app over one item take turns).
    ///
    /// It is also a ``DeviceTokenStore``: each server's device token is an item of its own, in
    /// the service `<service>.device`, `AfterFirstUnlockThisDeviceOnly` and never synchronized,
    /// which ``clear()`` (a sign-out) leaves and ``forgetDevice(for:)`` removes.
    public struct KeychainTokenStore: LockingTokenStore, ProtectionChangingTokenStore, DeviceTokenStore {
        private let store: KeychainItemStore<SecItemKeychain>

        /// A store with `options`.
        ///
        /// - Throws: ``LatchkeyClientError`` `invalid_configuration` for contradictory
        ///   options (`user_presence_needs_this_device_only`, `missing_authentication_prompt`,
        ///   `empty_identity`), or (`missing_app_group`) for an App Group the app is not
        ///   entitled to.
        public init(options: KeychainOptions = KeychainOptions()) throws {
            store = try KeychainItemStore(
                options: options, access: SecItemKeychain(),
                files: KeychainSupportFiles(container: try Self.container(for: options), options: options),
                installedAt: KeychainSupportFiles.installationDate(
                    bundleURL: Bundle.main.bundleURL, home: URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)))
        }

        /// The options the store was made with.
        public var options: KeychainOptions { store.options }
        /// Where the lock file is.
        public var files: KeychainSupportFiles { store.files }

        /// The stored tokens; nil when none. Never shows UI, never writes.
        ///
        /// - Throws: ``LatchkeyClientError`` `user_authentication_required` (call
        ///   ``authenticate()``), `session_expired` (`biometry_changed`), `token_store_locked`,
        ///   `token_store_corrupted`, `token_store_failed`.
        public func load() throws -> StoredTokens? { try store.load() }

        /// Adds `tokens` as a new item, with the stored item's protection, then deletes the old.
        public func save(_ tokens: StoredTokens) throws { try store.save(tokens) }

        /// Deletes the stored items; never needs Face ID.
        public func clear() throws { try store.clear() }

        /// What ends the stored login without Face ID (see ``TokenStore/tokensForSignOut()``).
        public func tokensForSignOut() throws -> StoredTokens? { try store.tokensForSignOut() }

        /// Asks for Face ID (or the passcode) for the stored item, off any actor; later reads
        /// need no one until ``requireAuthentication()``.
        public func authenticate() async throws { try await store.authenticate() }

        /// Forgets the authentication (for instance when the app goes to the background).
        public func requireAuthentication() { store.requireAuthentication() }

        /// Gives the stored item this store's protection, holding the lock; asks for Face ID
        /// first when the stored item needs it. A weaker protection needs `allowingWeaker`.
        ///
        /// - Throws: ``LatchkeyClientError`` `invalid_configuration` (`weaker_protection`),
        ///   `token_store_failed` (`passcode_not_set`, `biometry_not_enrolled`), and what
        ///   ``authenticate()`` throws.
        public func changeProtection(allowingWeaker: Bool, lockTimeout: Double = 30) async throws {
            try await store.changeProtection(allowingWeaker: allowingWeaker, lockTimeout: lockTimeout)
        }

        /// Whether the stored login can be ended without Face ID (a spent refresh token is kept).
        public func canSignOutWithoutUser() throws -> Bool { try store.canSignOutWithoutUser() }

        /// The stored item's protection, read without UI; nil when nothing is stored.
        public func storedProtection() throws -> KeychainProtection? { try store.storedProtection() }

        /// The device token kept for `server`; nil when none. Never shows UI, never writes.
        public func deviceToken(for server: URL) throws -> DeviceToken? { try store.deviceToken(for: server) }

        /// Keeps `token` as the device token for `server` (added before the old one is deleted).
        public func saveDeviceToken(_ token: DeviceToken, for server: URL) throws { try store.saveDeviceToken(token, for: server) }

        /// Forgets the device token for `server` ("forget this device").
        public func forgetDevice(for server: URL) throws { try store.forgetDevice(for: server) }

        /// An exclusive `flock` on ``KeychainSupportFiles/lockFile``.
        public func acquireExclusiveLock(timeout: Double) async throws -> any TokenStoreLock {
            try await store.acquireExclusiveLock(timeout: timeout)
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
    }
#endif
