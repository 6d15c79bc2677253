import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// ``AuthSession`` over the Keychain store and the in-memory Keychain: no Keychain UI from
/// the session, sign-out without Face ID, and a refresh or sign-out killed before any of
/// its Keychain calls.
@Suite struct KeychainSessionTests {
    typealias Store = KeychainItemStore<InMemoryKeychain.Process>

    /// A session whose server is never reached.
    static func offlineSession(_ store: Store) -> AuthSession {
        AuthSession(store: store, refresher: .firstParty(FirstPartyLogin(baseURL: URL(string: "https://auth.invalid")!)))
    }

    @Test("subscribing never asks for Face ID; while the sheet is up, every other session call is answered")
    func noUIFromTheSession() async throws {
        let keychain = InMemoryKeychain()
        let store = try KeychainStoreTests.store(KeychainStoreTests.faceID, keychain.process())
        try store.save(KeychainStoreTests.first)
        let session = Self.offlineSession(store)
        let required = AuthSessionState.unavailable(LatchkeyClientError(.userAuthenticationRequired))
        var events = await session.events().makeAsyncIterator()
        #expect(await events.next() == .current(required))
        #expect(await session.state() == required)
        #expect(keychain.promptCount == 0)

        keychain.holdPrompts()
        let unlocking = Task { try await session.authenticate() }
        for _ in 0..<400 where keychain.promptsUp == 0 { try await Task.sleep(nanoseconds: 2_000_000) }
        #expect(keychain.promptsUp == 1)
        #expect(await session.state() == required)  // the actor is free while the person looks at the phone
        await #expect(throws: LatchkeyClientError(.userAuthenticationRequired)) { try await session.validAccessToken() }
        keychain.releasePrompts()
        try await unlocking.value
        #expect(await session.state() == .signedIn(subject: "user-1"))
        #expect(try await session.validAccessToken() == KeychainStoreTests.first.accessToken)
        #expect(keychain.promptCount == 1)
    }

    @Test("a new face: the session reads as ended (biometry_changed) without a prompt, and signing out needs no one")
    func biometryChangeInTheSession() async throws {
        let keychain = InMemoryKeychain()
        let store = try KeychainStoreTests.store(KeychainStoreTests.currentFaces, keychain.process())
        try store.save(KeychainStoreTests.second)
        keychain.setEnrollment(Data("another face".utf8))
        let session = Self.offlineSession(store)
        #expect(await session.state() == .unavailable(LatchkeyClientError(.sessionExpired, reasons: ["biometry_changed"])))
        await #expect(throws: LatchkeyClientError(.sessionExpired, reasons: ["biometry_changed"])) { try await session.authenticate() }
        try await session.signOut()
        #expect(await session.state() == .signedOut)
        #expect(keychain.stored.isEmpty)
        #expect(keychain.promptCount == 0)
    }

    @Test("signing out of a Face ID session never asks, and always revokes: the first refresh token is spent at sign-in")
    func signOutRevokesWithoutFaceID() async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let keychain = InMemoryKeychain()
        let session = fixture.session(try KeychainStoreTests.store(KeychainStoreTests.faceID, keychain.process()))
        try await session.signIn(fixture.tokens)
        #expect(try await fixture.refreshes() == (1, 0))

        // The app restarts; nobody passes Face ID; the person signs out.
        let restarted = try KeychainStoreTests.store(KeychainStoreTests.faceID, keychain.process())
        let reader = try KeychainStoreTests.store(KeychainStoreTests.faceID, keychain.process())
        try await reader.authenticate()
        let current = try #require(try reader.load())
        #expect(current.revocationToken == fixture.tokens.refreshToken)
        try await fixture.session(restarted).signOut()
        #expect(keychain.stored.isEmpty)
        #expect(keychain.promptCount == 1)  // the reader's, to look
        // The login is over on the server: its live refresh token is refused.
        await #expect(throws: LatchkeyClientError.self) { try await fixture.login.refresh(try #require(current.refreshToken)) }
    }

    @Test("a refresh killed before any of its Keychain calls leaves the old tokens or their successor", arguments: [false, true])
    func refreshKills(faceID: Bool) async throws {
        let fixture = try await SignedInFixture.start()
        defer { fixture.stop() }
        let options = faceID ? KeychainStoreTests.faceID : KeychainStoreTests.plain
        var call = 0
        while true {
            let keychain = InMemoryKeychain()
            let signedIn = try await fixture.login.signIn(email: "jane@example.com", password: ClientSecret(LatchkeyServerProcess.goodPassword))
            let old = StoredTokens(accessToken: signedIn.accessToken, refreshToken: signedIn.refreshToken, expiresAt: wholeSeconds(from: 0))
            try KeychainStoreTests.store(options, keychain.process()).save(old)
            let process = keychain.process()
            process.inject(.kill, atCall: call)
            let store = try KeychainStoreTests.store(options, process)
            try? await store.authenticate()
            _ = try? await fixture.session(store).validAccessToken()

            let reader = try KeychainStoreTests.store(options, keychain.process())
            try await reader.authenticate()
            let loaded = try #require(try reader.load(), "call \(call)")
            #expect(loaded == old || (loaded.refreshToken != old.refreshToken && loaded.revocationToken == old.refreshToken), "call \(call)")
            if process.log.count <= call {
                #expect(loaded != old)  // not killed at all: refreshed and saved
                break
            }
            call += 1
        }
        #expect(call >= 6)
    }

    @Test("a sign-out killed before any of its Keychain calls leaves the tokens or nothing, never a broken item")
    func signOutKills() async throws {
        let keychain = InMemoryKeychain()
        var call = 0
        while true {
            try KeychainStoreTests.store(KeychainStoreTests.faceID, keychain.process()).save(KeychainStoreTests.second)
            let process = keychain.process()
            process.inject(.kill, atCall: call)
            _ = try? await Self.offlineSession(try KeychainStoreTests.store(KeychainStoreTests.faceID, process)).signOut()
            let reader = try KeychainStoreTests.store(KeychainStoreTests.faceID, keychain.process())
            try await reader.authenticate()
            let loaded = try reader.load()
            #expect(loaded == KeychainStoreTests.second || loaded == nil, "call \(call)")
            if process.log.count <= call {
                #expect(loaded == nil)
                break
            }
            try reader.clear()
            call += 1
        }
        #expect(call >= 2)
        #expect(keychain.promptCount > 0)  // the readers', never the session's
    }
}
