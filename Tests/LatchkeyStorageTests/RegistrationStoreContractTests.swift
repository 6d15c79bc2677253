import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Synchronization
import Testing

/// Sign-up requests and registrations every store keeps alike, run against each one in
/// ``StoreFactory/all``.
@Suite struct RegistrationStoreContractTests {
    private static func request(_ email: String, at date: Date) -> PendingRegistrationRequest {
        PendingRegistrationRequest(
            email: email, passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", verificationURL: nil, locale: "pt",
            acceptLanguage: nil, acceptedAt: date)
    }

    private static func registration(_ email: String, at date: Date, ttl: TimeInterval = 86400) -> PendingRegistration {
        PendingRegistration(
            digest: randomDigest(), email: email, passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", locale: "pt",
            createdAt: date, expiresAt: date.addingTimeInterval(ttl))
    }

    private static func mail(to recipient: String) throws -> MailMessage {
        try MailMessage(
            id: UUID().uuidString.lowercased(), to: recipient, subject: "Confirm", textBody: "Text", htmlBody: "<p>Text</p>",
            locale: "en")
    }

    @Test("a request is taken by exactly one of 16 racing workers, which sees the address's account", arguments: StoreFactory.all)
    func requestTakenOnce(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let now = fixture.clock.now()
        let request = Self.request("racer@example.com", at: now)
        try store.acceptRegistrationRequest(request)
        #expect(try store.pendingRegistrationRequestIDs(acceptedBefore: now, limit: 10) == [])
        #expect(try store.pendingRegistrationRequestIDs(acceptedBefore: now.addingTimeInterval(1), limit: 10) == [request.id])

        let taken = Mutex(0)
        let seen = Mutex<[PendingRegistrationRequest]>([])
        let stores = try (0..<2).map { _ in try fixture.openAnother() }
        runOnThreads(16) { index in
            let handled = try? stores[index % 2].processRegistrationRequest(id: request.id, now: now) { pending, account in
                seen.withLock { $0.append(pending) }
                #expect(account == nil)
                return .verify(Self.registration(pending.email, at: now), mail: try Self.mail(to: pending.email))
            }
            if handled == true { taken.withLock { $0 += 1 } }
        }
        #expect(taken.withLock { $0 } == 1)
        #expect(seen.withLock { $0 }.last == request)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM registrations") == 1)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM outbox WHERE recipient = 'racer@example.com'") == 1)
        #expect(try store.pendingRegistrationRequestIDs(acceptedBefore: now.addingTimeInterval(1), limit: 10) == [])
    }

    @Test("a handler that throws changes nothing and leaves the request pending", arguments: StoreFactory.all)
    func failedHandling(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let now = fixture.clock.now()
        let request = Self.request("later@example.com", at: now)
        try store.acceptRegistrationRequest(request)
        struct Refused: Error {}
        #expect(throws: Refused.self) { try store.processRegistrationRequest(id: request.id, now: now) { _, _ in throw Refused() } }
        #expect(try store.pendingRegistrationRequestIDs(acceptedBefore: now.addingTimeInterval(1), limit: 10) == [request.id])
    }

    @Test("a registration is used once by 32 racing confirmations, creating one active account", arguments: StoreFactory.all)
    func completedOnce(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let now = fixture.clock.now()
        let registration = Self.registration("once@example.com", at: now)
        try store.acceptRegistrationRequest(Self.request("once@example.com", at: now))
        let id = try #require(try store.pendingRegistrationRequestIDs(acceptedBefore: now.addingTimeInterval(1), limit: 1).first)
        _ = try store.processRegistrationRequest(id: id, now: now) { pending, _ in
            .verify(registration, mail: try Self.mail(to: pending.email))
        }
        let created = Mutex<[Account]>([])
        let stores = try (0..<2).map { _ in try fixture.openAnother() }
        runOnThreads(32) { index in
            if let account = try? stores[index % 2].completeRegistration(
                digest: registration.digest, accountID: UUID().uuidString.lowercased(), now: now.addingTimeInterval(5))
            {
                created.withLock { $0.append(account) }
            }
        }
        let accounts = created.withLock { $0 }
        #expect(accounts.count == 1)
        #expect(accounts.first?.email == "once@example.com" && accounts.first?.status == .active && accounts.first?.locale == "pt")
        #expect(try store.account(email: "once@example.com")?.passwordHash == registration.passwordHash)
    }

    @Test("a superseded, expired or unknown registration creates nothing; nor one whose address has an account meanwhile", arguments: StoreFactory.all)
    func unusable(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let now = fixture.clock.now()
        func issue(_ registration: PendingRegistration) throws {
            try store.acceptRegistrationRequest(Self.request(registration.email, at: now))
            let id = try #require(try store.pendingRegistrationRequestIDs(acceptedBefore: now.addingTimeInterval(1), limit: 1).first)
            _ = try store.processRegistrationRequest(id: id, now: now) { pending, _ in
                .verify(registration, mail: try Self.mail(to: pending.email))
            }
        }
        let first = Self.registration("twice@example.com", at: now)
        let second = Self.registration("twice@example.com", at: now)
        try issue(first)
        try issue(second)
        #expect(try store.completeRegistration(digest: first.digest, accountID: UUID().uuidString, now: now) == nil)

        let short = Self.registration("short@example.com", at: now, ttl: 60)
        try issue(short)
        #expect(try store.completeRegistration(digest: short.digest, accountID: UUID().uuidString, now: now.addingTimeInterval(60)) == nil)
        #expect(try store.completeRegistration(digest: randomDigest(), accountID: UUID().uuidString, now: now) == nil)

        try store.createAccount(Account(
            id: UUID().uuidString.lowercased(), email: "twice@example.com", passwordHash: "$argon2id$operator", status: .active,
            credentialVersion: 1, locale: nil, createdAt: now))
        #expect(try store.completeRegistration(digest: second.digest, accountID: UUID().uuidString, now: now) == nil)
        #expect(try store.account(email: "twice@example.com")?.passwordHash == "$argon2id$operator")
        #expect(try store.account(email: "short@example.com") == nil)
    }

    @Test("the purge removes requests pending and registrations ended before the cutoff", arguments: StoreFactory.all)
    func purge(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let now = fixture.clock.now()
        try store.acceptRegistrationRequest(Self.request("stale@example.com", at: now))
        let expired = Self.registration("expired@example.com", at: now, ttl: 60)
        try store.acceptRegistrationRequest(Self.request("expired@example.com", at: now))
        let id = try #require(try store.pendingRegistrationRequestIDs(acceptedBefore: now.addingTimeInterval(1), limit: 10).last)
        _ = try store.processRegistrationRequest(id: id, now: now) { pending, _ in .verify(expired, mail: try Self.mail(to: pending.email)) }
        try store.purge(before: now.addingTimeInterval(3600))
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM registration_requests") == 0)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM registrations") == 0)
    }
}
