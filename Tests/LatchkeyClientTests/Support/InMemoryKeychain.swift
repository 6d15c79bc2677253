import Foundation
import LatchkeyClient

/// A device's Keychain in memory, behaving as Apple documents `SecItem…` and `LAContext`
/// for generic passwords, so ``KeychainItemStore`` is tested on Linux:
/// - items are keyed by service, account and access group; adding one that exists is
///   `errSecDuplicateItem`, reading or deleting one that does not `errSecItemNotFound`;
///   adding without a group puts the item in the app's first group; a query without a group
///   searches every group the app has; a group outside the entitlement is `errSecMissingEntitlement`;
/// - an item's accessibility decides when it can be touched: nothing before the first unlock,
///   only `afterFirstUnlock…` items while locked; else `errSecInteractionNotAllowed`;
/// - the data of an item with user presence needs a context someone authenticated; with UI
///   forbidden (every context here) it is `errSecInteractionNotAllowed` otherwise; a
///   `biometryCurrentSet` item is bound to the enrollment it was added under and, once that
///   changes, reads as `errSecItemNotFound`; deleting needs no one;
/// - adding an item that needs a passcode or enrolled biometrics the device lacks is
///   `errSecAuthFailed`;
/// - `authenticate` is the one place a prompt is shown, and counts it.
///
/// Each ``Process`` is one app or extension using the device's Keychain: it can fail a chosen
/// call with a status, or be "killed" before a chosen call — that call and every later one
/// of the process then fail without effect, as if it had died there; a new process sees
/// what the Keychain holds.
final class InMemoryKeychain: @unchecked Sendable {
    /// When protected data is available.
    enum LockState {
        /// Restarted, never unlocked: nothing can be read.
        case beforeFirstUnlock
        /// Locked after a first unlock: only `afterFirstUnlock…` items.
        case locked
        /// Unlocked.
        case unlocked
    }

    /// What the person does at the next prompt.
    enum PromptAnswer {
        /// Passes Face ID (or the passcode).
        case pass
        /// Cancels the sheet (`LAError.userCancel`).
        case cancel
    }

    struct Item {
        var protection: KeychainProtection
        var label: Data
        var data: Data
        var createdAt: Date
        /// The enrollment a `biometryCurrentSet` item was added under.
        var boundEnrollment: Data?
    }

    private let lock = NSLock()
    private var items: [KeychainItemID: Item] = [:]
    private var now = Date(timeIntervalSince1970: 1_800_000_000)
    private var lockState = LockState.unlocked
    private var passcodeSet = true
    private var enrollment: Data? = Data("face-1".utf8)
    private var answer = PromptAnswer.pass
    private var prompts = 0
    private var holding = false
    private var heldPrompts: [CheckedContinuation<Void, Never>] = []

    // MARK: The device, as a test drives it

    /// The items, for inspection.
    var stored: [KeychainItemID: Item] { withLock { items } }
    /// How many prompts were shown.
    var promptCount: Int { withLock { prompts } }

    /// Locks, unlocks or restarts the device.
    func setLockState(_ state: LockState) { withLock { lockState = state } }
    /// Sets or removes the passcode; removing it deletes `whenPasscodeSet…` items, as iOS does.
    func setPasscode(_ set: Bool) {
        withLock {
            passcodeSet = set
            if !set { items = items.filter { $0.value.protection.accessibility != .whenPasscodeSetThisDeviceOnly } }
        }
    }
    /// Enrolls another face (a new enrollment state), or removes biometrics (nil).
    func setEnrollment(_ state: Data?) { withLock { enrollment = state } }
    /// What the person does at the next prompts.
    func setAnswer(_ answer: PromptAnswer) { withLock { self.answer = answer } }
    /// Keeps every prompt from now on up — the person looking at the phone — until ``releasePrompts()``.
    func holdPrompts() { withLock { holding = true } }
    /// Lets the prompts held up finish.
    func releasePrompts() {
        let held = withLock {
            holding = false
            defer { heldPrompts = [] }
            return heldPrompts
        }
        for prompt in held { prompt.resume() }
    }
    /// How many prompts are up now.
    var promptsUp: Int { withLock { heldPrompts.count } }
    /// Moves the clock (creation dates) forward.
    func advanceClock(by seconds: TimeInterval) { withLock { now = now.addingTimeInterval(seconds) } }
    /// The clock.
    var clock: Date { withLock { now } }
    /// Puts an item there directly (as an earlier SDK or a previous installation left it).
    func plant(_ id: KeychainItemID, _ item: Item) { withLock { items[id] = item } }

