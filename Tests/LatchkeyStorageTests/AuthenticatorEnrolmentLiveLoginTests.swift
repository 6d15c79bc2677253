import Foundation
import LatchkeyCrypto
import LatchkeyTestSupport
import Testing

@testable import LatchkeyCore
@testable import LatchkeyStorage

/// ``AuthenticatorEnrolment`` for a login that ended after its route checked it (the access
/// token was verified, then the owner reset the password or signed the device out): with the
/// right code still nothing changes, and the answer is the one every account change gives an
/// ended login. On every `Store` implementation in ``StoreFactory/all``.
@Suite struct AuthenticatorEnrolmentLiveLoginTests {
    @Test("a login a password reset ended after its check cannot enrol its authenticator, even with the right code",
          arguments: StoreFactory.all)
    func enableAfterReset(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let account = try harness.accountWithPassword()
        let login = try Self.login(for: account, harness)
        let generated = try harness.enrolment.generate(email: account.email, password: Redacted(SecondFactorHarness.password), clientIP: "192.0.2.1")
        let secret = try #require(Base32.decode(generated.secret.exposed))
        // The owner resets the password while the attacker's request is on its way.
        #expect(try harness.store.replacePassword(email: account.email, newPasswordHash: try harness.hasher.hash(Redacted("a new one")), now: harness.clock.now()))

        let code = OneTimePassword.code(secret: secret, counter: UInt64(OneTimePassword.step(at: harness.clock.now())))
        #expect {
            try harness.enrolment.enable(
                .byLogin(login), account: account, secret: generated.secret.exposed, code: Redacted(code), clientIP: "198.51.100.7",
                acceptLanguage: nil)
        } throws: { error in
            guard let error = error as? LatchkeyError else { return false }
            return error.code == .invalidCredentials && error.cause == .accessTokenRefused
        }
        #expect(try harness.store.secondFactor(accountID: account.id) == nil)
        #expect(try harness.store.recoveryCodeCount(accountID: account.id) == 0)
        #expect(try Self.mails(to: account, subject: "Two-step sign-in is on", harness) == 0)
        // The owner, with the new password, is not asked for a code.
        let signedIn = try harness.signIn.begin(.password(email: account.email, password: Redacted("a new one")), clientIP: "192.0.2.1")
        guard case .signedIn = signedIn else {
            Issue.record("the owner was asked for a second factor")
            return
        }
    }

    @Test("a signed-out login neither turns two-step sign-in off nor renews the recovery codes, even with the right codes",
          arguments: StoreFactory.all)
    func disableAndRenewAfterSignOut(factory: StoreFactory) throws {
        let harness = try SecondFactorHarness(factory)
        let (account, codes) = try harness.enrolledAccountWithCodes()
        let owner = AccountOwner(account: account, login: try Self.login(for: account, harness), assurance: .signedIn(at: harness.clock.now()))
        try harness.store.revokeFamily(id: owner.login.familyID, now: harness.clock.now())

        #expect { try harness.enrolment.disable(owner, code: codes[0], clientIP: "198.51.100.7", acceptLanguage: nil) }
            throws: { ($0 as? LatchkeyError)?.code == .invalidCredentials }
        #expect(try harness.store.secondFactor(accountID: account.id) != nil)
        harness.clock.advance(by: 30)
        #expect { try harness.enrolment.renewRecoveryCodes(owner, code: Redacted(harness.currentCode()), clientIP: "198.51.100.7") }
            throws: { ($0 as? LatchkeyError)?.code == .invalidCredentials }
        // No "off" mail (the "on" one is there); the owner's recovery codes still work (the first
        // was spent on the refused disable).
        #expect(try Self.mails(to: account, subject: "Two-step sign-in is off", harness) == 0)
        #expect(try Self.mails(to: account, subject: "Two-step sign-in is on", harness) == 1)
        try harness.codes.verify(codes[1], account: account, acceptingRecoveryCode: true, clientIP: "192.0.2.1", now: harness.clock.now())
        #expect(try harness.store.recoveryCodeCount(accountID: account.id) == 8)
    }

    /// How many mails to `account` the outbox holds whose subject starts with `subject`.
    static func mails(to account: Account, subject: String, _ harness: SecondFactorHarness) throws -> Int {
        try harness.fixture.integer(
            "SELECT COUNT(*) AS value FROM outbox WHERE recipient = '\(account.email)' AND subject LIKE '\(subject)%'")
    }

    /// A new live login of `account`, as `/auth/login` starts one.
    static func login(for account: Account, _ harness: SecondFactorHarness) throws -> LoginReference {
        try liveLogin(of: account.id, in: harness.store, now: harness.clock.now())
    }
}
