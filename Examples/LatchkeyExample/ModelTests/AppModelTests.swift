import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LatchkeyClient
import LatchkeyExampleModel
import Testing

/// Answers every request as a device with no route to the server does
/// (`URLError.cannotConnectToHost`), in Foundation alone, so these tests are the same on
/// Linux and in the iOS Simulator.
final class UnreachableServer: URLProtocol {
    /// A session whose every request fails that way.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [UnreachableServer.self]
        return URLSession(configuration: configuration)
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: [String] = []

    /// The paths requested so far (every test's).
    static var requested: [String] {
        lock.lock()
        defer { lock.unlock() }
        return paths
    }

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        Self.lock.lock()
        Self.paths.append(request.url?.path ?? "")
        Self.lock.unlock()
        client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
    }
    override func stopLoading() {}
}

/// The sample app's model with the real SDK, against a server that cannot be reached (the
/// paths a person meets offline) and in-memory stores.
@MainActor
@Suite struct AppModelTests {
    /// A model whose store is in memory.
    static func model(signedIn: StoredTokens? = nil, gate: @escaping @Sendable () async throws -> Void = {}) throws -> (AppModel, Stores) {
        let stores = Stores(plain: InMemoryTokenStore(signedIn))
        let model = try AppModel(
            configuration: .sample, urlSession: UnreachableServer.session, language: .en, makeStore: { _ in stores.plain }, confirmIdentity: gate)
        return (model, stores)
    }

    /// A model over a session that may be behind Face ID.
    static func model(vault: FaceIDVault) throws -> AppModel {
        try AppModel(
            configuration: .sample, urlSession: UnreachableServer.session, language: .en,
            makeStore: { vault.store(requireFaceID: $0) }, confirmIdentity: {})
    }

    static let signedIn = StoredTokens(accessToken: ClientSecret("a"), refreshToken: nil, expiresAt: .distantFuture, subject: "user-2")

    struct Stores {
        let plain: InMemoryTokenStore
    }

    func waitFor(_ condition: () -> Bool) async throws {
        for _ in 0..<400 where !condition() { try await Task.sleep(nanoseconds: 5_000_000) }
    }

    @Test("the model follows the session's state from the first event")
    func followsState() async throws {
        let (model, _) = try Self.model(signedIn: StoredTokens(accessToken: ClientSecret("a"), refreshToken: nil, expiresAt: .distantFuture, subject: "user-1"))
        #expect(model.sessionState == nil)
        model.start()
        try await waitFor { model.sessionState != nil }
        #expect(model.sessionState == .signedIn(subject: "user-1"))
    }

    @Test("a reset link opens the reset screen; offline, its check fails with a retry; other links change nothing")
    func resetLinkOffline() async throws {
        let (model, _) = try Self.model()
        await model.open(URL(string: "com.example.latchkey:/oauth?code=c&state=s")!)
        #expect(model.reset == nil)
        await model.open(URL(string: "https://auth.example.com/reset-password#token=\(FlowTests.token)")!)
        guard case .failed(let message, let retry) = model.reset?.step else { Issue.record("\(String(describing: model.reset?.step))"); return }
        #expect(message.hasPrefix("The service could not be reached."))
        #expect(retry == .checkingLink)
        await model.retryReset()
        guard case .failed = model.reset?.step else { Issue.record("retry did not check again"); return }
        model.closeReset()
        #expect(model.reset == nil)
        await model.open(URL(string: "https://auth.example.com/reset-password#token=x")!)
        guard case .linkUnusable = model.reset?.step else { Issue.record("broken link not reported"); return }
    }

