import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Testing

/// A browser session's inactivity timeout (ASVS V7.3.1): a use moves its expiry, never past
/// its absolute lifetime; on every store in ``StoreFactory/all``.
@Suite struct BrowserSessionIdleStoreContractTests {
    @Test("a use moves a browser session's expiry, never past its absolute lifetime, and never revives an expired or ended one", arguments: StoreFactory.all)
    func touchMovesTheExpiry(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let start = fixture.clock.now()
        let account = Account(
            id: UUID().uuidString.lowercased(), email: "person@example.com", passwordHash: "$argon2id$x",
            status: .active, credentialVersion: 1, locale: "en", createdAt: start)
        try store.createAccount(account)
        let hour: TimeInterval = 3600
        func session(expiringIn lifetime: TimeInterval) throws -> Data {
            let digest = randomDigest()
            #expect(try store.createBrowserSession(
                digest: digest, accountID: account.id, credentialVersion: 1, assurance: .signedIn(at: start), now: start,
                expiresAt: start.addingTimeInterval(lifetime), keeping: 32))
            return digest
        }
        func touch(_ digest: Data, at offset: TimeInterval) throws {
            let now = start.addingTimeInterval(offset)
            try store.touchBrowserSession(digest: digest, now: now, idleExpiresAt: now.addingTimeInterval(hour), absoluteLifetime: 12 * hour)
        }
        func isLive(_ digest: Data, at offset: TimeInterval) throws -> Bool {
            try store.browserSession(digest: digest, now: start.addingTimeInterval(offset)) != nil
        }

        // Used every 50 minutes, it lives on, for 12 hours and no longer.
        let used = try session(expiringIn: hour)
        var offset: TimeInterval = 0
        while offset + 50 * 60 < 12 * hour {
            offset += 50 * 60
            #expect(try isLive(used, at: offset))
            try touch(used, at: offset)
        }
        #expect(try isLive(used, at: 12 * hour - 1))
        #expect(try !isLive(used, at: 12 * hour))

        // Unused for an hour, it ends; a use after that does not bring it back.
        let idle = try session(expiringIn: hour)
        try touch(idle, at: 30 * 60)
        #expect(try isLive(idle, at: 30 * 60 + hour - 1))
        #expect(try !isLive(idle, at: 30 * 60 + hour))
        try touch(idle, at: 30 * 60 + hour)
        #expect(try !isLive(idle, at: 30 * 60 + hour + 1))

        // An ended session stays ended.
        let ended = try session(expiringIn: hour)
        #expect(try store.endBrowserSession(digest: ended, now: start))
        try touch(ended, at: 60)
        #expect(try !isLive(ended, at: 120))
    }
}
