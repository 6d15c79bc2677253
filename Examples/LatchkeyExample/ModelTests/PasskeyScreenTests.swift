import Foundation
import LatchkeyClient
import LatchkeyExampleModel
import Testing

/// The Account screen's passkeys: what the person sees as they add and remove them.
@Suite struct PasskeyScreenTests {
    static let created = Date(timeIntervalSince1970: 1_777_800_000)
    static let phone = Passkey(id: "AQID", name: "iPhone", createdAt: created, lastUsedAt: created, isSynced: true)
    static let key = Passkey(id: "BAUG", name: "Key", createdAt: created, lastUsedAt: nil, isSynced: false)

    @Test("a passkey reads with its name, synced or this device only, and its last use")
    func summary() {
        let screen = AccountScreen()
        let locale = Locale(identifier: "en_US")
        #expect(screen.summary(of: Self.phone, locale: locale).hasPrefix("iPhone — synced, last used "))
        #expect(screen.summary(of: Self.key, locale: locale) == "Key — this device only, never used")
    }

    @Test("adding one at a time: the new passkey goes first; a cancelled sheet shows nothing, a refusal its message")
    func adding() {
        var screen = AccountScreen()
        screen.passkeysLoaded([Self.key])
        let first = screen.startAddingPasskey()
        let second = screen.startAddingPasskey()
        #expect(first && !second)
        screen.passkeyAdded(.success(Self.phone), language: .en)
        #expect(screen.passkeys.map(\.id) == ["AQID", "BAUG"] && !screen.isAddingPasskey)
        _ = screen.startAddingPasskey()
        screen.passkeyAdded(.failure(LatchkeyClientError(.passkeyCancelled)), language: .en)
        #expect(screen.passkeyError == nil && !screen.isAddingPasskey)
        _ = screen.startAddingPasskey()
        screen.passkeyAdded(.failure(LatchkeyClientError(.passkeyExists)), language: .en)
        #expect(screen.passkeyError == "This passkey is already registered. You can sign in with it.")
    }

    @Test("removing one takes it off the list; the last way to sign in is explained")
    func removing() {
        var screen = AccountScreen()
        screen.passkeysLoaded([Self.phone, Self.key])
        screen.passkeyRemoved(Self.phone)
        #expect(screen.passkeys.map(\.id) == ["BAUG"])
        screen.passkeyFailed(LatchkeyClientError(.lastSignInMethod), language: .en)
        #expect(screen.passkeyError?.hasPrefix("This is the only way to sign in to your account.") == true)
    }
}