    @Test("the sign-in form's code step: the password is dropped, a wrong code asks again, another failure starts over")
    func signInCodeStep() {
        var form = SignInForm()
        form.email = "jane@example.com"
        form.setPassword("correct horse battery staple")
        let submitted = form.submit()
        #expect(submitted)
        form.codeNeeded()
        #expect(form.step == .needsCode(nil) && form.password.exposed.isEmpty)
        #expect(!form.canSubmitCode)
        form.setCode("  ")
        #expect(!form.canSubmitCode)
        form.setCode("123456")
        let sent = form.submitCode()
        let again = form.submitCode()
        #expect(sent && form.step == .verifyingCode && !again)
        form.codeFailed(LatchkeyClientError(.invalidOTP), language: .pt)
        guard case .needsCode(let message?) = form.step else { Issue.record("not asked again"); return }
        #expect(message.contains("códigos de recuperação") && form.code.exposed.isEmpty)
        form.setCode("7KQ2-M9XD-C4RT")
        let recovery = form.submitCode()
        #expect(recovery)
        form.codeFailed(LatchkeyClientError(.invalidCredentials), language: .en)
        guard case .failed = form.step else { Issue.record("did not start over"); return }
    }

    @Test("Two-step sign-in offline: each request fails in words and the screen can go back; closing the account closes it")
    func twoStepOffline() async throws {
        let (model, _) = try Self.model(signedIn: Self.signedIn)
        model.showTwoStepSetup()
        await model.generateTwoStepSecret()
        #expect(model.twoStepSetup?.step == .editing, "nothing is sent without a password")
        model.setTwoStepPassword("correct horse battery staple")
        await model.generateTwoStepSecret()
        guard case .failed(let message) = model.twoStepSetup?.step else { Issue.record("not failed"); return }
        #expect(message.hasPrefix("The service could not be reached."))
        model.retryTwoStep()
        #expect(model.twoStepSetup?.step == .editing)
        model.setTwoStepCode("123456")
        await model.disableTwoStep()
        guard case .failed = model.twoStepSetup?.step else { Issue.record("not failed"); return }
        #expect(model.twoStepSetup?.code.exposed.isEmpty == true)
        await model.showAccount()
        model.closeAccount()
        #expect(model.twoStepSetup == nil)
    }

    @Test("sign-in and forgot-password forms report offline failures in the person's words; nothing is stored")
    func formsOffline() async throws {
        let (model, stores) = try Self.model()
        model.signIn.email = "jane@example.com"
        model.signIn.setPassword("correct horse battery staple")
        await model.signInWithPassword()
        #expect(model.signIn.step == .failed("The service could not be reached. Please check your internet connection and try again."))
        #expect(stores.plain.load() == nil)

        model.showForgotPassword()
        #expect(model.forgotPassword?.email == "jane@example.com")
        await model.sendResetLink()
        guard case .failed = model.forgotPassword?.step else { Issue.record("not failed"); return }
        model.closeForgotPassword()
        #expect(model.forgotPassword == nil)

        var presented = false
        await model.signInWithBrowser { _ in
            presented = true
            return URL(string: "com.example.latchkey:/oauth")!
        }
        #expect(!presented)  // discovery failed first
        #expect(model.browserSignInError?.hasPrefix("The service could not be reached.") == true)
    }

    @Test("Create account starts from the address typed on the sign-in form and reports an offline failure in words")
    func signUpOffline() async throws {
        let (model, stores) = try Self.model()
        model.signIn.email = "jane@example.com"
        model.showSignUp()
        #expect(model.signUp?.email == "jane@example.com")
        await model.createAccount()  // no password yet: nothing is sent
        #expect(model.signUp?.step == .editing)
        model.signUp?.setPassword("violet tractor quietly juggles")
        let before = UnreachableServer.requested.filter { $0 == "/users/register" }.count
        await model.createAccount()
        #expect(UnreachableServer.requested.filter { $0 == "/users/register" }.count == before + 1)
        #expect(model.signUp?.step == .failed("The service could not be reached. Please check your internet connection and try again."))
        #expect(model.signUp?.password.exposed == "violet tractor quietly juggles")
        #expect(stores.plain.load() == nil)
        model.closeSignUp()
        #expect(model.signUp == nil)
    }

