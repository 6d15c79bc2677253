import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// ``KeychainItemStore`` — every decision of the Keychain token store — over an in-memory
/// Keychain that behaves as Apple documents and fails or stops between any two calls.
@Suite struct KeychainStoreTests {
    static let first = StoredTokens(
        accessToken: ClientSecret("access-1"), refreshToken: ClientSecret("refresh-1"), expiresAt: Date(timeIntervalSince1970: 1_900_000_000),
        subject: "user-1")
    static let second = StoredTokens(
        accessToken: ClientSecret("access-2"), refreshToken: ClientSecret("refresh-2"), expiresAt: Date(timeIntervalSince1970: 1_900_003_600),
        subject: "user-1", revocationToken: ClientSecret("refresh-1"))

    static let plain = KeychainOptions(service: "svc", accessibility: .afterFirstUnlockThisDeviceOnly, authenticationPrompt: "Unlock your session")
    static let faceID = KeychainOptions(
        service: "svc", accessibility: .whenPasscodeSetThisDeviceOnly, userPresence: .userPresence, authenticationPrompt: "Unlock your session")
    static let currentFaces = KeychainOptions(
        service: "svc", accessibility: .whenPasscodeSetThisDeviceOnly, userPresence: .biometryCurrentSet,
        authenticationPrompt: "Unlock your session")

    static func store(
        _ options: KeychainOptions, _ process: InMemoryKeychain.Process, installedAt: Date? = nil
    ) throws -> KeychainItemStore<InMemoryKeychain.Process> {
        try KeychainItemStore(
            options: options, access: process,
            files: KeychainSupportFiles(container: URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("keychain-tests"), options: options),
            installedAt: installedAt)
    }

    /// The protections of the items of `keychain`, newest account last.
    static func protections(_ keychain: InMemoryKeychain) -> [KeychainProtection] {
        keychain.stored.sorted { $0.key.account < $1.key.account }.map(\.value.protection)
    }

    @Test("save, load, save again, clear: each save adds a new item and removes the old one")
    func roundTrip() throws {
        let keychain = InMemoryKeychain()
        let store = try Self.store(Self.plain, keychain.process())
        #expect(try store.load() == nil)
        try store.save(Self.first)
        #expect(try store.load() == Self.first)
        try store.save(Self.second)
        #expect(try store.load() == Self.second)
        #expect(keychain.stored.keys.map(\.account) == ["default#2"])
        try store.clear()
        try store.clear()
        #expect(try store.load() == nil)
        #expect(keychain.stored.isEmpty)
    }

    @Test("reading never writes: a store with other options reads the item and leaves it as it is")
    func readingNeverWrites() throws {
        let keychain = InMemoryKeychain()
        try Self.store(Self.plain, keychain.process()).save(Self.first)
        let before = keychain.stored
        for options in [KeychainOptions(service: "svc"), Self.faceID, Self.currentFaces] {
            let process = keychain.process()
            #expect(try Self.store(options, process).load() == Self.first)
            #expect(process.log.allSatisfy { $0 == "items" || $0.hasPrefix("data") })
        }
        #expect(keychain.stored.keys == before.keys)
        #expect(Self.protections(keychain) == [Self.plain.protection])
    }

    @Test("a save keeps the stored protection: a store with default options never drops Face ID, nor do two stores fight")
    func savesKeepProtection() async throws {
        let keychain = InMemoryKeychain()
        let app = try Self.store(Self.faceID, keychain.process())
        try app.save(Self.first)
        // An extension whose options do not ask for Face ID (or @AppStorage read its default).
        let extensionStore = try Self.store(KeychainOptions(service: "svc"), keychain.process())
        #expect(throws: LatchkeyClientError(.userAuthenticationRequired)) { try extensionStore.load() }
        try extensionStore.save(Self.second)
        #expect(Self.protections(keychain) == [Self.faceID.protection])
        // Two stores with other options, saving in turn: the protection stays.
        try app.save(Self.first)
        try extensionStore.save(Self.second)
        #expect(Self.protections(keychain) == [Self.faceID.protection])
        #expect(throws: LatchkeyClientError(.userAuthenticationRequired)) { try app.load() }
        try await app.authenticate()
        #expect(try app.load() == Self.second)
    }

