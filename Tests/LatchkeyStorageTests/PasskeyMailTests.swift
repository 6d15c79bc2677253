import Foundation
import LatchkeyCrypto
import LatchkeyTestSupport
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

@testable import LatchkeyCore
@testable import LatchkeyStorage

/// The owner hears of every passkey added to or removed from their account (NIST SP 800-63B
/// §6.1.2.1), on every `Store` implementation: one mail per change, in the account's language,
/// queued with the change itself; nothing for a rename or for anything refused.
@Suite struct PasskeyMailTests {
    /// A name as hostile as a rename lets through: markup, quotes, an ampersand.
    private static let hostileName = #"<b>Ana's "iPad"</b> & co"#

    /// The mails queued since the last call (each is handed out once).
    private func mails(_ harness: PasskeyHarness) throws -> [MailMessage] {
        try harness.store.leaseDueMail(now: harness.clock.now().addingTimeInterval(3600), lease: 86400, limit: 100).map(\.message)
    }

    /// Moves the harness's clock to 2030-03-17 17:46:40 UTC.
    private func moveClock(_ harness: PasskeyHarness) {
        harness.clock.advance(by: 1_900_000_000 - harness.clock.now().timeIntervalSince1970)
    }

    /// An active account with ``PasskeyHarness/password`` and `locale`.
    private func account(_ harness: PasskeyHarness, email: String = "ana@example.com", locale: String?) throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: try harness.hasher.hash(Redacted(PasskeyHarness.password)),
            status: .active, credentialVersion: 1, locale: locale, createdAt: harness.clock.now())
        try harness.store.createAccount(account)
        return account
    }

    /// Registers a new passkey named `name` for `account` through the options and verify calls,
    /// as a request saying `acceptLanguage`.
    private func register(
        _ harness: PasskeyHarness, for account: Account, name: String?, acceptLanguage: String? = nil
    ) throws -> SoftwareAuthenticator {
        let owner = try harness.recentOwner(account)
        let options = try harness.management.registrationOptions(owner, currentPassword: nil, code: nil, clientIP: "192.0.2.1")
        let authenticator = SoftwareAuthenticator(algorithm: .es256, userHandle: options.userHandle)
        _ = try harness.management.register(
            owner, response: authenticator.register(.init(challenge: options.challenge)), name: name, acceptLanguage: acceptLanguage)
        return authenticator
    }

    @Test("adding a passkey queues one mail to its owner, in the account's language, with the name (escaped) and the time",
          arguments: StoreFactory.all)
    func added(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        moveClock(harness)  // to 2030-03-17 17:46 UTC
        let ana = try account(harness, locale: "pt-BR")
        _ = try account(harness, email: "bea@example.com", locale: "es")
        _ = try register(harness, for: ana, name: Self.hostileName, acceptLanguage: "es")
        let queued = try mails(harness)
        try #require(queued.count == 1)
        let mail = queued[0]
        let text = SupportedLanguage.pt.catalogue.passkeyMail
        #expect(mail.to == "ana@example.com")
        #expect(mail.locale == "pt")
        #expect(mail.subject == text.addedSubject("Example"))
        let sentence = text.added("Example", Self.hostileName, "2030-03-17", "17:46")
        #expect(mail.textBody.oneLine.contains(sentence))
        #expect(mail.textBody.oneLine.contains(text.ifNotYouAdded))
        #expect(mail.htmlBody.contains(sentence.htmlEscaped))
        #expect(mail.htmlBody.contains("&lt;b&gt;Ana&#39;s &quot;iPad&quot;&lt;/b&gt; &amp; co"))
        #expect(!mail.htmlBody.contains("<b>"))
        #expect(!mail.subject.contains("iPad"))
        // The passkey was stored with it.
        #expect(try harness.store.passkeys(accountID: ana.id).map(\.name) == [Self.hostileName])
    }

    @Test("without a language of its own, the account is mailed in the request's; an unnamed passkey is named by its date",
          arguments: StoreFactory.all)
    func requestLanguage(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        moveClock(harness)
        let ana = try account(harness, locale: nil)
        _ = try register(harness, for: ana, name: nil, acceptLanguage: "ar, en;q=0.5")
        let mail = try #require(try mails(harness).first)
        #expect(mail.locale == "ar")
        #expect(mail.htmlBody.contains("<html lang=\"ar\" dir=\"rtl\">"))
        let language = SupportedLanguage.ar
        #expect(mail.textBody.contains(language.isolated("Passkey 2030-03-17")))
        #expect(mail.textBody.contains(language.isolated("17:46")))
    }

    @Test("removing a passkey queues one mail with its name; renaming queues none", arguments: StoreFactory.all)
    func removedAndRenamed(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        moveClock(harness)
        let ana = try account(harness, locale: "en")
        let laptop = try register(harness, for: ana, name: "Laptop")
        let phone = try register(harness, for: ana, name: "Phone")
        #expect(try mails(harness).count == 2)
        let owner = try harness.recentOwner(ana)
        _ = try harness.management.rename(laptop.credentialID, of: owner, to: "Work laptop")
        #expect(try mails(harness).isEmpty)
        try harness.management.delete(
            laptop.credentialID, of: owner, currentPassword: nil, code: nil, clientIP: "192.0.2.1", acceptLanguage: "pt")
        let queued = try mails(harness)
        try #require(queued.count == 1)
        let text = SupportedLanguage.en.catalogue.passkeyMail
        #expect(queued[0].to == "ana@example.com")
        #expect(queued[0].subject == text.removedSubject("Example"))
        #expect(queued[0].textBody.oneLine.contains(text.removed("Example", "Work laptop", "2030-03-17", "17:46")))
        #expect(queued[0].textBody.oneLine.contains(text.ifNotYouRemoved))
        #expect(try harness.store.passkeys(accountID: ana.id).map(\.credential.id) == [phone.credentialID])
    }

    @Test("a refused registration or deletion queues nothing", arguments: StoreFactory.all)
    func refusalsSendNothing(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        let ana = try account(harness, locale: nil)
        let bea = try account(harness, email: "bea@example.com", locale: nil)
        let owner = try harness.recentOwner(ana)
        let badSignature = SoftwareAuthenticator.Attestation.custom(format: "packed", statement: CBORMap(entries: [
            .init(key: .text("alg"), value: .integer(-7)), .init(key: .text("sig"), value: .bytes(Data(repeating: 1, count: 70))),
        ]))
        let failures: [(String, (inout SoftwareAuthenticator.Ceremony) -> Void)] = [
            ("invalid_attestation", { $0.attestation = badSignature }),
            ("origin_not_allowed", { $0.origin = "https://evil.example" }),
            ("user_not_verified", { $0.flags.remove(.userVerified) }),
        ]
        for (reason, change) in failures {
            let options = try harness.management.registrationOptions(owner, currentPassword: nil, code: nil, clientIP: "192.0.2.1")
            var ceremony = SoftwareAuthenticator.Ceremony(challenge: options.challenge)
            change(&ceremony)
            #expect {
                try harness.management.register(
                    owner, response: SoftwareAuthenticator(algorithm: .es256).register(ceremony), name: "Mine", acceptLanguage: nil)
            } throws: { ($0 as? LatchkeyError)?.reasons == [reason] }
        }
        // A challenge used twice, and a credential registered already (to another account).
        let options = try harness.management.registrationOptions(owner, currentPassword: nil, code: nil, clientIP: "192.0.2.1")
        let authenticator = SoftwareAuthenticator(algorithm: .es256)
        let response = authenticator.register(.init(challenge: options.challenge))
        _ = try harness.management.register(owner, response: response, name: "Mine", acceptLanguage: nil)
        #expect(try mails(harness).count == 1)
        #expect { try harness.management.register(owner, response: response, name: "Again", acceptLanguage: nil) }
            throws: { ($0 as? LatchkeyError)?.reasons == ["challenge_not_found"] }
        let beaOptions = try harness.management.registrationOptions(
            harness.recentOwner(bea), currentPassword: nil, code: nil, clientIP: "192.0.2.1")
        #expect {
            try harness.management.register(
                harness.recentOwner(bea), response: authenticator.register(.init(challenge: beaOptions.challenge)), name: nil,
                acceptLanguage: nil)
        } throws: { ($0 as? LatchkeyError)?.code == .passkeyExists }
        // Deleting another account's passkey, or an account's last way in.
        #expect {
            try harness.management.delete(
                authenticator.credentialID, of: harness.recentOwner(bea), currentPassword: nil, code: nil, clientIP: "192.0.2.1",
                acceptLanguage: nil)
        } throws: { ($0 as? LatchkeyError)?.code == .passkeyNotFound }
        try harness.fixture.execute("UPDATE accounts SET password_hash = NULL WHERE id = '\(ana.id)'")
        let passwordless = try harness.recentOwner(try #require(try harness.store.account(id: ana.id)))
        #expect {
            try harness.management.delete(
                authenticator.credentialID, of: passwordless, currentPassword: nil, code: nil, clientIP: "192.0.2.1", acceptLanguage: nil)
        } throws: { ($0 as? LatchkeyError)?.code == .lastSignInMethod }
        #expect(try mails(harness).isEmpty)
    }

    @Test("the passkey and its mail are one: a mail that cannot be written leaves the passkey unchanged", arguments: StoreFactory.all)
    func atomic(factory: StoreFactory) throws {
        let harness = try PasskeyHarness(factory)
        let ana = try account(harness, locale: nil)
        let kept = try register(harness, for: ana, name: "Kept")
        _ = try mails(harness)
        let stored = try #require(try harness.store.passkey(credentialID: kept.credentialID))
        let credential = stored.credential
        let other = Passkey(
            credential: CredentialRecord(
                id: Data(repeating: 9, count: 16), publicKey: credential.publicKey, algorithm: credential.algorithm, signCount: 0,
                backupEligible: true, backupState: true, userVerifiedAtRegistration: true, transports: [], aaguid: credential.aaguid,
                attestationFormat: "none"),
            accountID: ana.id, userHandle: stored.userHandle, name: "Other", createdAt: harness.clock.now(), lastUsedAt: nil)
        let unwritable = LatchkeyError(.invalidMailHeader, "test: the mail cannot be written")
        let login = try liveLogin(of: ana.id, in: harness.store, now: harness.clock.now())
        #expect { try harness.store.addPasskey(other, by: login, limit: 20) { _ in throw unwritable } } throws: {
            ($0 as? LatchkeyError)?.code == .invalidMailHeader
        }
        #expect(try harness.store.passkey(credentialID: other.credential.id) == nil)
        #expect {
            try harness.store.deletePasskey(by: login, credentialID: kept.credentialID, now: harness.clock.now()) { _, _ in throw unwritable }
        } throws: { ($0 as? LatchkeyError)?.code == .invalidMailHeader }
        #expect(try harness.store.passkey(credentialID: kept.credentialID) != nil)
        #expect(try mails(harness).isEmpty)
        // The notice sees the account as stored and the passkey's stored name.
        let seen = try harness.store.deletePasskey(by: login, credentialID: kept.credentialID, now: harness.clock.now()) { owner, name in
            #expect(owner.id == ana.id && name == "Kept")
            return try MailTemplates().render(.passkeyChanged(.removed, name: name, changedAt: harness.clock.now()), to: owner.email, language: .en, id: "m-1")
        }
        #expect(seen == .deleted)
        #expect(try mails(harness).map(\.id) == ["m-1"])
    }
}

extension String {
    /// The plain text with its wrapped lines joined again.
    fileprivate var oneLine: String { split(separator: "\n").joined(separator: " ") }
}
