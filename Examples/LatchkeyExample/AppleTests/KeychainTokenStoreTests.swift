import Foundation
import LatchkeyClient
import Testing

/// The Keychain store against the simulator's real Keychain: what the Linux tests can only
/// check as a plan. Each test uses its own service, and removes its item and files.
@Suite(.serialized) struct KeychainTokenStoreTests {
    static func options(_ test: String, accessibility: KeychainOptions.Accessibility = .whenUnlockedThisDeviceOnly, wipe: Bool = false)
        -> KeychainOptions
    {
        KeychainOptions(service: "dev.latchkey.tests.\(test)", accessibility: accessibility, wipeOnReinstall: wipe)
    }

    static let tokens = StoredTokens(
        accessToken: ClientSecret("access"), refreshToken: ClientSecret("refresh"),
        expiresAt: Date(timeIntervalSince1970: 1_790_000_000), subject: "user-1")

    @Test("save, load, save again (update in place), clear")
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

    @Test("a store with other protection reads the item and rewrites it with its own")
    func migration() throws {
        let before = try KeychainTokenStore(options: Self.options("migration"))
        defer { try? before.clear() }
        try before.save(Self.tokens)
        let after = try KeychainTokenStore(options: Self.options("migration", accessibility: .afterFirstUnlockThisDeviceOnly))
        #expect(try after.load() == Self.tokens)
        // Written back with the new protection: the old store now finds another tag, and
        // migrates it back on its own read; the tokens survive both ways.
        #expect(try before.load() == Self.tokens)
    }

    @Test("after a reinstall (no marker), a wiping store deletes the leftover item unread; then it keeps new ones")
    func reinstallWipe() throws {
        let store = try KeychainTokenStore(options: Self.options("wipe", wipe: true))
        defer { try? store.clear() }
        try store.save(Self.tokens)
        try FileManager.default.removeItem(at: store.files.installMarker)  // what deleting the app does
        #expect(try store.load() == nil)
        try store.save(Self.tokens)
        #expect(try store.load() == Self.tokens)
    }
}
