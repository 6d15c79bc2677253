import Foundation
import LatchkeyCrypto
@testable import LatchkeyCore
import LatchkeyHTTP
@testable import LatchkeyServer
import LatchkeyTestSupport
import Testing

/// The second factor through the router of a whole application, on a clock the tests move:
/// Directus's `/users/me/tfa/*` shapes, `otp` at `/auth/login`, and what the secret key file does.
@Suite struct SecondFactorRoutesTests {
    private static let password = "correct horse battery staple"
    private static let email = "person@example.com"

    @Test("generate, enable, sign in with otp, disable: Directus's shapes and codes")
    func directusShapes() throws {
        let harness = try AccountRoutesHarness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)

        let wrongPassword = harness.call("POST", "/users/me/tfa/generate", token: login.access, body: #"{"password":"nope nope nope"}"#)
        #expect(wrongPassword.status == 401)
        #expect(try harness.directusCode(wrongPassword) == "INVALID_CREDENTIALS")
        let generated = harness.call("POST", "/users/me/tfa/generate", token: login.access, body: #"{"password":"\#(Self.password)"}"#)
        #expect(generated.status == 200)
        let data = try #require(try harness.json(generated)["data"] as? [String: Any])
        let secret = try #require(data["secret"] as? String)
        #expect(try #require(data["otpauth_url"] as? String).hasPrefix("otpauth://totp/Latchkey:person@example.com?secret=\(secret)&"))
        #expect(generated.headers["Cache-Control"] == "no-store")
        let key = try #require(Base32.decode(secret))
        func code(_ offset: Int64 = 0) -> String {
            OneTimePassword.code(secret: key, counter: UInt64(OneTimePassword.step(at: harness.clock.now()) + offset))
        }

        let wrongCode = harness.call("POST", "/users/me/tfa/enable", token: login.access, body: #"{"secret":"\#(secret)","otp":"\#(code(3))"}"#)
        #expect(wrongCode.status == 401)
        #expect(try harness.directusCode(wrongCode) == "INVALID_OTP")
        let enabled = harness.call("POST", "/users/me/tfa/enable", token: login.access, body: #"{"secret":"\#(secret)","otp":"\#(code())"}"#)
        #expect(enabled.status == 200)
        let codes = try #require((try harness.json(enabled)["data"] as? [String: Any])?["recovery_codes"] as? [String])
        #expect(codes.count == 10)

        let missing = harness.call("POST", "/auth/login", body: #"{"email":"\#(Self.email)","password":"\#(Self.password)"}"#)
        #expect(missing.status == 401)
        #expect(try harness.directusCode(missing) == "INVALID_OTP")
        harness.clock.advance(by: 30)
        let signedIn = harness.call("POST", "/auth/login", body: #"{"email":"\#(Self.email)","password":"\#(Self.password)","otp":"\#(code())"}"#)
        #expect(signedIn.status == 200)
        let access = try #require((try harness.json(signedIn)["data"] as? [String: Any])?["access_token"] as? String)
        let verified = try #require(try harness.app.tokens.verifyAccessToken(Redacted(access)))
        #expect(verified.assurance.methods == [.password, .oneTimePassword])

        let disabled = harness.call("POST", "/users/me/tfa/disable", token: access, body: #"{"otp":"\#(codes[9])"}"#)
        #expect(disabled.status == 204)
        #expect(harness.call("POST", "/auth/login", body: #"{"email":"\#(Self.email)","password":"\#(Self.password)"}"#).status == 200)
        let subjects = try harness.mails().map(\.subject)
        #expect(subjects.contains { $0.contains("Two-step sign-in is on") } && subjects.contains { $0.contains("Two-step sign-in is off") })
    }

    @Test("oversized and control-character codes are 400 before any lookup; an otp of the wrong type too")
    func malformedCodes() throws {
        let harness = try AccountRoutesHarness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)
        for body in [
            #"{"otp":"\#(String(repeating: "1", count: 65))"}"#, #"{"otp":"12\u000034"}"#, #"{"otp":123456}"#, #"{}"#,
        ] {
            let response = harness.call("POST", "/users/me/tfa/disable", token: login.access, body: body)
            #expect(response.status == 400, "\(body)")
        }
        let login400 = harness.call(
            "POST", "/auth/login", body: #"{"email":"\#(Self.email)","password":"\#(Self.password)","otp":"1\n2"}"#)
        #expect(login400.status == 400)
    }

    @Test("a sealed secret copied into another account's row opens for nothing there: its codes are refused")
    func movedSecret() throws {
        let harness = try AccountRoutesHarness()
        let victim = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let attacker = try harness.app.accounts.createAccount(email: "other@example.com", password: Redacted(Self.password))
        func enrol(_ email: String) throws -> (secret: Data, codes: [String]) {
            let login = try harness.login(email, Self.password)
            let generated = harness.call("POST", "/users/me/tfa/generate", token: login.access, body: #"{"password":"\#(Self.password)"}"#)
            let secret = try #require((try harness.json(generated)["data"] as? [String: Any])?["secret"] as? String)
            let key = try #require(Base32.decode(secret))
            let otp = OneTimePassword.code(secret: key, counter: UInt64(OneTimePassword.step(at: harness.clock.now())))
            let enabled = harness.call("POST", "/users/me/tfa/enable", token: login.access, body: #"{"otp":"\#(otp)"}"#)
            return (key, try #require((try harness.json(enabled)["data"] as? [String: Any])?["recovery_codes"] as? [String]))
        }
        let attackers = try enrol("other@example.com")
        _ = try enrol(Self.email)
        // Someone with write access to the database copies the attacker's sealed secret over the victim's.
        let sealed = try #require(try harness.app.store.secondFactor(accountID: attacker.id)).sealedSecret
        _ = try harness.app.store.removeSecondFactor(.byOperator(accountID: victim.id), now: harness.clock.now()) { account in
            try MailTemplates().render(.secondFactorChanged(.disabled, changedAt: harness.clock.now()), to: account.email, language: .en, id: "m-1")
        }
        try harness.app.store.savePendingSecondFactor(accountID: victim.id, sealedSecret: sealed, now: harness.clock.now(), expiresAt: harness.clock.now().addingTimeInterval(60))
        let asVictim = SecondFactorEnabling.byPasswordStep(accountID: victim.id, credentialVersion: victim.credentialVersion)
        #expect(try harness.app.store.enableSecondFactor(
            asVictim, sealedSecret: "v1.other", acceptedStep: 0, recoveryCodeDigests: [], now: harness.clock.now()) { _ in
                throw LatchkeyError(.internalError, "no mail")
            } == .nothingToChange)
        #expect(try harness.app.store.enableSecondFactor(
            asVictim, sealedSecret: sealed, acceptedStep: 0, recoveryCodeDigests: [], now: harness.clock.now()) { account in
                try MailTemplates().render(.secondFactorChanged(.enabled, changedAt: harness.clock.now()), to: account.email, language: .en, id: "m-2")
            } == .changed)
        harness.clock.advance(by: 60)
        let attackerCode = OneTimePassword.code(secret: attackers.secret, counter: UInt64(OneTimePassword.step(at: harness.clock.now())))
        let moved = harness.call("POST", "/auth/login", body: #"{"email":"\#(Self.email)","password":"\#(Self.password)","otp":"\#(attackerCode)"}"#)
        #expect(moved.status == 401)
        #expect(try harness.directusCode(moved) == "INVALID_OTP")
    }
}
