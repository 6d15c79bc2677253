import Foundation
import LatchkeyClient
import LatchkeyExampleModel
import Testing

/// The sample app's model (Examples/LatchkeyExample/Model) with the real SDK against the real
/// server binary: what a person does on its screens, from "Create account" to "Delete account".
@MainActor
@Suite struct SampleAppTests {
    static let password = "violet tractor quietly juggles mountains"

    /// The model of an app configured for `server`, whose links come through its URL scheme
    /// (as in the Simulator against `make run`), over an in-memory store.
    static func model(_ server: LatchkeyServerProcess, store: InMemoryTokenStore) throws -> AppModel {
        let configuration = ExampleConfiguration(
            issuer: server.baseURL, clientID: "ios-app", redirectURI: URL(string: "com.example.latchkey:/oauth")!,
            universalLinkHosts: [], urlScheme: "com.example.latchkey", apiURL: server.baseURL.appendingPathComponent("userinfo"))
        let model = try AppModel(configuration: configuration, language: .en, makeStore: { _ in store }, confirmIdentity: {})
        model.start()
        return model
    }

    /// The custom-scheme form of the mailed link to `path` in the newest mail to `recipient`.
    static func schemeLink(_ path: String, to recipient: String, in server: LatchkeyServerProcess) async throws -> URL {
        let mail = try #require(try await server.waitForMails(to: recipient).last)
        let link = try LatchkeyServerProcess.link(path, in: mail)
        return try #require(URL(string: "com.example.latchkey:/" + path + "#" + (link.fragment ?? "")))
    }

    func waitFor(_ condition: () -> Bool) async throws {
        for _ in 0..<400 where !condition() { try await Task.sleep(nanoseconds: 10_000_000) }
    }

    @Test("Create account, then its link opens the app and makes the account, which signs in")
    func createAccount() async throws {
        let server = try await LatchkeyServerProcess(settings: ["LATCHKEY_REGISTRATION": "open"])
        defer { server.stop() }
        let store = InMemoryTokenStore()
        let model = try Self.model(server, store: store)
        model.signIn.email = "new@example.com"
        model.showSignUp()
        model.signUp?.setPassword(Self.password)
        await model.createAccount()
        #expect(model.signUp?.step == .sent(email: "new@example.com"))
        model.closeSignUp()

        await model.open(try await Self.schemeLink("/verify-email", to: "new@example.com", in: server))
        #expect(model.emailLink?.kind == .verifyEmail && model.emailLink?.step == .done)
        model.closeEmailLink()
        model.signIn.setPassword(Self.password)
        await model.signInWithPassword()
        try await waitFor { if case .signedIn = model.sessionState { true } else { false } }
        #expect(store.load() != nil)
    }

    @Test(
        "Two-step sign-in on the Account screen: password, the secret and a code, recovery codes; then sign-in asks for the code",
        .enabled(if: ProcessInfo.processInfo.environment["LATCHKEY_TEST_PYTHON"] != nil, "pyotp computes the codes"))
    func twoStepSignIn() async throws {
        let server = try await LatchkeyServerProcess()
        defer { server.stop() }
        try server.createUser("jane@example.com")
        let store = InMemoryTokenStore()
        let model = try Self.model(server, store: store)
        model.signIn.email = "jane@example.com"
        model.signIn.setPassword(LatchkeyServerProcess.goodPassword)
        await model.signInWithPassword()
        try await waitFor { if case .signedIn = model.sessionState { true } else { false } }

        await model.showAccount()
        model.showTwoStepSetup()
        model.setTwoStepPassword(LatchkeyServerProcess.goodPassword)
        await model.generateTwoStepSecret()
        guard case .confirming(let secret) = model.twoStepSetup?.step else {
            Issue.record("no secret to confirm: \(String(describing: model.twoStepSetup?.step))")
            return
        }
        #expect(model.twoStepSetup?.password.exposed.isEmpty == true, "the password is not kept")
        model.setTwoStepCode("000000x")
        await model.enableTwoStep()
        guard case .failed = model.twoStepSetup?.step else {
            Issue.record("a wrong code was not refused")
            return
        }
        model.retryTwoStep()
        model.setTwoStepCode(try SecondFactorClientTests.code(secret.secret, steps: -1).exposed)
        await model.enableTwoStep()
        guard case .enabled(let recoveryCodes) = model.twoStepSetup?.step else {
            Issue.record("not enabled: \(String(describing: model.twoStepSetup?.step))")
            return
        }
        #expect(recoveryCodes.count == 10)
        model.closeAccount()

        await model.signOut()
        model.signIn.email = "jane@example.com"
        model.signIn.setPassword(LatchkeyServerProcess.goodPassword)
        await model.signInWithPassword()
        #expect(model.signIn.step == .needsCode(nil))
        model.signIn.setCode("123 456")
        await model.submitSignInCode()
        guard case .needsCode(let message?) = model.signIn.step else {
            Issue.record("a wrong code did not ask again: \(model.signIn.step)")
            return
        }
        #expect(message.contains("recovery codes"))
        model.signIn.setCode(recoveryCodes[0])
        await model.submitSignInCode()
        try await waitFor { if case .signedIn = model.sessionState { true } else { false } }
        #expect(model.signIn == SignInForm())
    }

    @Test("the Account screen: devices, a new password once the current one is given, Delete account signs out")
    func accountScreen() async throws {
        let server = try await LatchkeyServerProcess()
        defer { server.stop() }
        try server.createUser("jane@example.com")
        let store = InMemoryTokenStore()
        let model = try Self.model(server, store: store)
        model.signIn.email = "jane@example.com"
        model.signIn.setPassword(LatchkeyServerProcess.goodPassword)
        await model.signInWithPassword()
        try await waitFor { if case .signedIn = model.sessionState { true } else { false } }

        await model.showAccount()
        #expect(model.account?.step == .loaded)
        #expect(model.account?.account?.email == "jane@example.com")
        #expect(model.account?.devices.map(\.isCurrent) == [true])

        try server.ageSignIns()
        model.showChangePassword()
        model.setNewPassword(forChange: Self.password)
        await model.submitPasswordChange()
        #expect(model.changePassword?.change.asksForCurrentPassword == true)
        model.setCurrentPassword(forPasswordChange: LatchkeyServerProcess.goodPassword)
        await model.submitPasswordChange()
        #expect(model.changePassword?.change.step == .done)
        #expect(try server.passwordMatches("jane@example.com", Self.password))

        model.showDeleteAccount()
        await model.confirmDeleteAccount()
        #expect(model.deleteAccount?.change.asksForCurrentPassword == true)
        model.setCurrentPassword(forDeletion: Self.password)
        await model.confirmDeleteAccount()
        try await waitFor { model.sessionState == .signedOut }
        #expect(model.accountDeleted)
        #expect(model.account == nil && model.deleteAccount == nil)
        #expect(store.load() == nil)
        #expect(try !server.passwordMatches("jane@example.com", Self.password))
    }
}