    @Test("the first item gets the options' protection")
    func firstItemProtection() throws {
        let keychain = InMemoryKeychain()
        try Self.store(Self.currentFaces, keychain.process()).save(Self.first)
        #expect(Self.protections(keychain) == [Self.currentFaces.protection])
    }

    @Test("killed or failing before any call of a save, the Keychain holds the old tokens or the new ones", arguments: [
        InMemoryKeychain.Process.Fault.kill, .status(KeychainStatus.interactionNotAllowed), .status(-34018),
    ])
    func atomicSaves(fault: InMemoryKeychain.Process.Fault) async throws {
        for options in [Self.plain, Self.faceID] {
            var call = 0
            while true {
                let keychain = InMemoryKeychain()
                try Self.store(options, keychain.process()).save(Self.first)
                let process = keychain.process()
                process.inject(fault, atCall: call)
                let saved = (try? Self.store(options, process).save(Self.second)) != nil
                let reader = keychain.process()
                let store = try Self.store(options, reader)
                try await store.authenticate()
                let loaded = try store.load()
                #expect(loaded == Self.first || loaded == Self.second, "call \(call)")
                if saved, case .status = fault { #expect(loaded == Self.second) }
                if process.log.count <= call { break }  // the save made fewer calls: every one was tried
                call += 1
            }
            #expect(call >= 3)
        }
    }

    @Test("a locked device is token_store_locked, never signed out")
    func locked() throws {
        let keychain = InMemoryKeychain()
        let store = try Self.store(KeychainOptions(service: "svc"), keychain.process())
        try store.save(Self.first)
        keychain.setLockState(.locked)
        #expect(throws: LatchkeyClientError(.tokenStoreLocked, reasons: ["device_locked"])) { try store.load() }
        #expect(throws: LatchkeyClientError(.tokenStoreLocked, reasons: ["device_locked"])) { try store.save(Self.second) }
        keychain.setLockState(.unlocked)
        #expect(try store.load() == Self.first)
        // An afterFirstUnlock item can be refreshed while locked, not before the first unlock.
        let background = try Self.store(Self.plain, keychain.process())
        try background.clear()
        try background.save(Self.first)
        keychain.setLockState(.locked)
        try background.save(Self.second)
        keychain.setLockState(.beforeFirstUnlock)
        #expect(throws: LatchkeyClientError(.tokenStoreLocked, reasons: ["device_locked"])) { try background.load() }
    }

    @Test("no call shows UI: reading needs an authentication first, which asks once; cancelling is user_authentication_failed")
    func noKeychainUI() async throws {
        let keychain = InMemoryKeychain()
        let store = try Self.store(Self.faceID, keychain.process())
        try store.save(Self.first)
        #expect(throws: LatchkeyClientError(.userAuthenticationRequired)) { try store.load() }
        #expect(try store.tokensForSignOut() == nil)  // unreadable, and nothing refreshed yet
        try store.clear()
        try store.save(Self.first)
        #expect(keychain.promptCount == 0)
        keychain.setAnswer(.cancel)
        await #expect(throws: LatchkeyClientError(.userAuthenticationFailed, reasons: ["cancelled"])) { try await store.authenticate() }
        #expect(throws: LatchkeyClientError(.userAuthenticationRequired)) { try store.load() }
        keychain.setAnswer(.pass)
        try await store.authenticate()
        #expect(keychain.promptCount == 2)
        #expect(try store.load() == Self.first)
        try store.save(Self.second)
        #expect(try store.load() == Self.second)
        #expect(keychain.promptCount == 2)
        store.requireAuthentication()
        #expect(throws: LatchkeyClientError(.userAuthenticationRequired)) { try store.load() }
        // Nothing to ask for: no prompt.
        try await Self.store(Self.plain, InMemoryKeychain().process()).authenticate()
        #expect(keychain.promptCount == 2)
    }

    @Test("sign-out needs no Face ID: the spent refresh token in the label revokes, and the items go")
    func signOutWithoutFaceID() throws {
        let keychain = InMemoryKeychain()
        let store = try Self.store(Self.faceID, keychain.process())
        try store.save(Self.second)
        let record = try #require(try store.tokensForSignOut())
        #expect(record.refreshToken == ClientSecret("refresh-1"))
        #expect(record.accessToken == ClientSecret(""))
        try store.clear()
        #expect(keychain.stored.isEmpty)
        #expect(keychain.promptCount == 0)
    }

    @Test("a new face ends a biometryCurrentSet session without a prompt; sign-out and a new sign-in still work")
    func biometryChange() async throws {
        let keychain = InMemoryKeychain()
        let store = try Self.store(Self.currentFaces, keychain.process())
        try store.save(Self.second)
        try await store.authenticate()
        #expect(try store.load() == Self.second)
        keychain.setEnrollment(Data("face-1+face-2".utf8))
        let changed = LatchkeyClientError(.sessionExpired, reasons: ["biometry_changed"])
        #expect(throws: changed) { try store.load() }
        await #expect(throws: changed) { try await store.authenticate() }
        #expect(keychain.promptCount == 1)
        #expect(try store.tokensForSignOut()?.refreshToken == ClientSecret("refresh-1"))
        // Signing in again binds the new item to the new enrollment.
        try store.save(Self.first)
        try await store.authenticate()
        #expect(try store.load() == Self.first)
        // An item bound to an old enrollment but without a record of it (written by another
        // version) is found out when, authenticated, it cannot be read.
        keychain.setEnrollment(Data("face-3".utf8))
        let legacy = KeychainItemID(service: "svc", account: "default", accessGroup: "TEAMID.com.example.app")
        var item = try #require(keychain.stored.values.first)
        item.label = Data("latchkey-protection-1 whenPasscodeSetThisDeviceOnly biometryCurrentSet".utf8)
        try store.clear()
        keychain.setEnrollment(Data("face-4".utf8))
        keychain.plant(legacy, item)
        try await store.authenticate()
        #expect(throws: changed) { try store.load() }
        try store.clear()
        #expect(keychain.stored.isEmpty)
    }

    @Test("protection changes only when asked: stronger needs no prompt, weaker needs allowingWeaker and one prompt")
    func explicitMigration() async throws {
        let keychain = InMemoryKeychain()
        try Self.store(Self.plain, keychain.process()).save(Self.first)
        let toFaceID = try Self.store(Self.faceID, keychain.process())
        try await toFaceID.changeProtection(allowingWeaker: false, lockTimeout: 5)
        #expect(Self.protections(keychain) == [Self.faceID.protection])
        #expect(keychain.promptCount == 0)
        let back = try Self.store(Self.plain, keychain.process())
        await #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["weaker_protection"])) {
            try await back.changeProtection(allowingWeaker: false, lockTimeout: 5)
        }
        #expect(Self.protections(keychain) == [Self.faceID.protection])
        try await back.changeProtection(allowingWeaker: true, lockTimeout: 5)
        #expect(Self.protections(keychain) == [Self.plain.protection])
        #expect(keychain.promptCount == 1)
        #expect(try back.load() == Self.first)
        // Nothing stored: nothing to change; the options apply to the next sign-in.
        try back.clear()
        try await toFaceID.changeProtection(allowingWeaker: false, lockTimeout: 5)
        #expect(keychain.stored.isEmpty)
    }

