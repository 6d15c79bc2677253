import Foundation
@testable import LatchkeyCore
import LatchkeyCrypto
import LatchkeyTestSupport
import Synchronization
import Testing

/// `LATCHKEY_MAX_BROWSER_SESSIONS_PER_ACCOUNT` as the sign-in pages use it: the service keeps the
/// configured number of an account's browser sessions, on both stores, also when many sign-ins
/// race.
@Suite struct BrowserSessionLimitTests {
    private func signedIn(_ fixture: StoreFixture) throws -> SignInService.SignedIn {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: "person@example.com", passwordHash: "$argon2id$old",
            status: .active, credentialVersion: 0, locale: "en", createdAt: fixture.clock.now())
        try fixture.store.createAccount(account)
        return SignInService.SignedIn(account: account, assurance: .signedIn(at: fixture.clock.now()))
    }

    private func service(_ fixture: StoreFixture, keeping limit: Int) throws -> AuthorizationService {
        AuthorizationService(
            store: try fixture.migratedStore(), clock: fixture.clock, formTokenKey: Redacted(Data(repeating: 1, count: 32)), idleTimeout: 3600,
            browserSessionsPerAccount: limit)
    }

    @Test("a sign-in past the configured number ends the browser session started longest ago", arguments: StoreFactory.all)
    func oldestEnds(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let authorization = try service(fixture, keeping: 2)
        let person = try signedIn(fixture)
        var cookies: [Redacted<String>] = []
        for _ in 0..<3 {
            cookies.append(try #require(try authorization.startBrowserSession(for: person)).cookie)
            fixture.clock.advance(by: 1)
        }
        #expect(try cookies.map { try authorization.browserSession(cookie: $0) != nil } == [false, true, true])
    }

    @Test("48 sign-ins at once for one account leave exactly the configured number of live browser sessions", arguments: StoreFactory.all)
    func racingSignIns(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let authorization = try service(fixture, keeping: 5)
        let person = try signedIn(fixture)
        let cookies = Mutex<[Redacted<String>]>([])
        runOnThreads(48) { _ in
            if let started = try? authorization.startBrowserSession(for: person) { cookies.withLock { $0.append(started.cookie) } }
        }
        let started = cookies.withLock { $0 }
        #expect(started.count == 48)
        #expect(try started.filter { try authorization.browserSession(cookie: $0) != nil }.count == 5)
    }
}