    /// A process using this Keychain with `accessGroups` (the first is the default).
    func process(accessGroups: [String] = ["TEAMID.com.example.app"]) -> Process {
        Process(device: self, accessGroups: accessGroups)
    }

    fileprivate func withLock<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    fileprivate func available(_ protection: KeychainProtection) -> Bool {
        switch lockState {
        case .beforeFirstUnlock: false
        case .locked: [.afterFirstUnlock, .afterFirstUnlockThisDeviceOnly].contains(protection.accessibility)
        case .unlocked: true
        }
    }

    // MARK: One process

    /// One app or extension: ``KeychainItemAccess`` over the device's Keychain.
    final class Process: KeychainItemAccess, @unchecked Sendable {
        /// An `LAContext`: UI is forbidden on every one; `authenticated` after a prompt passed.
        final class Context: @unchecked Sendable {
            fileprivate var authenticated = false
            fileprivate var invalidated = false
        }

        /// A call the test makes fail or stop.
        enum Fault {
            /// The call returns this status, without effect.
            case status(Int32)
            /// The process dies before the call: it and every later call fail without effect.
            case kill
        }

        /// The status a killed process's calls "return" (it would return nothing at all).
        static let killed: Int32 = -99_999

        let device: InMemoryKeychain
        let accessGroups: [String]
        private let lock = NSLock()
        private var calls: [String] = []
        private var faults: [Int: Fault] = [:]
        private var dead = false

        fileprivate init(device: InMemoryKeychain, accessGroups: [String]) {
            self.device = device
            self.accessGroups = accessGroups
        }

        /// The Keychain calls made so far: `items`, `data <account>`, `add <account>`, `delete <account>`.
        var log: [String] { withLock { calls } }
        /// Whether a kill happened.
        var isDead: Bool { withLock { dead } }

        /// Makes call number `call` (counting from 0, every call of this process) fail with `fault`.
        func inject(_ fault: Fault, atCall call: Int) { withLock { faults[call] = fault } }

        func makeContext() -> Context { Context() }

        func authenticate(for protection: KeychainProtection, reason: String) async throws -> Context {
            await withCheckedContinuation { (prompt: CheckedContinuation<Void, Never>) in
                let up = device.withLock {
                    if device.holding { device.heldPrompts.append(prompt) }
                    return device.holding
                }
                if !up { prompt.resume() }
            }
            return try device.withLock {
                device.prompts += 1
                guard !reason.isEmpty else { throw LatchkeyClientError(.invalidConfiguration, reasons: ["empty_reason"]) }
                switch protection.deviceRequirement {
                case .enrolledBiometrics? where device.enrollment == nil, .passcode? where !device.passcodeSet:
                    throw UserAuthenticationStatus.error(forCode: -6)
                default: break
                }
                guard device.answer == .pass else { throw UserAuthenticationStatus.error(forCode: -2) }
                let context = Context()
                context.authenticated = true
                return context
            }
        }

        func invalidate(_ context: Context) {
            device.withLock { context.invalidated = true }
        }

        func deviceSecurity() -> DeviceSecurity {
            device.withLock {
                DeviceSecurity(passcodeSet: device.passcodeSet, biometryEnrolled: device.enrollment != nil, biometryState: device.enrollment)
            }
        }

