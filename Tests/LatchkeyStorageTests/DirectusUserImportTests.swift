import Foundation
import LatchkeyCrypto
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Testing

/// `latchkey users import` on every store.
@Suite struct DirectusUserImportTests {
    // argon2-cffi, in the shape node-argon2's defaults give (argon2id, m=65536, t=3, p=4).
    static let directusHash = "$argon2id$v=19$m=65536,t=3,p=4$MDEyMzQ1Njc4OWFiY2RlZg$sQ3JmbOAUOU/OkmO0vHLLhqnnU8FqbypVg76WHZW8Ws"

    func record(
        _ email: String?, id: String? = nil, password: String? = directusHash, status: String? = "active",
        tfa: String? = nil, language: String? = nil
    ) -> DirectusUserRecord {
        DirectusUserRecord(location: "user 1", id: id, email: email, password: password, status: status, tfaSecret: tfa, language: language)
    }

    /// Runs `body` with an import into a fresh store of `factory`, and that store.
    func withImport(_ factory: StoreFactory, _ body: (DirectusUserImport, any Store) throws -> Void) throws {
        let fixture = try factory.make()
        try withExtendedLifetime(fixture) {
            let store = try fixture.migratedStore()
            try body(DirectusUserImport(store: store, hasher: PasswordHasher(parameters: .owaspMinimum), secretBox: .forTests, clock: fixture.clock), store)
        }
    }

    @Test("an active user keeps its id, hash and language, and signs in with its Directus password", arguments: StoreFactory.all)
    func activeUser(factory: StoreFactory) throws {
        try withImport(factory) { importer, store throws in
            let id = "3b241101-e2bb-4255-8caf-4136c566a962"
            let outcome = try importer.run(record("Admin@Example.com", id: id, language: "pt-BR"))
            #expect(outcome == .imported(email: "admin@example.com", status: .active, hasPassword: true, hasSecondFactor: false))
            let account = try #require(try store.account(id: id))
            #expect(account.email == "admin@example.com" && account.status == .active && account.locale == "pt")
            #expect(account.passwordHash == Self.directusHash)
            let hasher = PasswordHasher(parameters: .owaspMinimum)
            #expect(hasher.verify(Redacted("directus-admin-pw"), against: try #require(account.passwordHash)))
        }
    }

    @Test("suspended and archived users are disabled; invited, unverified and draft ones get no password", arguments: StoreFactory.all)
    func statuses(factory: StoreFactory) throws {
        try withImport(factory) { importer, store throws in
            let cases: [(String, DirectusUserImport.ImportedStatus, Account.Status, Bool)] = [
                ("suspended", .disabled, .disabled, true), ("archived", .disabled, .disabled, true),
                ("invited", .unverified, .active, false), ("UNVERIFIED", .unverified, .active, false), ("draft", .unverified, .active, false),
            ]
            for (index, (status, imported, stored, hasPassword)) in cases.enumerated() {
                let email = "user\(index)@example.com"
                #expect(try importer.run(record(email, status: status)) == .imported(email: email, status: imported, hasPassword: hasPassword, hasSecondFactor: false))
                let account = try #require(try store.account(email: email))
                #expect(account.status == stored)
                #expect((account.passwordHash != nil) == hasPassword)
            }
        }
    }

    @Test("a rerun changes nothing: the same id and address are already imported, even after the account changed", arguments: StoreFactory.all)
    func rerunIsIdempotent(factory: StoreFactory) throws {
        try withImport(factory) { importer, store throws in
            let user = record("ana@example.com", id: "4f1c")
            _ = try importer.run(user)
            #expect(try store.replacePassword(email: "ana@example.com", newPasswordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$dGFndGFndGFn", now: Date()))
            #expect(try importer.run(user) == .alreadyImported(email: "ana@example.com"))
            #expect(try store.account(id: "4f1c")?.passwordHash != Self.directusHash)
            #expect(try store.allAccounts().count == 1)
        }
    }

    @Test("refused users, each with its reason, and nothing stored for them", arguments: StoreFactory.all)
    func refusals(factory: StoreFactory) throws {
        try withImport(factory) { importer, store throws in
            _ = try importer.run(record("taken@example.com", id: "taken-id"))
            let refused: [(DirectusUserRecord, String)] = [
                (record(nil), "no email"),
                (record("not an address"), "not a valid address"),
                (record("a@example.com", id: "has spaces"), "its id"),
                (record("a@example.com", status: nil), "no status"),
                (record("a@example.com", status: "deleted"), "\"deleted\" is not one Directus gives"),
                (record("a@example.com", password: "**********"), "hidden"),
                (record("a@example.com", password: "$2b$10$abcdefghijklmnopqrstuv"), "not an Argon2 hash"),
                (record("a@example.com", password: "$argon2id$v=19$m=4294967295,t=3,p=4$MDEyMzQ1Njc4OWFiY2RlZg$sQ3JmbOAUOU"), "not an Argon2 hash"),
                (record("a@example.com", tfa: "JBSWY3DPEHPK3P"), "not a base32 secret of at least 80 bits"),
                (record("a@example.com", tfa: "JBSWY3DP!HPK3PXP"), "not a base32 secret of at least 80 bits"),
                (record("a@example.com", id: "taken-id"), "the id of the account taken@example.com"),
                (record("TAKEN@example.com", id: "other-id"), "exists already"),
                (DirectusUserRecord(location: "user 9", id: nil, email: "a@example.com", password: nil, status: "active", tfaSecret: nil,
                    language: nil, defect: "is not a JSON object"), "is not a JSON object"),
            ]
            for (user, reason) in refused {
                guard case .refused(let said) = try importer.run(user) else {
                    Issue.record("\(user) was not refused")
                    continue
                }
                #expect(said.contains(reason), "\(said)")
            }
            #expect(try store.allAccounts().map(\.email) == ["taken@example.com"])
        }
    }

    @Test("a tfa_secret becomes the account's authenticator, sealed for it, with the account in one step", arguments: StoreFactory.all)
    func authenticatorComesAlong(factory: StoreFactory) throws {
        try withImport(factory) { importer, store throws in
            let secret = "JBSWY3DPEHPK3PXP"  // 80 bits, as Directus makes them
            #expect(try importer.run(record("ana@example.com", id: "4f1c", tfa: secret))
                == .imported(email: "ana@example.com", status: .active, hasPassword: true, hasSecondFactor: true))
            let factor = try #require(try store.secondFactor(accountID: "4f1c"))
            #expect(factor.lastStep == 0 && !factor.sealedSecret.contains(secret))
            let opened = try SecretBox.forTests.open(factor.sealedSecret, purpose: OneTimeCodeSignIn.secretPurpose, binding: "4f1c")
            #expect(opened.exposed == Base32.decode(secret))
            // An account refused for its address gets no factor either.
            _ = try importer.run(record("ANA@example.com", id: "other", tfa: secret))
            #expect(try store.secondFactor(accountID: "other") == nil)
        }
    }

    @Test("a dry run says what would happen and stores nothing", arguments: StoreFactory.all)
    func dryRun(factory: StoreFactory) throws {
        try withImport(factory) { importer, store throws in
            #expect(try importer.run(record("ana@example.com"), dryRun: true) == .imported(email: "ana@example.com", status: .active, hasPassword: true, hasSecondFactor: false))
            #expect(try store.allAccounts().isEmpty)
        }
    }
}
