import Foundation
import LatchkeyTestSupport
import LatchkeyWebAuthn
import Testing

@testable import LatchkeyCore
@testable import LatchkeyStorage

/// Adding and deleting passkeys, on every `Store` implementation in ``StoreFactory/all``, follow
/// the rule of every account change: made only while the login that asks is still live,
/// checked under the account's lock in the transaction that writes. A passkey outlives a
/// password reset, so a stolen session whose registration is in flight while the owner resets
/// the password must not leave its passkey behind. (The race itself is the second factor's:
/// ``SecondFactorLiveLoginTests`` releases a reset and a change at once, round after round.)
@Suite struct PasskeyLiveLoginTests {
    typealias Ending = SecondFactorLiveLoginTests.Ending

    /// A passkey for `account`, its credential made up (the store does not verify it).
    private static func passkey(for account: Account, id: UInt8, _ harness: AccountHarness) throws -> Passkey {
        let handle = try #require(try harness.store.passkeyUserHandle(accountID: account.id, creating: randomDigest()))
        let credential = CredentialRecord(
            id: Data(repeating: id, count: 16), publicKey: Data([0xA5]), algorithm: .es256, signCount: 0, backupEligible: true,
            backupState: true, userVerifiedAtRegistration: true, transports: ["internal"], aaguid: Data(count: 16),
            attestationFormat: "none")
        return Passkey(credential: credential, accountID: account.id, userHandle: handle, name: "Phone", createdAt: harness.now, lastUsedAt: nil)
    }

    @Test("an ended login adds no passkey and deletes none, and nothing is mailed; a live one does both",
          arguments: StoreFactory.all, Ending.allCases)
    func changesNeedALiveLogin(factory: StoreFactory, ending: Ending) throws {
        let harness = try AccountHarness(factory)
        let account = try harness.account("person@example.com")
        let owners = try harness.login(for: account)
        let kept = try Self.passkey(for: account, id: 1, harness)
        let mail = { (owner: Account) in try noticeMail(to: owner.email, subject: "Passkey") }
        #expect(try harness.store.addPasskey(kept, by: harness.reference(owners), limit: 20, notice: mail) == .added)

        let intruders = try harness.login(for: account)
        try ending.end(intruders, of: account, in: harness)
        let planted = try Self.passkey(for: account, id: 2, harness)
        #expect(try harness.store.addPasskey(planted, by: harness.reference(intruders), limit: 20, notice: mail) == .signInEnded)
        #expect(try harness.store.passkey(credentialID: planted.credential.id) == nil)
        #expect(try harness.store.deletePasskey(by: harness.reference(intruders), credentialID: kept.credential.id, now: harness.now) { owner, _ in
            try mail(owner)
        } == .signInEnded)
        #expect(try harness.store.passkey(credentialID: kept.credential.id) != nil)
        #expect(try harness.mailCount(to: account.email, subject: "Passkey") == 1, "only the first addition's")
    }

    @Test("a login of another account adds nothing to this one", arguments: StoreFactory.all)
    func anotherAccountsLogin(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let account = try harness.account("person@example.com")
        let other = try harness.login(for: try harness.account("other@example.com"))
        let passkey = try Self.passkey(for: account, id: 3, harness)
        #expect(try harness.store.addPasskey(passkey, by: harness.reference(other), limit: 20) { _ in
            try noticeMail(to: "x@example.com", subject: "Passkey")
        } == .signInEnded)
        #expect(try harness.store.passkeys(accountID: account.id).isEmpty)
    }
}