        func items(service: String, context: Context) throws(KeychainFailure) -> [KeychainItemAttributes] {
            try call("items")
            return try device.withLock { () throws(KeychainFailure) -> [KeychainItemAttributes] in
                let found = device.items.filter { $0.key.service == service && accessGroups.contains($0.key.accessGroup ?? "") }
                guard !found.isEmpty else { throw KeychainFailure(KeychainStatus.itemNotFound) }
                guard found.values.allSatisfy({ device.available($0.protection) }) else {
                    throw KeychainFailure(KeychainStatus.interactionNotAllowed)
                }
                return found.map { KeychainItemAttributes(id: $0.key, label: $0.value.label, createdAt: $0.value.createdAt) }
                    .sorted { $0.id.account < $1.id.account }
            }
        }

        func data(of id: KeychainItemID, context: Context) throws(KeychainFailure) -> Data {
            try call("data \(id.account)")
            return try device.withLock { () throws(KeychainFailure) -> Data in
                guard let item = match(id).first?.1 else { throw KeychainFailure(KeychainStatus.itemNotFound) }
                guard device.available(item.protection) else { throw KeychainFailure(KeychainStatus.interactionNotAllowed) }
                if item.protection.userPresence == .biometryCurrentSet, item.boundEnrollment != device.enrollment {
                    throw KeychainFailure(KeychainStatus.itemNotFound)  // unreadable forever, though still listed
                }
                if item.protection.needsUserPresence, !context.authenticated || context.invalidated {
                    throw KeychainFailure(KeychainStatus.interactionNotAllowed)  // would need UI
                }
                return item.data
            }
        }

        func add(_ id: KeychainItemID, protection: KeychainProtection, label: Data, data: Data, context: Context) throws(KeychainFailure) {
            try call("add \(id.account)")
            try device.withLock { () throws(KeychainFailure) in
                let group = id.accessGroup ?? accessGroups[0]
                guard accessGroups.contains(group) else { throw KeychainFailure(KeychainStatus.missingEntitlement) }
                let key = KeychainItemID(service: id.service, account: id.account, accessGroup: group)
                guard device.items[key] == nil else { throw KeychainFailure(KeychainStatus.duplicateItem) }
                guard device.available(protection) else { throw KeychainFailure(KeychainStatus.interactionNotAllowed) }
                switch protection.deviceRequirement {
                case .enrolledBiometrics? where device.enrollment == nil, .passcode? where !device.passcodeSet:
                    throw KeychainFailure(KeychainStatus.authFailed)
                default: break
                }
                device.now = device.now.addingTimeInterval(1)
                device.items[key] = Item(
                    protection: protection, label: label, data: data, createdAt: device.now,
                    boundEnrollment: protection.userPresence == .biometryCurrentSet ? device.enrollment : nil)
            }
        }

        func delete(_ id: KeychainItemID, context: Context) throws(KeychainFailure) {
            try call("delete \(id.account)")
            try device.withLock { () throws(KeychainFailure) in
                let matched = match(id)
                guard !matched.isEmpty else { throw KeychainFailure(KeychainStatus.itemNotFound) }
                guard matched.allSatisfy({ device.available($0.1.protection) }) else {
                    throw KeychainFailure(KeychainStatus.interactionNotAllowed)
                }
                for (key, _) in matched { device.items[key] = nil }
            }
        }

        /// The items `id` names: one group, or every group of the app when it names none.
        private func match(_ id: KeychainItemID) -> [(KeychainItemID, Item)] {
            device.items.filter { key, _ in
                key.service == id.service && key.account == id.account
                    && (id.accessGroup.map { key.accessGroup == $0 } ?? accessGroups.contains(key.accessGroup ?? ""))
            }.map { ($0.key, $0.value) }
        }

        /// Counts a call; fails it as injected, or because the process died.
        private func call(_ name: String) throws(KeychainFailure) {
            let fault: Fault? = withLock {
                let number = calls.count
                calls.append(name)
                if dead { return .kill }
                if case .kill? = faults[number] { dead = true }
                return faults[number]
            }
            switch fault {
            case .kill?: throw KeychainFailure(Self.killed)
            case .status(let status)?: throw KeychainFailure(status)
            case nil: return
            }
        }

        private func withLock<Value>(_ body: () -> Value) -> Value {
            lock.lock()
            defer { lock.unlock() }
            return body()
        }
    }
}
