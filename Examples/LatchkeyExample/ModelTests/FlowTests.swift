import Foundation
import LatchkeyClient
import LatchkeyExampleModel
import Testing

/// The sample app's screens as state machines: every decision a view relies on.
@Suite struct FlowTests {
    static let token = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde"
    static let link = ResetLink(token: ClientSecret(token))

    static func link(_ kind: AccountLink.Kind) -> AccountLink { AccountLink(kind: kind, token: ClientSecret(token)) }

    @Test("every mailed link opens its screen; the sign-in callback and foreign links are ignored; broken links say why")
    func routing() {
        let router = LinkRouter(configuration: .sample)
        #expect(router.route(URL(string: "https://auth.example.com/reset-password#token=\(Self.token)")!) == .open(Self.link(.resetPassword)))
        #expect(router.route(URL(string: "com.example.latchkey://reset-password#token=\(Self.token)")!) == .open(Self.link(.resetPassword)))
        #expect(router.route(URL(string: "https://auth.example.com/verify-email#token=\(Self.token)")!) == .open(Self.link(.verifyEmail)))
        #expect(router.route(URL(string: "https://auth.example.com/confirm-email#token=\(Self.token)")!)
            == .open(Self.link(.confirmEmailChange)))
        #expect(router.route(URL(string: "com.example.latchkey://undo-email-change#token=\(Self.token)")!)
            == .open(Self.link(.undoEmailChange)))
        #expect(router.route(URL(string: "com.example.latchkey:/oauth?code=c&state=s")!) == .ignore)
        #expect(router.route(URL(string: "https://evil.example/reset-password#token=\(Self.token)")!) == .ignore)
        #expect(router.route(URL(string: "http://auth.example.com/verify-email#token=\(Self.token)")!) == .ignore)
        #expect(router.route(URL(string: "https://auth.example.com/account")!) == .ignore)
        #expect(router.route(URL(string: "https://auth.example.com/reset-password#token=short")!)
            == .unusable(.resetPassword, LatchkeyClientError(.invalidLink, reasons: ["malformed_token"])))
        #expect(router.route(URL(string: "https://auth.example.com/verify-email")!)
            == .unusable(.verifyEmail, LatchkeyClientError(.invalidLink, reasons: ["missing_token"])))
    }

    @Test("the sign-up form: live rules with the address; sendable only when they are met; sent forgets the password")
    func signUpForm() {
        var form = SignUpForm(email: "jane")
        form.setPassword("jane-violet-tractor")
        // Until the address looks like one, the email rule cannot be judged.
        #expect(form.feedback.items.map(\.rule) == [.tooShort, .tooLong])
        #expect(!form.canSubmit)
        form.email = "jane@example.com"
        #expect(form.feedback.items.last?.rule == .containsEmail && form.feedback.items.last?.isMet == false)
        #expect(!form.canSubmit)
        let refused = form.submit()
        #expect(!refused && form.step == .editing)
        form.setPassword("violet tractor quietly juggles")
        #expect(form.canSubmit)
        let sending = form.submit()
        #expect(sending && form.step == .sending && !form.canSubmit)
        form.failed(LatchkeyClientError(.weakPassword, reasons: ["too_weak"]), language: .en)
        #expect(form.refusedReasons == ["too_weak"])
        #expect(form.step == .failed("Please choose a different password. This password is too easy to guess. Try a longer phrase of unrelated words."))
        form.setPassword("another longer phrase entirely")
        #expect(form.refusedReasons.isEmpty)
        let again = form.submit()
        #expect(again)
        form.sent()
        #expect(form.step == .sent(email: "jane@example.com"))
        #expect(form.password.exposed.isEmpty && !form.canSubmit)
        form.failed(LatchkeyClientError(.networkUnavailable), language: .en)  // out of order: ignored
        #expect(form.step == .sent(email: "jane@example.com"))
    }

    @Test("a sign-up's or address change's link: done, unusable for good, or retried after a passing failure")
    func emailLinkFlow() {
        var flow = EmailLinkFlow(link: Self.link(.verifyEmail))
        #expect(flow.step == .working && flow.kind == .verifyEmail)
        let early = flow.retry()
        #expect(!early)
        flow.failed(LatchkeyClientError(.networkUnavailable, reasons: ["offline"]), language: .en)
        #expect(flow.step == .failed("The service could not be reached. Please check your internet connection and try again."))
        let retried = flow.retry()
        #expect(retried && flow.step == .working)
        flow.completed()
        #expect(flow.step == .done)

        var used = EmailLinkFlow(link: Self.link(.confirmEmailChange))
        used.failed(LatchkeyClientError(.invalidToken), language: .pt)
        #expect(used.step == .unusable("Este link já não é válido. Peça um novo, por favor."))
        let again = used.retry()
        #expect(!again)

        let broken = EmailLinkFlow(unusable: .undoEmailChange, error: LatchkeyClientError(.invalidLink, reasons: ["malformed_token"]), language: .en)
        #expect(broken.kind == .undoEmailChange)
        #expect(broken.step == .unusable("This link cannot be used. Please open the latest link from your email."))
    }

    @Test("live password feedback lists each rule, met or not, as the person types")
    func feedback() {
        let empty = PasswordFeedback(password: ClientSecret(""), email: nil)
        #expect(empty.items.map(\.rule) == [.tooShort, .tooLong])
        #expect(empty.items.map(\.isMet) == [false, true])
        #expect(!empty.allMet)
        #expect(PasswordFeedback(password: ClientSecret("violet tractor"), email: nil).allMet)
        let withEmail = PasswordFeedback(password: ClientSecret("jane-violet-tractor"), email: "jane@example.com")
        #expect(withEmail.items.map(\.rule) == [.tooShort, .tooLong, .containsEmail])
        #expect(withEmail.items.last?.isMet == false)
        #expect(PasswordRules.Reason.tooShort.message(for: .en) == "Use at least 8 characters.")
        #expect(PasswordRules.Reason.tooShort.message(for: .pt) == "Use pelo menos 8 caracteres.")
    }

    @Test("the reset screen: check the link, choose a password, Face ID, save, done")
    func resetHappyPath() {
        var flow = ResetFlow(link: Self.link)
        #expect(flow.step == .checkingLink)
        let accepted1 = flow.submit()
        #expect(!accepted1)
        flow.linkChecked(ResetTokenStatus(emailHint: "j***@example.com", expiresAt: nil))
        #expect(flow.step == .choosingPassword)
        #expect(flow.emailHint == "j***@example.com")
        flow.setPassword("short")
        #expect(!flow.canSubmit)
        let accepted2 = flow.submit()
        #expect(!accepted2)
        flow.setPassword("violet tractor quietly juggles")
        let accepted3 = flow.submit()
        #expect(accepted3)
        #expect(flow.step == .confirmingIdentity)
        flow.saved()  // out of order: ignored
        #expect(flow.step == .confirmingIdentity)
        flow.identityConfirmed()
        #expect(flow.step == .saving)
        flow.saved()
        #expect(flow.step == .done)
        #expect(flow.password.exposed.isEmpty)
    }

    @Test("a used or expired link ends the flow; network trouble can be retried")
    func resetLinkFailures() {
        var used = ResetFlow(link: Self.link)
        used.linkCheckFailed(LatchkeyClientError(.invalidToken), language: .en)
        #expect(used.step == .linkUnusable("This link is no longer valid. Please request a new one."))
        used.retry()
        #expect(used.step == .linkUnusable("This link is no longer valid. Please request a new one."))

        var offline = ResetFlow(link: Self.link)
        offline.linkCheckFailed(LatchkeyClientError(.networkUnavailable, reasons: ["offline"]), language: .en)
        guard case .failed(_, let retry) = offline.step else { Issue.record("not failed"); return }
        #expect(retry == .checkingLink)
        offline.retry()
        #expect(offline.step == .checkingLink)
    }

    @Test("Face ID cancelled, a refused password, a link used meanwhile, a network failure while saving")
    func resetSaveFailures() {
        func ready() -> ResetFlow {
            var flow = ResetFlow(link: Self.link)
            flow.linkChecked(ResetTokenStatus(emailHint: nil, expiresAt: nil))
            flow.setPassword("violet tractor quietly juggles")
            _ = flow.submit()
            return flow
        }
        var cancelled = ready()
        cancelled.identityCheckFailed(LatchkeyClientError(.userAuthenticationFailed, reasons: ["cancelled"]), language: .en)
        cancelled.retry()
        #expect(cancelled.step == .choosingPassword)
        #expect(cancelled.password.exposed == "violet tractor quietly juggles")

        var weak = ready()
        weak.identityConfirmed()
        weak.saveFailed(LatchkeyClientError(.weakPassword, reasons: ["too_weak"]), language: .en)
        #expect(weak.refusedReasons == ["too_weak"])
        weak.retry()
        #expect(weak.step == .choosingPassword)
        weak.setPassword("another longer phrase entirely")
        #expect(weak.refusedReasons.isEmpty)

        var used = ready()
        used.identityConfirmed()
        used.saveFailed(LatchkeyClientError(.invalidToken), language: .es)
        #expect(used.step == .linkUnusable("Este enlace ya no es válido. Solicita uno nuevo, por favor."))

        var offline = ready()
        offline.identityConfirmed()
        offline.saveFailed(LatchkeyClientError(.networkUnavailable, reasons: ["timed_out"]), language: .en)
        offline.retry()
        #expect(offline.step == .saving)
    }

    @Test("change password: live rules with the account's address; the current password only once the server asks")
    func changePassword() {
        var form = ChangePasswordForm(email: "jane@example.com")
        form.setNewPassword("jane-violet-tractor")
        #expect(!form.canSubmit)
        let refused = form.submit()
        #expect(refused == nil)
        form.setNewPassword("violet tractor quietly juggles")
        #expect(!form.change.asksForCurrentPassword)
        let first = form.submit()
        #expect(first?.newPassword.exposed == "violet tractor quietly juggles" && first?.currentPassword == nil)
        #expect(form.change.step == .sending && !form.canSubmit)
        form.failed(LatchkeyClientError(.reauthenticationRequired), language: .en)
        #expect(form.change.step == .needsCurrentPassword(
            "To continue, please confirm it is you: enter your current password or sign in again."))
        #expect(form.change.asksForCurrentPassword && !form.canSubmit)
        form.setCurrentPassword("correct horse battery staple")
        let second = form.submit()
        #expect(second?.currentPassword?.exposed == "correct horse battery staple")
        form.failed(LatchkeyClientError(.invalidCredentials), language: .en)  // a wrong one: typed again
        #expect(form.change.step == .needsCurrentPassword("The email address or password is not correct."))
        #expect(form.change.currentPassword.exposed.isEmpty && !form.canSubmit)
        form.setCurrentPassword("correct horse battery staple")
        _ = form.submit()
        form.failed(LatchkeyClientError(.weakPassword, reasons: ["too_weak"]), language: .en)
        #expect(form.refusedReasons == ["too_weak"])
        guard case .failed = form.change.step else { Issue.record("\(form.change.step)"); return }
        form.setNewPassword("another longer phrase entirely")
        #expect(form.refusedReasons.isEmpty && form.canSubmit)
        _ = form.submit()
        form.saved()
        #expect(form.change.step == .done)
        #expect(form.newPassword.exposed.isEmpty && form.change.currentPassword.exposed.isEmpty && !form.canSubmit)
    }

    @Test("change address: a plausible address; a failure other than re-authentication may be sent again")
    func changeEmail() {
        var form = ChangeEmailForm()
        form.newEmail = "jane@new"
        let refused = form.submit()
        #expect(refused == nil)
        form.newEmail = "jane@new.example"
        let first = form.submit()
        #expect(first?.newEmail == "jane@new.example" && first?.currentPassword == nil)
        form.failed(LatchkeyClientError(.rateLimited), language: .en)
        #expect(form.change.step == .failed("Too many attempts. Please wait a moment and try again."))
        #expect(form.canSubmit)
        _ = form.submit()
        form.sent()
        #expect(form.change.step == .done && !form.canSubmit)
    }

    @Test("delete account: confirmed first, the password when asked, done once; an offline failure may be confirmed again")
    func deleteAccount() {
        var flow = DeleteAccountFlow()
        #expect(flow.change.step == .editing && flow.canSubmit)
        let confirmed = flow.confirm()
        let twice = flow.confirm()
        #expect(confirmed && !twice)  // the second tap: already on its way
        flow.failed(LatchkeyClientError(.reauthenticationRequired), language: .es)
        #expect(!flow.canSubmit)
        flow.setCurrentPassword("correct horse battery staple")
        let withPassword = flow.confirm()
        #expect(withPassword)
        #expect(flow.change.currentPasswordToSend?.exposed == "correct horse battery staple")
        flow.failed(LatchkeyClientError(.networkUnavailable), language: .en)
        #expect(flow.canSubmit && flow.change.currentPasswordToSend != nil)
        let again = flow.confirm()
        #expect(again)
        flow.deleted()
        #expect(flow.change.step == .done && flow.change.currentPasswordToSend == nil && !flow.canSubmit)
    }

    @Test("the account screen keeps what it showed when a reload fails, and names devices in words")
    func accountScreen() {
        var screen = AccountScreen()
        #expect(screen.step == .loading)
        let account = UserAccount(id: "u1", email: "jane@example.com", emailVerified: true, status: "active", language: "en")
        let device = SignedInDevice(
            id: "l1", clientID: nil, signedInAt: Date(timeIntervalSince1970: 0), lastUsedAt: Date(timeIntervalSince1970: 86_400),
            ip: nil, userAgent: "Safari on iOS", isCurrent: true)
        screen.loaded(account, devices: [device])
        #expect(screen.step == .loaded && screen.account == account && screen.devices == [device])
        screen.loadFailed(LatchkeyClientError(.networkUnavailable), language: .en)
        guard case .failed = screen.step else { Issue.record("\(screen.step)"); return }
        #expect(screen.account == account)
        let summary = screen.summary(of: device, locale: Locale(identifier: "en_US"))
        #expect(summary.hasPrefix("Safari on iOS, last used Jan 2, 1970") && summary.hasSuffix("(this device)"))
        screen.deviceSignOutFailed(LatchkeyClientError(.serverUnavailable), language: .en)
        #expect(screen.deviceError == "The service is not available right now. Please try again later.")
    }

    @Test("the sign-in form: sendable only when plausible; wrong credentials clear the password, a network error keeps it")
    func signInForm() {
        var form = SignInForm()
        form.email = "jane@example"
        form.setPassword("secret")
        #expect(!form.canSubmit)
        form.email = "jane@example.com"
        let accepted4 = form.submit()
        #expect(accepted4)
        let accepted5 = form.submit()
        #expect(!accepted5)  // already sending
        form.failed(LatchkeyClientError(.networkUnavailable, reasons: ["offline"]), language: .en)
        #expect(form.password.exposed == "secret")
        let accepted6 = form.submit()
        #expect(accepted6)
        form.failed(LatchkeyClientError(.invalidCredentials), language: .en)
        #expect(form.password.exposed.isEmpty)
        #expect(form.step == .failed("The email address or password is not correct."))
        form.setPassword("again")
        let accepted7 = form.submit()
        #expect(accepted7)
        form.succeeded()
        #expect(form == SignInForm())
    }

    @Test("the forgot-password form says the same for every address once sent")
    func forgotPassword() {
        var form = ForgotPasswordForm(email: " nobody@example.com ")
        let accepted8 = form.submit()
        #expect(accepted8)
        form.sent()
        #expect(form.step == .sent(email: "nobody@example.com"))
        var invalid = ForgotPasswordForm(email: "not an address")
        let submitted = invalid.submit()
        #expect(!submitted)
        #expect(invalid.step == .editing)
    }
}
