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

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() { client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost)) }
    override func stopLoading() {}
}

/// The sample app's model with the real SDK, against a server that cannot be reached (the
/// paths a person meets offline) and in-memory stores.
@MainActor
@Suite struct AppModelTests {
    /// A model whose stores are in memory: one per "Require Face ID" setting.
    static func model(signedIn: StoredTokens? = nil, gate: @escaping @Sendable () async throws -> Void = {}) throws -> (AppModel, Stores) {
        let stores = Stores(plain: InMemoryTokenStore(signedIn), faceID: InMemoryTokenStore())
        let model = try AppModel(
            configuration: .sample, urlSession: UnreachableServer.session, requireFaceID: false, language: .en,
            makeStore: { $0 ? stores.faceID : stores.plain }, confirmIdentity: gate)
        return (model, stores)
    }

    struct Stores {
        let plain: InMemoryTokenStore
        let faceID: InMemoryTokenStore
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

    @Test("turning Require Face ID on moves the session to the store made for it and follows that one")
    func requireFaceID() async throws {
        let (model, stores) = try Self.model()
        model.start()
        try await waitFor { model.sessionState != nil }
        #expect(model.sessionState == .signedOut)
        stores.faceID.save(StoredTokens(accessToken: ClientSecret("a"), refreshToken: nil, expiresAt: .distantFuture, subject: "user-2"))
        try model.setRequireFaceID(true)
        #expect(model.requireFaceID)
        try await waitFor { model.sessionState == .signedIn(subject: "user-2") }
        #expect(model.sessionState == .signedIn(subject: "user-2"))
        await model.signOut()
        try await waitFor { model.sessionState == .signedOut }
        #expect(stores.faceID.load() == nil)
    }
}
