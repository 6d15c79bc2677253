import Foundation
import LatchkeyClient

/// A saved session behind (or not behind) Face ID, as the app's Keychain stores see it:
/// what the model must decide is when to ask and what to show, not how the Keychain works
/// (LatchkeyClientTests cover that). Stores made by ``store(requireFaceID:)`` share it, as
/// two `KeychainTokenStore`s share one item; reading never asks, only ``authenticate()`` does.
final class FaceIDVault: @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: StoredTokens?
    private var protected = false
    private var authenticated = false
    private var canHoldFaceID = true
    private var answer: Bool = true
    private var asked = 0
    private var loads = 0
    private var enrollmentChanged = false

    init(tokens: StoredTokens? = nil, protected: Bool = false) {
        self.tokens = tokens
        self.protected = protected
    }

    /// How many times Face ID was asked for.
    var prompts: Int { withLock { asked } }
    /// How many reads were made.
    var reads: Int { withLock { loads } }
    /// Whether the saved session needs Face ID.
    var isProtected: Bool { withLock { protected } }

    /// Whether the person passes the next prompts (false: cancels).
    func answerPrompts(pass: Bool) { withLock { answer = pass } }
    /// Whether the device has a passcode (and so can hold a Face ID item).
    func setPasscode(_ set: Bool) { withLock { canHoldFaceID = set } }

    /// A new face was enrolled: the saved session can never be read again.
    func enrollAnotherFace() { withLock { enrollmentChanged = true } }

    /// A store with or without Face ID in its options.
    func store(requireFaceID: Bool) -> Store { Store(vault: self, requireFaceID: requireFaceID) }

    struct Store: ProtectionChangingTokenStore {
        let vault: FaceIDVault
        let requireFaceID: Bool

        func load() throws -> StoredTokens? {
            try vault.withLock {
                vault.loads += 1
                if vault.enrollmentChanged, vault.tokens != nil {
                    throw LatchkeyClientError(.sessionExpired, reasons: ["biometry_changed"])
                }
                if vault.protected, vault.tokens != nil, !vault.authenticated { throw LatchkeyClientError(.userAuthenticationRequired) }
                return vault.tokens
            }
        }

        func save(_ tokens: StoredTokens) throws {
            vault.withLock {
                if vault.tokens == nil { vault.protected = requireFaceID }
                vault.tokens = tokens
            }
        }

        func clear() throws { vault.withLock { vault.tokens = nil } }

        func tokensForSignOut() throws -> StoredTokens? { vault.withLock { vault.tokens } }

        func authenticate() async throws {
            try vault.withLock {
                guard vault.protected, vault.tokens != nil else { return }
                vault.asked += 1
                guard vault.answer else { throw LatchkeyClientError(.userAuthenticationFailed, reasons: ["cancelled"]) }
                vault.authenticated = true
            }
        }

        func requireAuthentication() { vault.withLock { vault.authenticated = false } }

        func canSignOutWithoutUser() throws -> Bool { true }

        func storedProtection() throws -> KeychainProtection? {
            vault.withLock {
                guard vault.tokens != nil else { return nil }
                return KeychainProtection(accessibility: .whenPasscodeSetThisDeviceOnly, userPresence: vault.protected ? .userPresence : .none)
            }
        }

        func changeProtection(allowingWeaker: Bool, lockTimeout: Double) async throws {
            let needsAuthentication = vault.withLock { vault.protected && !requireFaceID && !vault.authenticated }
            if needsAuthentication { try await authenticate() }
            try vault.withLock {
                guard vault.tokens != nil, vault.protected != requireFaceID else { return }
                if requireFaceID, !vault.canHoldFaceID { throw LatchkeyClientError(.tokenStoreFailed, reasons: ["passcode_not_set"]) }
                if !requireFaceID, !allowingWeaker { throw LatchkeyClientError(.invalidConfiguration, reasons: ["weaker_protection"]) }
                vault.protected = requireFaceID
            }
        }
    }

    fileprivate func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
