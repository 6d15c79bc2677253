import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Synchronization
import Testing

/// The refresh-token families every `Store` implementation keeps, run against each one in
/// ``StoreFactory/all``.
@Suite struct SessionStoreContractTests {
    private static let idle: TimeInterval = 7 * 86400
    private static let absolute: TimeInterval = 30 * 86400

    @Test("rotating a token consumes it and adds its successor to the same family", arguments: StoreFactory.all)
    func rotation(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let first = try #require(try startFamily(in: fixture, for: account, clientID: "ios-app"))
        fixture.clock.advance(by: 60)
        let second = randomDigest()

        let result = try store.rotateRefreshToken(
            presentedDigest: first.digest, newDigest: second, now: fixture.clock.now(), idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
        guard case .rotated(let successor, let owner) = result else {
            Issue.record("expected a rotation, got \(result)")
            return
        }
        #expect(owner == account)
        #expect(successor.digest == second)
        #expect(successor.familyID == first.familyID)
        #expect(successor.clientID == "ios-app")
        #expect(successor.scope == ["openid", "profile"])
        #expect(successor.absoluteExpiresAt == first.absoluteExpiresAt)
        #expect(
            StorageEncoding.milliseconds(successor.expiresAt)
                == StorageEncoding.milliseconds(fixture.clock.now().addingTimeInterval(Self.idle)))
        #expect(
            try fixture.integer(
                "SELECT COUNT(*) AS value FROM sessions WHERE family_id = '\(first.familyID)' AND revoked_at IS NULL")
                == 2)
    }

    @Test("presenting a used token again revokes its whole family", arguments: StoreFactory.all)
    func reuseRevokesFamily(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let first = try #require(try startFamily(in: fixture, for: account))
        let other = try #require(try startFamily(in: fixture, for: account))
        let second = randomDigest()
        let now = fixture.clock.now()
        guard case .rotated = try store.rotateRefreshToken(presentedDigest: first.digest, newDigest: second, now: now, idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
        else {
            Issue.record("the first rotation failed")
            return
        }

        #expect(try store.rotateRefreshToken(presentedDigest: first.digest, newDigest: randomDigest(), now: now, idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true }) == .reused)
        #expect(try store.rotateRefreshToken(presentedDigest: second, newDigest: randomDigest(), now: now, idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true }) == .invalid)
        #expect(
            try fixture.integer(
                "SELECT COUNT(*) AS value FROM sessions WHERE family_id = '\(first.familyID)' AND revoked_at IS NULL") == 0)
        // Another login of the same account is not affected.
        guard case .rotated = try store.rotateRefreshToken(presentedDigest: other.digest, newDigest: randomDigest(), now: now, idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
        else {
            Issue.record("the other family was revoked too")
            return
        }
    }

    @Test("within the reuse grace a rotated token whose successor is unused gets a new successor, once; the replaced one is then reuse", arguments: StoreFactory.all)
    func reuseGrace(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let another = try fixture.openAnother()
        let account = try createAccount(in: fixture)
        let first = try #require(try startFamily(in: fixture, for: account))
        let lost = randomDigest()
        let now = fixture.clock.now()
        guard case .rotated = try store.rotateRefreshToken(
            presentedDigest: first.digest, newDigest: lost, now: now, idleTTL: Self.idle, reuseGrace: 10, accepts: { _ in true })
        else { Issue.record("the first rotation failed"); return }
        // Another instance, within the grace: the client lost `lost`.
        let replacement = randomDigest()
        guard case .rotated(let renewed, _) = try another.rotateRefreshToken(
            presentedDigest: first.digest, newDigest: replacement, now: now.addingTimeInterval(3), idleTTL: Self.idle, reuseGrace: 10,
            accepts: { _ in true })
        else { Issue.record("the grace was not given"); return }
        #expect(renewed.familyID == first.familyID)
        // The replaced successor turns up: reuse, the whole family ends.
        #expect(try store.rotateRefreshToken(
            presentedDigest: lost, newDigest: randomDigest(), now: now.addingTimeInterval(4), idleTTL: Self.idle, reuseGrace: 10,
            accepts: { _ in true }) == .reused)
        #expect(try store.usableRefreshToken(digest: replacement, now: now.addingTimeInterval(4)) == nil)
    }

    @Test("of 20 threads on two connections rotating one token, exactly one succeeds", arguments: StoreFactory.all)
    func concurrentRotationHasOneWinner(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let another = try fixture.openAnother()
        let account = try createAccount(in: fixture)
        let token = try #require(try startFamily(in: fixture, for: account))
        let now = fixture.clock.now()
        let rotated = Atomic<Int>(0)
        let failures = Mutex<[String]>([])

        runOnThreads(20) { index in
            do {
                let result = try (index.isMultiple(of: 2) ? store : another).rotateRefreshToken(
                    presentedDigest: token.digest, newDigest: randomDigest(), now: now, idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
                if case .rotated = result { rotated.add(1, ordering: .relaxed) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(rotated.load(ordering: .relaxed) == 1)
        // The losers presented a used token: the family is revoked, successor included.
        #expect(
            try fixture.integer(
                "SELECT COUNT(*) AS value FROM sessions WHERE family_id = '\(token.familyID)' AND revoked_at IS NULL") == 0)
    }

    @Test("a token rotates until its idle expiry, and never past the family's absolute expiry", arguments: StoreFactory.all)
    func expiry(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let idleToken = try #require(try startFamily(in: fixture, for: account))
        fixture.clock.advance(by: Self.idle)
        #expect(
            try store.rotateRefreshToken(
                presentedDigest: idleToken.digest, newDigest: randomDigest(), now: fixture.clock.now(), idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
                == .invalid)

        var current = try #require(try startFamily(in: fixture, for: account)).digest
        // Rotated every 6 days, and once more a second before day 30, the family still ends at day 30.
        for step: TimeInterval in [6, 6, 6, 6, 6 - 1.0 / 86400].map({ $0 * 86400 }) {
            fixture.clock.advance(by: step)
            let next = randomDigest()
            let result = try store.rotateRefreshToken(
                presentedDigest: current, newDigest: next, now: fixture.clock.now(), idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
            guard case .rotated = result else {
                Issue.record("rotation within the absolute lifetime failed: \(result)")
                return
            }
            current = next
        }
        fixture.clock.advance(by: 1)
        #expect(
            try store.rotateRefreshToken(
                presentedDigest: current, newDigest: randomDigest(), now: fixture.clock.now(), idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
                == .invalid)
    }

    @Test("a password reset revokes every family of the account", arguments: StoreFactory.all)
    func resetRevokesFamilies(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let token = try #require(try startFamily(in: fixture, for: account))
        let resetDigest = randomDigest()
        let now = fixture.clock.now()
        try store.issueResetToken(
            ResetTokenRecord(digest: resetDigest, accountID: account.id, createdAt: now, expiresAt: now.addingTimeInterval(3600)),
            mail: try message(to: account.email), now: now)
        #expect(
            try store.completeReset(
                digest: resetDigest, newPasswordHash: "$argon2id$new", now: now,
                notification: { try message(to: $0.email) }) != nil)

        #expect(
            try store.rotateRefreshToken(presentedDigest: token.digest, newDigest: randomDigest(), now: now, idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
                == .invalid)
        // A login that checked the old password before the reset cannot start a family after it.
        #expect(try startFamily(in: fixture, for: account) == nil)
    }

    @Test("a disabled account's tokens no longer rotate", arguments: StoreFactory.all)
    func disabledAccount(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let token = try #require(try startFamily(in: fixture, for: account))
        #expect(try store.setStatus(.disabled, email: account.email))
        #expect(
            try store.rotateRefreshToken(
                presentedDigest: token.digest, newDigest: randomDigest(), now: fixture.clock.now(), idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
                == .invalid)
    }

    @Test("logins racing a disable leave no family alive, however they interleave: none survives enabling the account again", arguments: StoreFactory.all)
    func loginsRacingDisable(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let email = try createAccount(in: fixture).email
        var started = 0
        for round in 0..<20 {
            // Eight logins that checked the account as it is now, and the disable, released at once.
            let account = try #require(try store.account(email: email))
            let tokens = Mutex<[RefreshTokenRecord]>([])
            runOnThreads(9) { index in
                // Which thread disables moves from round to round, and with it the disable's
                // place among the logins.
                if index == round % 9 {
                    _ = try? store.setStatus(.disabled, email: email)
                } else if let token = try? startFamily(in: fixture, for: account) {
                    tokens.withLock { $0.append(token) }
                }
            }
            #expect(try store.setStatus(.active, email: email))
            let now = fixture.clock.now()
            for token in tokens.withLock({ $0 }) {
                #expect(try store.liveFamilyAccount(familyID: token.familyID, now: now) == nil, "round \(round)")
            }
            started += tokens.withLock { $0.count }
        }
        // Both orders happened: logins that started their family before the disable (and were
        // ended by it), and logins that came after it.
        #expect(started > 0 && started < 20 * 8)
    }

    @Test("disabling an account ends its families for good: enabling it again revives none", arguments: StoreFactory.all)
    func disableEndsFamilies(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let token = try #require(try startFamily(in: fixture, for: account))
        #expect(try store.setStatus(.disabled, email: account.email))
        #expect(try store.setStatus(.active, email: account.email))
        let now = fixture.clock.now()
        #expect(try store.usableRefreshToken(digest: token.digest, now: now) == nil)
        #expect(try store.liveFamilyAccount(familyID: token.familyID, now: now) == nil)
        #expect(
            try store.rotateRefreshToken(
                presentedDigest: token.digest, newDigest: randomDigest(), now: now, idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
                == .invalid)
        // The account itself works again: a new login starts a family.
        let enabled = try #require(try store.account(email: account.email))
        #expect(try startFamily(in: fixture, for: enabled) != nil)
    }

    @Test("a family revoked while it rotates leaves no live token, however the two interleave", arguments: StoreFactory.all)
    func revokeRacingRotation(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let now = fixture.clock.now()
        for round in 0..<60 {
            let token = try #require(try startFamily(in: fixture, for: account))
            let successor = randomDigest()
            runOnThreads(2) { index in
                if index == 0 {
                    _ = try? store.rotateRefreshToken(
                        presentedDigest: token.digest, newDigest: successor, now: now, idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
                } else if round.isMultiple(of: 2) {
                    try? store.revokeFamily(id: token.familyID, now: now)
                } else {
                    _ = try? store.revokeFamily(containing: token.digest, now: now, accepts: { _ in true })
                }
            }
            #expect(try store.usableRefreshToken(digest: successor, now: now) == nil, "round \(round)")
            #expect(try store.liveFamilyAccount(familyID: token.familyID, now: now) == nil, "round \(round)")
        }
    }

    @Test("logins racing on one account never leave more live families than the limit", arguments: StoreFactory.all)
    func familyLimitUnderRacingLogins(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let started = Mutex<[RefreshTokenRecord]>([])
        runOnThreads(20) { _ in
            if let token = try? startFamily(in: fixture, for: account, liveFamilyLimit: 3) {
                started.withLock { $0.append(token) }
            }
        }
        let tokens = started.withLock { $0 }
        #expect(tokens.count == 20)
        let live = try tokens.filter { try store.usableRefreshToken(digest: $0.digest, now: fixture.clock.now()) != nil }
        #expect(live.count == 3)
    }

    @Test("revoking a family ends every token in it, and an unknown token reports false", arguments: StoreFactory.all)
    func revokeFamily(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let token = try #require(try startFamily(in: fixture, for: account))
        #expect(try store.revokeFamily(containing: token.digest, now: fixture.clock.now(), accepts: { _ in true }))
        #expect(try !store.revokeFamily(containing: randomDigest(), now: fixture.clock.now(), accepts: { _ in true }))
        #expect(
            try store.rotateRefreshToken(
                presentedDigest: token.digest, newDigest: randomDigest(), now: fixture.clock.now(), idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
                == .invalid)
    }

    @Test("an account keeps at most its limit of live logins: a new one ends the least recently used", arguments: StoreFactory.all)
    func liveFamilyLimit(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let account = try createAccount(in: fixture)
        let first = try #require(try startFamily(in: fixture, for: account, liveFamilyLimit: 2))
        fixture.clock.advance(by: 1)
        let second = try #require(try startFamily(in: fixture, for: account, liveFamilyLimit: 2))
        fixture.clock.advance(by: 1)
        // Refreshing the first makes the second the least recently used.
        guard case .rotated(let renewed, _) = try store.rotateRefreshToken(
            presentedDigest: first.digest, newDigest: randomDigest(), now: fixture.clock.now(), idleTTL: Self.idle, reuseGrace: 0, accepts: { _ in true })
        else { Issue.record("the first login did not rotate"); return }
        fixture.clock.advance(by: 1)
        _ = try #require(try startFamily(in: fixture, for: account, liveFamilyLimit: 2))
        let now = fixture.clock.now()
        #expect(try store.liveFamilyAccount(familyID: second.familyID, now: now) == nil)
        #expect(try store.liveFamilyAccount(familyID: renewed.familyID, now: now) == account)
        #expect(try store.usableRefreshToken(digest: renewed.digest, now: now) != nil)
    }

    // MARK: Helpers

    private func createAccount(in fixture: StoreFixture) throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: "person@example.com", passwordHash: "$argon2id$old",
            status: .active, credentialVersion: 0, locale: "en", createdAt: fixture.clock.now())
        try fixture.store.createAccount(account)
        return account
    }

    /// Starts a new family for `account` at the fixture's now.
    private func startFamily(
        in fixture: StoreFixture, for account: Account, clientID: String? = nil, liveFamilyLimit: Int = 100
    ) throws -> RefreshTokenRecord? {
        let now = fixture.clock.now()
        return try fixture.store.createRefreshToken(
            digest: randomDigest(), accountID: account.id, familyID: UUID().uuidString.lowercased(), clientID: clientID,
            scope: ["openid", "profile"], credentialVersion: account.credentialVersion, assurance: .signedIn(at: now), origin: .test, now: now,
            idleExpiresAt: now.addingTimeInterval(Self.idle),
            absoluteExpiresAt: now.addingTimeInterval(Self.absolute), liveFamilyLimit: liveFamilyLimit)
    }
}

private func message(to recipient: String) throws -> MailMessage {
    try MailMessage(
        id: UUID().uuidString.lowercased(), to: recipient, subject: "Password", textBody: "Text",
        htmlBody: "<p>HTML</p>", locale: "en")
}
