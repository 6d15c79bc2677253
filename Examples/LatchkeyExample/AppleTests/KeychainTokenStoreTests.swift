import Foundation
import LatchkeyClient
import Testing

/// The Keychain store against the simulator's real Keychain: that `SecItemKeychain` maps the
/// store's calls onto `SecItem…` as the in-memory Keychain of the Linux tests models them.
/// Each test uses its own service and removes its items. (Face ID cannot be answered here.)
@Suite(.serialized) struct KeychainTokenStoreTests {
    static func options(_ test: String, accessibility: KeychainOptions.Accessibility = .whenUnlockedThisDeviceOnly) -> KeychainOptions {
        KeychainOptions(service: "dev.latchkey.tests.\(test)", accessibility: accessibility, authenticationPrompt: "Run the tests")
    }

    static let tokens = StoredTokens(
        accessToken: ClientSecret("access"), refreshToken: ClientSecret("refresh"),
        expiresAt: Date(timeIntervalSince1970: 1_790_000_000), subject: "user-1")

    @Test("save, load, save again (a new item, the old one removed), clear")
    func roundTrip() throws {
        let store = try KeychainTokenStore(options: Self.options("round-trip"))
        defer { try? store.clear() }
        #expect(try store.load() == nil)
        try store.save(Self.tokens)
        #expect(try store.load() == Self.tokens)
        let next = StoredTokens(accessToken: ClientSecret("access-2"), refreshToken: nil, expiresAt: Self.tokens.expiresAt)
        try store.save(next)
        #expect(try store.load() == next)
        try store.clear()
        try store.clear()
        #expect(try store.load() == nil)
    }

    @Test("reading never rewrites; a save keeps the stored protection; changeProtection changes it")
    func protection() async throws {
        let before = try KeychainTokenStore(options: Self.options("protection"))
        defer { try? before.clear() }
        try before.save(Self.tokens)
        let after = try KeychainTokenStore(options: Self.options("protection", accessibility: .afterFirstUnlockThisDeviceOnly))
        #expect(try after.load() == Self.tokens)
        try after.save(Self.tokens)
        #expect(try after.storedProtection()?.accessibility == .whenUnlockedThisDeviceOnly)
        await #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["weaker_protection"])) {
            try await after.changeProtection(allowingWeaker: false)
        }
        try await after.changeProtection(allowingWeaker: true)
        #expect(try before.storedProtection()?.accessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(try before.load() == Self.tokens)
    }
}
