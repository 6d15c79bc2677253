package import Foundation

/// The Keychain token store, every decision of it, over any ``KeychainItemAccess``: on
/// Apple platforms ``KeychainTokenStore`` runs it over the real Keychain; the Linux tests run
/// it over an in-memory one that fails or stops between any two calls.
///
/// - **No call shows UI.** Every Keychain call gets a context on which UI is forbidden.
///   An item behind Face ID, Touch ID or the passcode is read only after ``authenticate()``
///   asked the person, asynchronously, through the Keychain's authentication
///   (`LAContext.evaluateAccessControl`); until then ``load()`` throws
///   `user_authentication_required`. One authentication serves later reads until
///   ``requireAuthentication()``.
/// - **Reading never writes.** Not a rewrite, not a wipe, not a migration.
/// - **A save never loses what is stored.** Each save adds the tokens as a new item,
///   `<account>#<generation>`, and only then deletes the older items; a reader takes the
///   newest generation. Stopped or failing between any two calls, the Keychain holds the
///   old tokens or the new ones, never neither.
/// - **Protection changes only when asked for.** A save keeps the protection the stored
///   item has, whatever this store's options say (an extension with default options does
///   not drop Face ID; two processes with different options do not fight). The options'
///   protection applies to the first item, and to an explicit ``changeProtection(allowingWeaker:)``,
///   which holds the lock and refuses to weaken the protection unless allowed.
/// - **A biometric change ends the session** of a `biometryCurrentSet` item: the item
///   records the enrollment it was added under (``KeychainItemLabel``), and once that
///   changed — or a read after a successful authentication finds the item gone — reading
///   throws `session_expired` (`biometry_changed`) without asking anyone, and sign-out
///   still works.
/// - **Sign-out needs no one.** ``clear()`` deletes without authentication, and
///   ``tokensForSignOut()`` returns the tokens when they can be read without UI, else the
///   spent refresh token kept in the item's label (``StoredTokens/revocationRecord``).
/// - **Reinstalls** (``KeychainOptions/wipeOnReinstall``): an item created before the app's
///   container (`installedAt`) was left by a previous installation; it reads as absent
///   and the next save or sign-out deletes it. Neither an App Group nor an access group
///   added in an update moves either date. Items the app wrote in another access group
///   (before ``KeychainOptions/accessGroup`` was set) are read, and moved by the next save.
package struct KeychainItemStore<Access: KeychainItemAccess>: LockingTokenStore, ProtectionChangingTokenStore {
    /// The options.
    package let options: KeychainOptions
    /// The Keychain.
    package let access: Access
    /// Where the lock file is.
    package let files: KeychainSupportFiles
    /// When the app's own container was created; nil where that cannot be told (an app
    /// extension), and then nothing is taken for left over.
    package let installedAt: Date?
    private let authentication: AuthenticatedContext<Access.Context>

    /// A store with `options` over `access`.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` (`empty_identity`,
    ///   `user_presence_needs_this_device_only`, `missing_authentication_prompt`).
    package init(options: KeychainOptions, access: Access, files: KeychainSupportFiles, installedAt: Date?) throws {
        guard !options.service.isEmpty, !options.account.isEmpty else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["empty_identity"])
        }
        if try options.protection.validated().needsUserPresence, Self.prompt(options) == nil {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["missing_authentication_prompt"])
        }
        self.options = options
        self.access = access
        self.files = files
        self.installedAt = installedAt
        authentication = AuthenticatedContext()
    }

    /// The stored tokens; nil when none (or only a previous installation's) are stored.
    ///
    /// - Throws: ``LatchkeyClientError`` `user_authentication_required`, `session_expired`
    ///   (`biometry_changed`), `token_store_locked` (the device is locked),
    ///   `token_store_corrupted`, `token_store_failed`.
    package func load() throws -> StoredTokens? {
        let context = authentication.current ?? access.makeContext()
        guard let current = Self.newest(try entries(context).live) else { return nil }
        do {
            return try read(current, context: context)
        } catch let failure as KeychainFailure where failure.status == KeychainStatus.itemNotFound {
            // Deleted between the listing and the read: by a newer save, or a sign-out.
            guard let newer = Self.newest(try entries(context).live) else { return nil }
            return try readMapped(newer, context: context)
        }
    }

    /// Stores `tokens` as a new item with the stored item's protection (the options' when
    /// none is stored), then deletes the older items.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed` (`passcode_not_set`,
    ///   `biometry_not_enrolled`: the device cannot hold the protection; nothing changed),
    ///   `token_store_locked`.
    package func save(_ tokens: StoredTokens) throws {
        let context = authentication.current ?? access.makeContext()
        let stored = try entries(context)
        let protection = try (Self.newest(stored.live)?.protection ?? options.protection).validated()
        try add(tokens, protection: protection, label: tokens.revocationRecord, over: stored, context: context)
    }

    /// Deletes every item of the store (every generation, every access group); never
    /// needs the person.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked`, `token_store_failed`.
    package func clear() throws {
        let context = access.makeContext()
        let failures = try entries(context).all.compactMap { entry in
            Self.status { () throws(KeychainFailure) in try access.delete(entry.attributes.id, context: context) }
        }
        if let failure = failures.first(where: { $0 != KeychainStatus.itemNotFound }) {
            throw Self.error(KeychainFailure(failure))
        }
    }

    /// The tokens when they can be read without UI, else the sign-out record kept in the
    /// newest item's label (also a previous installation's, so its login can be ended).
    package func tokensForSignOut() throws -> StoredTokens? {
        let context = authentication.current ?? access.makeContext()
        let stored = try entries(context)
        guard let current = Self.newest(stored.live) else { return Self.newest(stored.all)?.label.signOut }
        return (try? read(current, context: context)) ?? current.label.signOut
    }

    /// Asks the person for the stored item (see ``AuthenticatingTokenStore/authenticate()``);
    /// returns at once when it needs no one.
    package func authenticate() async throws {
        guard let current = Self.newest(try entries(access.makeContext()).live), current.protection.needsUserPresence else { return }
        if biometryChanged(current) { throw Self.biometryChanged }
        guard let prompt = Self.prompt(options) else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["missing_authentication_prompt"])
        }
        let context = try await access.authenticate(for: current.protection, reason: prompt)
        if let replaced = authentication.replace(with: context) { access.invalidate(replaced) }
    }

    /// Forgets the person's authentication.
    package func requireAuthentication() {
        if let replaced = authentication.replace(with: nil) { access.invalidate(replaced) }
    }

    /// Gives the stored item the options' protection, holding the lock: asks the person
    /// first when the item is behind Face ID (to read it), and does nothing when nothing
    /// is stored (the options apply to the next sign-in). A protection weaker in any
    /// respect than the stored one (``KeychainProtection/isAtLeast(_:)``) needs
    /// `allowingWeaker` — the person turned "Require Face ID" off.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` (`weaker_protection`),
    ///   `token_store_failed` (`passcode_not_set`, `biometry_not_enrolled`), what
    ///   ``authenticate()`` and ``acquireExclusiveLock(timeout:)`` throw.
    package func changeProtection(allowingWeaker: Bool, lockTimeout: Double) async throws {
        let target = try options.protection.validated()
        if let current = Self.newest(try entries(access.makeContext()).live), current.protection != target {
            guard allowingWeaker || target.isAtLeast(current.protection) else {
                throw LatchkeyClientError(.invalidConfiguration, reasons: ["weaker_protection"])
            }
            if current.protection.needsUserPresence, authentication.current == nil { try await authenticate() }
        }
        let lock = try await acquireExclusiveLock(timeout: lockTimeout)
        defer { lock.release() }
        let context = authentication.current ?? access.makeContext()
        let stored = try entries(context)
        guard let current = Self.newest(stored.live), current.protection != target else { return }
        guard allowingWeaker || target.isAtLeast(current.protection) else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["weaker_protection"])
        }
        let tokens = try readMapped(current, context: context)
        try add(tokens, protection: target, label: tokens.revocationRecord ?? current.label.signOut, over: stored, context: context)
    }

    /// Whether the stored login can be ended without the person (see
    /// ``AuthenticatingTokenStore/canSignOutWithoutUser()``).
    package func canSignOutWithoutUser() throws -> Bool {
        guard let current = Self.newest(try entries(access.makeContext()).live) else { return true }
        return !current.protection.needsUserPresence || current.label.signOut != nil
    }

    /// The stored item's protection, read without UI; nil when nothing is stored.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked`, `token_store_failed`.
    package func storedProtection() throws -> KeychainProtection? {
        Self.newest(try entries(access.makeContext()).live)?.protection
    }

    /// An exclusive `flock` on ``KeychainSupportFiles/lockFile``.
    package func acquireExclusiveLock(timeout: Double) async throws -> any TokenStoreLock {
        try files.prepareDirectory()
        return try await FileLock.acquire(path: files.lockFile.path, timeout: timeout)
    }

    // MARK: Decisions

    /// One item of this store.
    struct Entry {
        let attributes: KeychainItemAttributes
        let generation: Int
        let label: KeychainItemLabel
        let inConfiguredGroup: Bool
        /// The protection recorded in the label; the options' for an item without one.
        let protection: KeychainProtection
        let leftOver: Bool
    }

    /// The store's items: all of them, and those not left by a previous installation.
    struct Entries {
        let all: [Entry]
        var live: [Entry] { all.filter { !$0.leftOver } }
    }

    /// Lists the store's items: `<account>` (generation 0, written by earlier versions) and
    /// `<account>#<n>`, in the configured access group or (written before it was set) any other.
    private func entries(_ context: Access.Context) throws -> Entries {
        let listed: [KeychainItemAttributes]
        do {
            listed = try access.items(service: options.service, context: context)
        } catch where error.status == KeychainStatus.itemNotFound {
            listed = []
        } catch {
            throw Self.error(error)
        }
        return Entries(all: listed.compactMap { attributes in
            guard let generation = Self.generation(of: attributes.id.account, in: options.account) else { return nil }
            let label = KeychainItemLabel(decoding: attributes.label)
            let leftOver = options.wipeOnReinstall && installedAt.map { installed in
                attributes.createdAt.map { $0 < installed } ?? false
            } ?? false
            return Entry(
                attributes: attributes, generation: generation, label: label,
                inConfiguredGroup: options.accessGroup == nil || attributes.id.accessGroup == options.accessGroup,
                protection: label.protection ?? options.protection, leftOver: leftOver)
        })
    }

    /// The generation an account names: 0 for `base`, n for `base#n` (n > 0), nil for others.
    package static func generation(of account: String, in base: String) -> Int? {
        if account == base { return 0 }
        guard account.hasPrefix(base + "#"), let number = Int(account.dropFirst(base.count + 1)), number > 0,
            String(number) == account.dropFirst(base.count + 1)
        else { return nil }
        return number
    }

    /// The item's tokens, read with `context` (UI forbidden).
    private func read(_ entry: Entry, context: Access.Context) throws -> StoredTokens {
        if biometryChanged(entry) { throw Self.biometryChanged }
        if entry.protection.needsUserPresence, authentication.current == nil {
            throw LatchkeyClientError(.userAuthenticationRequired)
        }
        let data: Data
        do {
            data = try access.data(of: entry.attributes.id, context: context)
        } catch {
            switch error.status {
            case KeychainStatus.itemNotFound where entry.protection.userPresence == .biometryCurrentSet:
                // Listed, authenticated, yet unreadable: the enrollment it was bound to is gone.
                throw Self.biometryChanged
            case KeychainStatus.itemNotFound:
                throw error
            case KeychainStatus.interactionNotAllowed where entry.protection.needsUserPresence,
                KeychainStatus.authFailed where entry.protection.needsUserPresence:
                // The listing worked, so the device is unlocked: the authentication lapsed.
                requireAuthentication()
                throw LatchkeyClientError(.userAuthenticationRequired)
            default:
                throw Self.error(error)
            }
        }
        guard let tokens = try? JSONDecoder().decode(StoredTokens.self, from: data) else {
            throw LatchkeyClientError(.tokenStoreCorrupted)
        }
        return tokens
    }

    /// ``read(_:context:)`` with a vanished item as `token_store_failed`.
    private func readMapped(_ entry: Entry, context: Access.Context) throws -> StoredTokens {
        do {
            return try read(entry, context: context)
        } catch let failure as KeychainFailure {
            throw Self.error(failure)
        }
    }

    /// The item a reader takes: the highest generation, in the configured group first.
    static func newest(_ entries: [Entry]) -> Entry? {
        entries.max { ($0.generation, $0.inConfiguredGroup ? 1 : 0) < ($1.generation, $1.inConfiguredGroup ? 1 : 0) }
    }

    /// Whether `entry` records a biometric enrollment other than the device's now.
    private func biometryChanged(_ entry: Entry) -> Bool {
        guard entry.protection.userPresence == .biometryCurrentSet, let recorded = entry.label.biometry else { return false }
        return access.deviceSecurity().biometryState.map(KeychainItemLabel.biometryDigest) != recorded
    }

    /// Adds `tokens` as the next generation with `protection`, then deletes `stored`.
    private func add(
        _ tokens: StoredTokens, protection: KeychainProtection, label signOut: StoredTokens?, over stored: Entries,
        context: Access.Context
    ) throws {
        let device = access.deviceSecurity()
        try device.check(protection)
        let label = KeychainItemLabel(
            protection: protection,
            biometry: protection.userPresence == .biometryCurrentSet ? device.biometryState.map(KeychainItemLabel.biometryDigest) : nil,
            signOut: signOut
        ).encoded
        guard let data = try? JSONEncoder().encode(tokens) else { throw LatchkeyClientError(.tokenStoreFailed) }
        var generation = (stored.all.map(\.generation).max() ?? 0) + 1
        do {
            try access.add(id(generation), protection: protection, label: label, data: data, context: context)
        } catch where error.status == KeychainStatus.duplicateItem {
            // A writer that does not take the lock added this generation meanwhile.
            generation = (try entries(context).all.map(\.generation).max() ?? generation) + 1
            do {
                try access.add(id(generation), protection: protection, label: label, data: data, context: context)
            } catch {
                throw Self.error(error)
            }
        } catch {
            throw Self.error(error)
        }
        // The new item is in: the older ones go. One that cannot go now is older than the
        // newest, which every reader takes, and the next save or sign-out tries again.
        for entry in stored.all {
            _ = try? access.delete(entry.attributes.id, context: context)
        }
    }

    private func id(_ generation: Int) -> KeychainItemID {
        KeychainItemID(service: options.service, account: "\(options.account)#\(generation)", accessGroup: options.accessGroup)
    }

    private static func prompt(_ options: KeychainOptions) -> String? {
        try? BiometricAvailability.checkedReason(options.authenticationPrompt ?? "")
    }

    private static var biometryChanged: LatchkeyClientError {
        LatchkeyClientError(.sessionExpired, reasons: ["biometry_changed"])
    }

    /// The status a Keychain call failed with; nil when it succeeded.
    private static func status(_ call: () throws(KeychainFailure) -> Void) -> Int32? {
        do {
            try call()
            return nil
        } catch {
            return error.status
        }
    }

    private static func error(_ failure: KeychainFailure) -> LatchkeyClientError {
        KeychainStatus.error(for: failure.status) ?? LatchkeyClientError(.tokenStoreFailed)
    }
}

/// The store's authenticated context, replaced or dropped from any thread.
// `Mutex` would need iOS 18, so an `NSLock` guards the one reference.
final class AuthenticatedContext<Context: AnyObject & Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var context: Context?

    /// The context the person authenticated, if any.
    var current: Context? {
        lock.lock()
        defer { lock.unlock() }
        return context
    }

    /// Replaces the context and returns the one replaced.
    func replace(with new: Context?) -> Context? {
        lock.lock()
        defer { lock.unlock() }
        let old = context
        context = new
        return old
    }
}