    @Test("a device that cannot hold the protection fails the save or migration before anything is deleted")
    func deviceRequirements() async throws {
        let keychain = InMemoryKeychain()
        try Self.store(Self.plain, keychain.process()).save(Self.first)
        keychain.setEnrollment(nil)
        await #expect(throws: LatchkeyClientError(.tokenStoreFailed, reasons: ["biometry_not_enrolled"])) {
            try await Self.store(Self.currentFaces, keychain.process()).changeProtection(allowingWeaker: false, lockTimeout: 5)
        }
        keychain.setPasscode(false)
        await #expect(throws: LatchkeyClientError(.tokenStoreFailed, reasons: ["passcode_not_set"])) {
            try await Self.store(Self.faceID, keychain.process()).changeProtection(allowingWeaker: false, lockTimeout: 5)
        }
        #expect(try Self.store(Self.plain, keychain.process()).load() == Self.first)
        #expect(Self.protections(keychain) == [Self.plain.protection])
    }

    @Test("killed before any call of a migration, both ways, no tokens are lost")
    func migrationKills() async throws {
        for (from, to) in [(Self.plain, Self.faceID), (Self.faceID, Self.plain)] {
            var call = 0
            while true {
                let keychain = InMemoryKeychain()
                try Self.store(from, keychain.process()).save(Self.first)
                let process = keychain.process()
                process.inject(.kill, atCall: call)
                try? await Self.store(to, process).changeProtection(allowingWeaker: true, lockTimeout: 5)
                for options in [from, to] {
                    let reader = try Self.store(options, keychain.process())
                    try await reader.authenticate()
                    #expect(try reader.load() == Self.first, "call \(call)")
                }
                if process.log.count <= call { break }
                call += 1
            }
            #expect(call >= 3)
        }
    }

    @Test("after a reinstall an item older than the app's container reads as absent, and the next save removes it")
    func reinstall() throws {
        let keychain = InMemoryKeychain()
        let options = KeychainOptions(service: "svc", wipeOnReinstall: true)
        try Self.store(options, keychain.process(), installedAt: keychain.clock).save(Self.second)  // the previous install
        keychain.advanceClock(by: 3600)
        let reinstalled = keychain.clock
        let store = try Self.store(options, keychain.process(), installedAt: reinstalled)
        #expect(try store.load() == nil)
        #expect(try store.tokensForSignOut()?.refreshToken == ClientSecret("refresh-1"))  // its login can be ended
        #expect(keychain.stored.count == 1)  // reading never writes
        // An extension cannot tell: it reads the item as live.
        #expect(try Self.store(options, keychain.process(), installedAt: nil).load() == Self.second)
        // Without wipeOnReinstall the item is live.
        #expect(try Self.store(KeychainOptions(service: "svc"), keychain.process(), installedAt: reinstalled).load() == Self.second)
        try store.save(Self.first)
        #expect(try store.load() == Self.first)
        #expect(keychain.stored.count == 1)
        // Items this installation wrote are never left over, however many saves follow.
        try store.save(Self.second)
        #expect(try store.load() == Self.second)
    }

    @Test("an access group added in an update: the item in the app's default group is read, and moved by the next save")
    func accessGroupAdded() throws {
        let keychain = InMemoryKeychain()
        let groups = ["TEAMID.com.example.app", "TEAMID.com.example.shared"]
        try Self.store(KeychainOptions(service: "svc"), keychain.process(accessGroups: [groups[0]])).save(Self.first)
        let updated = try Self.store(KeychainOptions(service: "svc", accessGroup: groups[1], wipeOnReinstall: true), keychain.process(accessGroups: groups),
                                     installedAt: Date(timeIntervalSince1970: 0))
        #expect(try updated.load() == Self.first)
        try updated.save(Self.second)
        #expect(keychain.stored.keys.map(\.accessGroup) == [groups[1]])
        // The extension, in the shared group only, now finds it.
        #expect(try Self.store(KeychainOptions(service: "svc", accessGroup: groups[1]), keychain.process(accessGroups: [groups[1]])).load()
            == Self.second)
    }

    @Test("an item of an earlier SDK (account without generation, old tag) is read, and replaced by the next save")
    func earlierItem() throws {
        let keychain = InMemoryKeychain()
        let data = try JSONEncoder().encode(Self.first)
        keychain.plant(
            KeychainItemID(service: "svc", account: "default", accessGroup: "TEAMID.com.example.app"),
            InMemoryKeychain.Item(
                protection: Self.plain.protection, label: Data("latchkey-protection-1 afterFirstUnlockThisDeviceOnly none".utf8), data: data,
                createdAt: keychain.clock))
        let store = try Self.store(KeychainOptions(service: "svc"), keychain.process())
        #expect(try store.load() == Self.first)
        #expect(try store.storedProtection() == Self.plain.protection)
        try store.save(Self.second)
        #expect(keychain.stored.keys.map(\.account) == ["default#1"])
        #expect(Self.protections(keychain) == [Self.plain.protection])
    }

    @Test("generations are told from account names; other accounts of the service are not the store's")
    func generations() throws {
        let parse = KeychainItemStore<InMemoryKeychain.Process>.generation
        #expect(parse("default", "default") == 0)
        #expect(parse("default#12", "default") == 12)
        #expect(parse("default#0", "default") == nil)
        #expect(parse("default#012", "default") == nil)
        #expect(parse("default#x", "default") == nil)
        #expect(parse("other#2", "default") == nil)
        let keychain = InMemoryKeychain()
        keychain.plant(
            KeychainItemID(service: "svc", account: "other", accessGroup: "TEAMID.com.example.app"),
            InMemoryKeychain.Item(protection: Self.plain.protection, label: Data(), data: Data(), createdAt: keychain.clock))
        let store = try Self.store(Self.plain, keychain.process())
        #expect(try store.load() == nil)
        try store.save(Self.first)
        try store.clear()
        #expect(keychain.stored.keys.map(\.account) == ["other"])
    }

    @Test("options that cannot work are refused when the store is made")
    func invalidOptions() {
        let process = InMemoryKeychain().process()
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["user_presence_needs_this_device_only"])) {
            try Self.store(KeychainOptions(accessibility: .afterFirstUnlock, userPresence: .userPresence, authenticationPrompt: "x"), process)
        }
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["missing_authentication_prompt"])) {
            try Self.store(KeychainOptions(userPresence: .userPresence), process)
        }
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["empty_identity"])) {
            try Self.store(KeychainOptions(service: ""), process)
        }
    }

    @Test("protections are ordered in each respect; a change in any one toward less is weaker")
    func protectionOrder() {
        func protection(_ accessibility: KeychainOptions.Accessibility, _ presence: KeychainOptions.UserPresence) -> KeychainProtection {
            KeychainProtection(accessibility: accessibility, userPresence: presence)
        }
        #expect(protection(.whenUnlockedThisDeviceOnly, .userPresence).isAtLeast(protection(.whenUnlockedThisDeviceOnly, .none)))
        #expect(protection(.whenPasscodeSetThisDeviceOnly, .biometryCurrentSet).isAtLeast(protection(.afterFirstUnlock, .userPresence)))
        #expect(!protection(.afterFirstUnlockThisDeviceOnly, .biometryCurrentSet).isAtLeast(protection(.whenUnlockedThisDeviceOnly, .none)))
        #expect(!protection(.whenUnlocked, .none).isAtLeast(protection(.whenUnlockedThisDeviceOnly, .none)))
        #expect(!protection(.whenUnlockedThisDeviceOnly, .userPresence).isAtLeast(protection(.whenUnlockedThisDeviceOnly, .biometryCurrentSet)))
        #expect(protection(.whenUnlocked, .none).isAtLeast(protection(.afterFirstUnlock, .none)))
    }

    @Test("the label keeps protection, enrollment digest and sign-out record, and reads the earlier tag")
    func labels() throws {
        let label = KeychainItemLabel(
            protection: Self.faceID.protection, biometry: KeychainItemLabel.biometryDigest(Data("face".utf8)), signOut: Self.second.revocationRecord)
        #expect(KeychainItemLabel(decoding: label.encoded) == label)
        let text = String(decoding: label.encoded, as: UTF8.self)
        #expect(!text.contains("access-2") && !text.contains("refresh-2"))  // nothing that can use the login
        #expect(KeychainItemLabel(decoding: Data("latchkey-protection-1 whenUnlockedThisDeviceOnly userPresence".utf8)).protection
            == KeychainProtection(accessibility: .whenUnlockedThisDeviceOnly, userPresence: .userPresence))
        #expect(KeychainItemLabel(decoding: Data("junk".utf8)) == KeychainItemLabel(protection: nil, biometry: nil, signOut: nil))
        #expect(KeychainItemLabel(decoding: nil).protection == nil)
    }

}