    @Test("a sign-up's link opens its screen and is used at once; offline it can be retried; a damaged one says why")
    func emailLinkOffline() async throws {
        let (model, _) = try Self.model()
        await model.open(URL(string: "https://auth.example.com/verify-email#token=\(FlowTests.token)")!)
        #expect(model.emailLink?.kind == .verifyEmail)
        #expect(model.reset == nil)
        guard case .failed = model.emailLink?.step else { Issue.record("\(String(describing: model.emailLink?.step))"); return }
        let before = UnreachableServer.requested.filter { $0 == "/users/register/verify-email" }.count
        await model.retryEmailLink()
        #expect(UnreachableServer.requested.filter { $0 == "/users/register/verify-email" }.count == before + 1)
        model.closeEmailLink()
        #expect(model.emailLink == nil)
        await model.open(URL(string: "com.example.latchkey://undo-email-change#token=short")!)
        #expect(model.emailLink?.kind == .undoEmailChange)
        #expect(model.emailLink?.step == .unusable("This link cannot be used. Please open the latest link from your email."))
        await model.retryEmailLink()  // nothing to retry
        #expect(model.emailLink?.step == .unusable("This link cannot be used. Please open the latest link from your email."))
    }

    @Test("the Account screen offline: loading fails in words; each change reports its failure; closing clears every form")
    func accountOffline() async throws {
        let (model, _) = try Self.model(signedIn: Self.signedIn)
        model.start()
        try await waitFor { model.sessionState != nil }
        await model.showAccount()
        #expect(model.account?.step == .failed("The service could not be reached. Please check your internet connection and try again."))
        model.showChangePassword()
        model.setNewPassword(forChange: "violet tractor quietly juggles")
        await model.submitPasswordChange()
        guard case .failed = model.changePassword?.change.step else { Issue.record("\(String(describing: model.changePassword))"); return }
        model.showChangeEmail()
        model.changeEmail?.newEmail = "jane.new@example.com"
        await model.submitEmailChange()
        guard case .failed = model.changeEmail?.change.step else { Issue.record("\(String(describing: model.changeEmail))"); return }
        model.showDeleteAccount()
        await model.confirmDeleteAccount()
        guard case .failed = model.deleteAccount?.change.step else { Issue.record("\(String(describing: model.deleteAccount))"); return }
        #expect(model.sessionState == .signedIn(subject: "user-2"))  // nothing was deleted
        #expect(!model.accountDeleted)
        model.closeAccount()
        #expect(model.account == nil && model.changePassword == nil && model.changeEmail == nil && model.deleteAccount == nil)
    }

    @Test("Face ID is asked for once per launch or return from the background, never again after a cancel by itself")
    func noFaceIDLoop() async throws {
        let vault = FaceIDVault(tokens: Self.signedIn, protected: true)
        let model = try Self.model(vault: vault)
        model.start()
        try await waitFor { model.sessionState != nil }
        #expect(model.sessionState == .unavailable(LatchkeyClientError(.userAuthenticationRequired)))
        #expect(vault.prompts == 0)  // following the session asks nothing
        vault.answerPrompts(pass: false)
        await model.sceneBecameActive()  // launch: asks once; the person cancels
        #expect(vault.prompts == 1)
        #expect(model.unlockError == "We could not confirm it is you. Please try again.")
        // The Face ID sheet made the scene inactive and active again: no second prompt.
        await model.sceneBecameActive()
        await model.sceneBecameActive()
        await model.deviceUnlocked()
        #expect(vault.prompts == 1)
        #expect(model.sessionState == .unavailable(LatchkeyClientError(.userAuthenticationRequired)))
        vault.answerPrompts(pass: true)
        await model.unlock()  // the button
        #expect(vault.prompts == 2)
        #expect(model.sessionState == .signedIn(subject: "user-2"))
        #expect(model.requireFaceID)
        model.sceneEnteredBackground()
        await model.sceneBecameActive()  // back from the background: once more
        #expect(vault.prompts == 3)
        #expect(model.sessionState == .signedIn(subject: "user-2"))
        await model.sceneBecameActive()
        #expect(vault.prompts == 3)
    }

