import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// The device token as the SDK keeps it (``DeviceTokenStore``): one per server, shared by every
/// account, left by a sign-out, removed only by "forget this device" — in memory, in the 0600
/// file and in the Keychain.
@Suite struct DeviceTokenStoreTests {
    static let server = URL(string: "https://auth.example.com")!
    static let otherServer = URL(string: "https://auth.example.com:8443")!
    static let token = DeviceToken("oB8kT2m_Qx1zR4yW7vN0pL3sD6fH9jK2aC5eG8iM1uX")!
    static let replacement = DeviceToken("Zq9wE2rT5yU8iO1pA4sD7fG0hJ3kL6zX9cV2bN5mQ8w")!
    static let tokens = StoredTokens(
        accessToken: ClientSecret("access-1"), refreshToken: ClientSecret("refresh-1"), expiresAt: Date(timeIntervalSince1970: 1_900_000_000))

    static func stores(in directory: URL) throws -> [any TokenStore & DeviceTokenStore] {
        [InMemoryTokenStore(), FileTokenStore(directory: directory.appendingPathComponent("store")),
         try KeychainStoreTests.store(KeychainStoreTests.faceID, InMemoryKeychain().process())]
    }

    @Test("only a token shaped like a server's is held, and no textual form shows it", arguments: [
        "", "short", String(repeating: "A", count: 65), "has space in it padding padding padding", "tab\there-padding-padding-pad",
        "newline\nhere-padding-padding-padd", "plus+slash/not/base64url/padding", "ünïcödé-padding-padding-padding",
    ])
    func shape(text: String) {
        #expect(DeviceToken(text) == nil)
    }

    @Test("a well-formed token never prints")
    func redacted() {
        let text = Self.token.value.exposed
        for shown in ["\(Self.token)", String(describing: Self.token), String(reflecting: Self.token), dumped(Self.token)] {
            #expect(!shown.contains(text))
            #expect(!shown.contains(String(text.prefix(8))))
        }
        #expect(DeviceToken(String(repeating: "A", count: 64)) != nil && DeviceToken(String(repeating: "-", count: 16)) != nil)
    }

    @Test("one server, however its URL is spelled; another port or path is another server", arguments: [
        ("https://Auth.Example.com/", "https://auth.example.com"),
        ("HTTPS://auth.example.com//", "https://auth.example.com"),
        ("https://auth.example.com/?q=1#f", "https://auth.example.com"),
        ("https://auth.example.com:8443/", "https://auth.example.com:8443"),
        ("https://auth.example.com/tenant/", "https://auth.example.com/tenant"),
    ])
    func serverKey(url: String, key: String) throws {
        #expect(DeviceToken.serverKey(try #require(URL(string: url))) == key)
    }

