import Foundation
import LatchkeyCrypto
@testable import LatchkeyCore
import LatchkeyHTTP
@testable import LatchkeyServer
import LatchkeyTestSupport
import Testing

/// `/users/me/tfa/*` for a login that ended: the answer every account change gives it, with
/// the right code too, and nothing changed.
@Suite struct SecondFactorEndedLoginRoutesTests {
    private static let password = "correct horse battery staple"
    private static let newPassword = "violet tractor quietly juggles mountains"
    private static let email = "person@example.com"

    @Test("a stolen login ended by the owner's new password cannot enable its authenticator with a valid code: 401, nothing enrolled")
    func enableAfterPasswordChange() throws {
        let harness = try AccountRoutesHarness()
        let account = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let stolen = try harness.login(Self.email, Self.password, ip: "198.51.100.7")
        let generated = harness.call(
            "POST", "/users/me/tfa/generate", token: stolen.access, body: #"{"password":"\#(Self.password)"}"#, ip: "198.51.100.7")
        let secret = try #require((try harness.json(generated)["data"] as? [String: Any])?["secret"] as? String)
        let key = try #require(Base32.decode(secret))

        // The owner sets a new password from their own device, which ends every other login.
        let owners = try harness.login(Self.email, Self.password)
        #expect(harness.call("PATCH", "/users/me", token: owners.access, body: #"{"password":"\#(Self.newPassword)"}"#).status == 200)

        let code = OneTimePassword.code(secret: key, counter: UInt64(OneTimePassword.step(at: harness.clock.now())))
        let enabled = harness.call(
            "POST", "/users/me/tfa/enable", token: stolen.access, body: #"{"secret":"\#(secret)","otp":"\#(code)"}"#, ip: "198.51.100.7")
        #expect(enabled.status == 401)
        #expect(enabled.headers["WWW-Authenticate"] == "Bearer")
        #expect(try harness.directusCode(enabled) == "INVALID_CREDENTIALS")
        #expect(try harness.latchkeyCode(enabled) == "invalid_credentials")
        #expect(try harness.app.store.secondFactor(accountID: account.id) == nil)
        #expect(try !harness.mails().contains { $0.subject.hasPrefix("Two-step sign-in") })
        // The owner signs in with the new password alone.
        let signedIn = harness.call("POST", "/auth/login", body: #"{"email":"\#(Self.email)","password":"\#(Self.newPassword)"}"#)
        #expect(signedIn.status == 200)
    }

    @Test("an ended login can neither turn two-step sign-in off nor renew the recovery codes: 401, the factor and its codes kept")
    func disableAndRenewAfterSignOut() throws {
        let harness = try AccountRoutesHarness()
        let account = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)
        let generated = harness.call("POST", "/users/me/tfa/generate", token: login.access, body: #"{"password":"\#(Self.password)"}"#)
        let secret = try #require((try harness.json(generated)["data"] as? [String: Any])?["secret"] as? String)
        let key = try #require(Base32.decode(secret))
        func code() -> String { OneTimePassword.code(secret: key, counter: UInt64(OneTimePassword.step(at: harness.clock.now()))) }
        let enabled = harness.call("POST", "/users/me/tfa/enable", token: login.access, body: #"{"otp":"\#(code())"}"#)
        let codes = try #require((try harness.json(enabled)["data"] as? [String: Any])?["recovery_codes"] as? [String])
        #expect(harness.call("POST", "/auth/logout", body: #"{"refresh_token":"\#(login.refresh)"}"#).status == 204)

        harness.clock.advance(by: 30)
        let disabled = harness.call("POST", "/users/me/tfa/disable", token: login.access, body: #"{"otp":"\#(code())"}"#)
        let renewed = harness.call("POST", "/users/me/tfa/recovery-codes", token: login.access, body: #"{"otp":"\#(code())"}"#)
        for response in [disabled, renewed] {
            #expect(response.status == 401)
            #expect(try harness.directusCode(response) == "INVALID_CREDENTIALS")
        }
        #expect(try harness.app.store.secondFactor(accountID: account.id) != nil)
        let recovered = harness.call(
            "POST", "/auth/login", body: #"{"email":"\#(Self.email)","password":"\#(Self.password)","otp":"\#(codes[0])"}"#)
        #expect(recovered.status == 200, "the recovery codes from the enrolment still work")
    }
}