    @Test("making the model reads nothing, so a link that opens the app from cold is shown before anything else is known")
    func coldLaunchLink() async throws {
        let vault = FaceIDVault(tokens: Self.signedIn, protected: true)
        let model = try Self.model(vault: vault)
        #expect(vault.reads == 0)
        #expect(model.sessionState == nil)
        await model.open(URL(string: "https://auth.example.com/reset-password#token=\(FlowTests.token)")!)
        #expect(model.reset?.token == ClientSecret(FlowTests.token))
        #expect(vault.prompts == 0)
    }

    @Test("Require Face ID shows the stored protection; a device without a passcode keeps it off and says why")
    func requireFaceID() async throws {
        let vault = FaceIDVault(tokens: Self.signedIn)
        let model = try Self.model(vault: vault)
        model.start()
        try await waitFor { model.sessionState != nil }
        #expect(!model.requireFaceID)
        vault.setPasscode(false)
        await model.setRequireFaceID(true)
        #expect(!model.requireFaceID)
        #expect(!vault.isProtected)
        #expect(model.faceIDSettingError?.isEmpty == false)
        vault.setPasscode(true)
        await model.setRequireFaceID(true)
        #expect(model.requireFaceID && vault.isProtected)
        #expect(model.faceIDSettingError == nil)
        #expect(vault.prompts == 0)  // stronger: nothing to ask
        model.sceneEnteredBackground()
        await model.setRequireFaceID(false)  // weaker, asked for: Face ID once, to read it
        #expect(!model.requireFaceID && !vault.isProtected)
        #expect(vault.prompts == 1)
    }

    @Test("signing out of a locked Face ID session asks nothing")
    func signOutWhileLocked() async throws {
        let vault = FaceIDVault(tokens: Self.signedIn, protected: true)
        let model = try Self.model(vault: vault)
        model.start()
        try await waitFor { model.sessionState != nil }
        await model.signOut()
        #expect(model.sessionState == .signedOut)
        #expect(vault.prompts == 0)
    }

    @Test("against make run on the loopback: the scheme's reset links open the app, http ones do not")
    func localDevelopment() throws {
        let router = LinkRouter(configuration: .localDevelopment)
        guard case .open = router.route(URL(string: "com.example.latchkey://reset-password#token=\(FlowTests.token)")!) else {
            Issue.record("the custom-scheme link was not routed")
            return
        }
        #expect(router.route(URL(string: "http://127.0.0.1:8080/reset-password#token=\(FlowTests.token)")!) == .ignore)
    }

    @Test("a second tap on the browser sign-in while one runs does nothing")
    func browserDoubleTap() async throws {
        let (model, _) = try Self.model()
        let before = UnreachableServer.requested.filter { $0.hasSuffix("oauth-authorization-server") }.count
        async let first: Void = model.signInWithBrowser { _ in URL(string: "com.example.latchkey:/oauth")! }
        async let second: Void = model.signInWithBrowser { _ in URL(string: "com.example.latchkey:/oauth")! }
        _ = await (first, second)
        #expect(UnreachableServer.requested.filter { $0.hasSuffix("oauth-authorization-server") }.count == before + 1)
        #expect(!model.isSigningInWithBrowser)
    }

    @Test("a session ended by a biometric change shows the sign-in screen with why, and signing out clears it")
    func signedOutNotice() async throws {
        let vault = FaceIDVault(tokens: Self.signedIn, protected: true)
        vault.enrollAnotherFace()
        let model = try Self.model(vault: vault)
        model.start()
        try await waitFor { model.sessionState != nil }
        #expect(model.signedOutNotice == "You have been signed out. Please sign in again. Face ID or Touch ID changed on this device since you signed in.")
        await model.sceneBecameActive()
        #expect(vault.prompts == 0)
        await model.signOut()
        #expect(model.sessionState == .signedOut)
        #expect(model.signedOutNotice == nil)
    }
}