    @Test("save, load, replace; per server; a sign-out (clear) leaves it; forget removes only that server's")
    func contract() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        for store in try Self.stores(in: temporary.url) {
            #expect(try store.deviceToken(for: Self.server) == nil)
            try store.forgetDevice(for: Self.server)  // none kept: nothing to do
            try store.saveDeviceToken(Self.token, for: Self.server)
            #expect(try store.deviceToken(for: Self.server) == Self.token)
            #expect(try store.deviceToken(for: try #require(URL(string: "https://AUTH.example.com/"))) == Self.token)
            #expect(try store.deviceToken(for: Self.otherServer) == nil)
            try store.saveDeviceToken(Self.replacement, for: Self.otherServer)

            try store.save(Self.tokens)
            try store.clear()
            #expect(try store.load() == nil)
            #expect(try store.deviceToken(for: Self.server) == Self.token, "\(type(of: store)): sign-out must leave the device token")

            try store.saveDeviceToken(Self.replacement, for: Self.server)
            #expect(try store.deviceToken(for: Self.server) == Self.replacement)
            try store.forgetDevice(for: Self.server)
            #expect(try store.deviceToken(for: Self.server) == nil)
            #expect(try store.deviceToken(for: Self.otherServer) == Self.replacement)
        }
    }

    @Test("the file store: a 0600 file per server in the 0700 directory, holding the server and the token")
    func fileStore() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url.appendingPathComponent("latchkey"))
        try store.saveDeviceToken(Self.token, for: Self.server)
        try store.saveDeviceToken(Self.replacement, for: Self.server)
        let file = store.directory.appendingPathComponent(FileTokenStore.deviceFileName(for: Self.server))
        #expect(try permissions(store.directory) == 0o700)
        #expect(try permissions(file) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path) == [file.lastPathComponent])
        #expect(file.lastPathComponent.hasPrefix("device-") && file.lastPathComponent.count == "device-".count + 32 + ".json".count)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: String])
        #expect(json == ["server": "https://auth.example.com", "device_token": Self.replacement.value.exposed])

        // Another server's file put in its place, or a token of the wrong shape, is corrupted.
        try store.saveDeviceToken(Self.token, for: Self.otherServer)
        let other = store.directory.appendingPathComponent(FileTokenStore.deviceFileName(for: Self.otherServer))
        try FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: other, to: file)
        let moved = #expect(throws: LatchkeyClientError.self) { try store.deviceToken(for: Self.server) }
        #expect(moved?.code == .tokenStoreCorrupted)
        try Data(#"{"server":"https://auth.example.com","device_token":"bad token"}"#.utf8).write(to: file)
        let malformed = #expect(throws: LatchkeyClientError.self) { try store.deviceToken(for: Self.server) }
        #expect(malformed?.code == .tokenStoreCorrupted)
        // A new save heals it.
        try store.saveDeviceToken(Self.token, for: Self.server)
        #expect(try store.deviceToken(for: Self.server) == Self.token)
    }

    @Test("the Keychain store: its own service, AfterFirstUnlockThisDeviceOnly without Face ID whatever the options, one item left")
    func keychainItem() throws {
        let keychain = InMemoryKeychain()
        let store = try KeychainStoreTests.store(KeychainStoreTests.faceID, keychain.process())
        try store.saveDeviceToken(Self.token, for: Self.server)
        try store.saveDeviceToken(Self.replacement, for: Self.server)
        let items = keychain.stored
        #expect(items.keys.map(\.service) == ["svc.device"])
        #expect(items.keys.map(\.account) == ["https://auth.example.com#2"])
        #expect(items.values.map(\.protection) == [KeychainProtection(accessibility: .afterFirstUnlockThisDeviceOnly, userPresence: .none)])
        #expect(items.values.map(\.data) == [Data(Self.replacement.value.exposed.utf8)])
        // Readable while the device is locked (after the first unlock), and by another account's store.
        keychain.setLockState(.locked)
        let otherAccount = try KeychainStoreTests.store(
            KeychainOptions(service: "svc", account: "second", authenticationPrompt: "Unlock"), keychain.process())
        #expect(try otherAccount.deviceToken(for: Self.server) == Self.replacement)
    }

    @Test("killed or failing at any call of a save, the Keychain holds the old device token or the new one", arguments: [
        InMemoryKeychain.Process.Fault.kill, .status(KeychainStatus.interactionNotAllowed),
    ])
    func keychainAtomicSave(fault: InMemoryKeychain.Process.Fault) throws {
        var call = 0
        while true {
            let keychain = InMemoryKeychain()
            try KeychainStoreTests.store(KeychainStoreTests.plain, keychain.process()).saveDeviceToken(Self.token, for: Self.server)
            let process = keychain.process()
            process.inject(fault, atCall: call)
            let saved = (try? KeychainStoreTests.store(KeychainStoreTests.plain, process).saveDeviceToken(Self.replacement, for: Self.server)) != nil
            let loaded = try KeychainStoreTests.store(KeychainStoreTests.plain, keychain.process()).deviceToken(for: Self.server)
            #expect(loaded == Self.token || loaded == Self.replacement, "call \(call)")
            if saved, case .status = fault { #expect(loaded == Self.replacement) }
            if process.log.count <= call { break }
            call += 1
        }
        #expect(call >= 3)
    }

    private func permissions(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    private func dumped(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}
