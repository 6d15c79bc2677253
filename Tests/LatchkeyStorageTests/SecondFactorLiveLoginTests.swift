import Foundation
import LatchkeyCrypto
import LatchkeyTestSupport
import Synchronization
import Testing

@testable import LatchkeyCore
@testable import LatchkeyStorage

/// Second-factor changes made by a login, on every `Store` implementation in
/// ``StoreFactory/all``: like every account change, each is made only while the login is still
/// live, checked under the account's lock in the transaction that writes, so a stolen session
/// whose request is in flight while the owner resets the password enrols, renews or removes nothing.
@Suite struct SecondFactorLiveLoginTests {
    /// The ways a login ends under a request already on its way.
    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case signedOut = "signed out", passwordReset = "password reset", accountDisabled = "account disabled"

        var testDescription: String { rawValue }

        /// Ends `login` of `account` this way.
        func end(_ login: RefreshTokenRecord, of account: Account, in harness: AccountHarness) throws {
            switch self {
            case .signedOut:
                try harness.store.revokeFamily(id: login.familyID, now: harness.now)
            case .passwordReset:
                let digest = randomDigest()
                try harness.fixture.insertResetToken(digest, accountID: account.id, expiresAt: harness.now.addingTimeInterval(3600))
                _ = try #require(try harness.store.completeReset(
                    digest: digest, newPasswordHash: "$argon2id$reset", now: harness.now,
                    notification: { try noticeMail(to: $0.email, subject: "Password reset") }))
            case .accountDisabled:
                #expect(try harness.store.setStatus(.disabled, email: account.email))
            }
        }
    }

    @Test("an ended login enrols nothing: no authenticator, the pending secret kept, no mail", arguments: StoreFactory.all, Ending.allCases)
    func enableNeedsALiveLogin(factory: StoreFactory, ending: Ending) throws {
        let harness = try AccountHarness(factory)
        let account = try harness.account("person@example.com")
        let login = try harness.login(for: account)
        try Self.pend("v1.attackers", for: account, harness)
        try ending.end(login, of: account, in: harness)

        #expect(try Self.enable(.byLogin(harness.reference(login)), sealed: "v1.attackers", harness) == .signInEnded)
        #expect(try harness.store.secondFactor(accountID: account.id) == nil)
        #expect(try harness.store.recoveryCodeCount(accountID: account.id) == 0)
        #expect(try harness.store.pendingSecondFactor(accountID: account.id, now: harness.now) == "v1.attackers")
        #expect(try Self.secondFactorMails(to: account, harness) == 0)
    }

    @Test("an ended login renews no recovery codes and removes no authenticator; the operator's removal still works",
          arguments: StoreFactory.all, Ending.allCases)
    func renewAndRemoveNeedALiveLogin(factory: StoreFactory, ending: Ending) throws {
        let harness = try AccountHarness(factory)
        let account = try harness.account("person@example.com")
        let login = try harness.login(for: account)
        try Self.pend("v1.owners", for: account, harness)
        #expect(try Self.enable(.byLogin(harness.reference(login)), sealed: "v1.owners", codes: ["a", "b"], harness) == .changed)
        try ending.end(login, of: account, in: harness)

        #expect(try harness.store.replaceRecoveryCodes(login: harness.reference(login), digests: ["c", "d", "e"], now: harness.now)
            == .signInEnded)
        #expect(try Self.recoveryCodes(of: account, are: ["a", "b"], harness))
        #expect(try Self.remove(.byOwner(harness.reference(login)), harness) == .signInEnded)
        #expect(try harness.store.secondFactor(accountID: account.id)?.sealedSecret == "v1.owners")
        #expect(try Self.secondFactorMails(to: account, harness) == 1, "only the enrolment's")

        // `latchkey users tfa-reset` has no login: it removes the authenticator whatever became of them.
        #expect(try Self.remove(.byOperator(accountID: account.id), harness) == .changed)
        #expect(try harness.store.secondFactor(accountID: account.id) == nil)
        #expect(try harness.store.recoveryCodeCount(accountID: account.id) == 0)
        #expect(try Self.secondFactorMails(to: account, harness) == 2)
        #expect(try Self.remove(.byOperator(accountID: account.id), harness) == .nothingToChange)
    }

    @Test("a live login enrols, renews and removes as before; each change it cannot make is nothingToChange, without mail",
          arguments: StoreFactory.all)
    func liveLoginChanges(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let account = try harness.account("person@example.com")
        let bystander = try harness.account("other@example.com")
        let login = harness.reference(try harness.login(for: account))
        #expect(try harness.store.replaceRecoveryCodes(login: login, digests: ["x"], now: harness.now) == .nothingToChange)
        #expect(try Self.remove(.byOwner(login), harness) == .nothingToChange)
        #expect(try Self.enable(.byLogin(login), sealed: "v1.none", harness) == .nothingToChange)
        try Self.pend("v1.owners", for: account, harness)
        // Another account's login changes nothing here, however live it is.
        let bystanders = harness.reference(try harness.login(for: bystander))
        let crossed = LoginReference(accountID: account.id, familyID: bystanders.familyID, credentialVersion: bystanders.credentialVersion)
        #expect(try Self.enable(.byLogin(crossed), sealed: "v1.owners", harness) == .signInEnded)

        #expect(try Self.enable(.byLogin(login), sealed: "v1.owners", codes: ["a", "b"], harness) == .changed)
        #expect(try harness.store.secondFactor(accountID: account.id)?.sealedSecret == "v1.owners")
        #expect(try Self.enable(.byLogin(login), sealed: "v1.owners", harness) == .nothingToChange)
        #expect(try harness.store.replaceRecoveryCodes(login: login, digests: ["c", "d", "e"], now: harness.now) == .changed)
        #expect(try Self.recoveryCodes(of: account, are: ["c", "d", "e"], harness))
        #expect(try Self.remove(.byOwner(login), harness) == .changed)
        #expect(try harness.store.secondFactor(accountID: account.id) == nil)
        #expect(try harness.store.recoveryCodeCount(accountID: account.id) == 0)
        #expect(try Self.secondFactorMails(to: account, harness) == 2)
        #expect(try Self.secondFactorMails(to: bystander, harness) == 0)
    }

    @Test("the enrolment page's password step enrols only while the account keeps that credential version and is active",
          arguments: StoreFactory.all)
    func passwordStepNeedsTheSameCredentialVersion(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let reset = try harness.account("reset@example.com")
        let disabled = try harness.account("disabled@example.com")
        let kept = try harness.account("kept@example.com")
        for account in [reset, disabled, kept] {
            try Self.pend("v1.page", for: account, harness)
        }
        try Ending.passwordReset.end(try harness.login(for: reset), of: reset, in: harness)
        try Ending.accountDisabled.end(try harness.login(for: disabled), of: disabled, in: harness)

        for account in [reset, disabled] {
            #expect(try Self.enable(.byPasswordStep(accountID: account.id, credentialVersion: account.credentialVersion), sealed: "v1.page", harness)
                == .signInEnded, "\(account.email)")
            #expect(try harness.store.secondFactor(accountID: account.id) == nil)
            #expect(try Self.secondFactorMails(to: account, harness) == 0)
        }
        #expect(try Self.enable(.byPasswordStep(accountID: kept.id, credentialVersion: kept.credentialVersion), sealed: "v1.page", harness)
            == .changed)
        #expect(try harness.store.secondFactor(accountID: kept.id) != nil)
    }

    @Test("an enrolment racing a password reset either comes first, by a then-live login, or enrols nothing (20 rounds, 4 accounts each)",
          arguments: StoreFactory.all)
    func enableRacingReset(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let accountsPerRound = 4
        var enrolled = 0
        var refused = 0
        for round in 0..<20 {
            var prepared: [(account: Account, login: LoginReference, resetToken: Data)] = []
            for index in 0..<accountsPerRound {
                let account = try harness.account("person-\(round)-\(index)@example.com")
                let login = harness.reference(try harness.login(for: account))
                try Self.pend("v1.attackers", for: account, harness)
                let resetToken = randomDigest()
                try harness.fixture.insertResetToken(resetToken, accountID: account.id, expiresAt: harness.now.addingTimeInterval(3600))
                prepared.append((account, login, resetToken))
            }
            let pairs = prepared
            // Each transaction takes a ticket while it holds the account's lock (its mail is made
            // there), so the tickets give the order the database ran them in.
            let tickets = Atomic<Int>(0)
            let resetAt = Mutex<[Int: Int]>([:])
            let enabledAt = Mutex<[Int: Int]>([:])
            let results = Mutex<[Int: SecondFactorChangeResult]>([:])
            let now = harness.now
            runOnThreads(2 * accountsPerRound) { thread in
                let pair = thread / 2
                // Which of the two starts first alternates from round to round.
                if (thread + round) % 2 == 0 {
                    _ = try? harness.store.completeReset(digest: pairs[pair].resetToken, newPasswordHash: "$argon2id$reset", now: now) { account in
                        resetAt.withLock { $0[pair] = tickets.add(1, ordering: .sequentiallyConsistent).newValue }
                        return try noticeMail(to: account.email, subject: "Password reset")
                    }
                } else {
                    let result = try? harness.store.enableSecondFactor(
                        .byLogin(pairs[pair].login), sealedSecret: "v1.attackers", acceptedStep: 1, recoveryCodeDigests: ["a"], now: now
                    ) { account in
                        enabledAt.withLock { $0[pair] = tickets.add(1, ordering: .sequentiallyConsistent).newValue }
                        return try noticeMail(to: account.email, subject: "Two-step sign-in")
                    }
                    results.withLock { $0[pair] = result }
                }
            }
            for (index, pair) in pairs.enumerated() {
                let reset = try #require(resetAt.withLock { $0[index] }, "the reset happened (round \(round))")
                let result = results.withLock { $0[index] }
                let hasFactor = try harness.store.secondFactor(accountID: pair.account.id) != nil
                let mails = try Self.secondFactorMails(to: pair.account, harness)
                switch result {
                case .changed:
                    let enabled = try #require(enabledAt.withLock { $0[index] })
                    #expect(enabled < reset, "enrolled after the reset ended the login (round \(round))")
                    #expect(hasFactor && mails == 1)
                    enrolled += 1
                case .signInEnded:
                    #expect(!hasFactor && mails == 0, "round \(round)")
                    refused += 1
                default:
                    Issue.record("the enrolment came to \(String(describing: result)) (round \(round))")
                }
                // The owner's new password works; the old login is over either way.
                #expect(try harness.store.account(id: pair.account.id)?.passwordHash == "$argon2id$reset")
                #expect(try harness.store.liveFamily(familyID: pair.login.familyID, now: now) == nil)
            }
        }
        // Both orders happened.
        #expect(enrolled > 0 && refused > 0, "enrolled \(enrolled), refused \(refused)")
    }

    /// Enrols the pending secret `sealed` with `codes` as recovery-code digests, queuing a "Two-step sign-in" mail.
    static func enable(
        _ enabling: SecondFactorEnabling, sealed: String, codes: [String] = ["a"], _ harness: AccountHarness
    ) throws -> SecondFactorChangeResult {
        try harness.store.enableSecondFactor(enabling, sealedSecret: sealed, acceptedStep: 1, recoveryCodeDigests: codes, now: harness.now) {
            try noticeMail(to: $0.email, subject: "Two-step sign-in")
        }
    }

    /// Removes the authenticator, queuing a "Two-step sign-in" mail.
    static func remove(_ removal: SecondFactorRemoval, _ harness: AccountHarness) throws -> SecondFactorChangeResult {
        try harness.store.removeSecondFactor(removal, now: harness.now) { try noticeMail(to: $0.email, subject: "Two-step sign-in") }
    }

    /// Keeps `sealed` as `account`'s generated, unconfirmed secret for ten minutes.
    static func pend(_ sealed: String, for account: Account, _ harness: AccountHarness) throws {
        try harness.store.savePendingSecondFactor(
            accountID: account.id, sealedSecret: sealed, now: harness.now, expiresAt: harness.now.addingTimeInterval(600))
    }

    /// How many "Two-step sign-in" mails the outbox holds for `account`.
    static func secondFactorMails(to account: Account, _ harness: AccountHarness) throws -> Int {
        try harness.mailCount(to: account.email, subject: "Two-step sign-in")
    }

    /// Whether the account's recovery codes are exactly `digests`.
    static func recoveryCodes(of account: Account, are digests: [String], _ harness: AccountHarness) throws -> Bool {
        let listed = digests.map { "'\($0)'" }.joined(separator: ", ")
        return try harness.store.recoveryCodeCount(accountID: account.id) == digests.count
            && harness.fixture.integer(
                "SELECT COUNT(*) AS value FROM recovery_codes WHERE account_id = '\(account.id)' AND code_digest IN (\(listed))") == digests.count
    }
}
