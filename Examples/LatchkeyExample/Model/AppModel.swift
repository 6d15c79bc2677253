public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif
public import LatchkeyClient
public import Observation

/// The sample app's state and everything it does, with the SDK: the views only show it
/// and call it. Platform pieces are passed in — the Keychain store, the background
/// activity, the Face ID gate and the browser sheet — so this type builds and is tested
/// on Linux.
@MainActor
@Observable
public final class AppModel {
    /// The result of the home screen's API call.
    public enum APICall: Equatable, Sendable {
        /// Not made yet.
        case idle
        /// On its way.
        case loading
        /// The API answered: status and body.
        case answered(status: Int, body: String)
        /// The call failed; the message says why.
        case failed(String)
    }

    /// Whether the session holds a sign-in (``AuthSessionState``); nil until it was read.
    public private(set) var sessionState: AuthSessionState?
    /// The password sign-in form.
    public var signIn = SignInForm()
    /// The "forgot password" form, while shown.
    public var forgotPassword: ForgotPasswordForm?
    /// The reset screen, while shown (opened by a reset link).
    public private(set) var reset: ResetFlow?
    /// A message from the browser sign-in, if it failed.
    public private(set) var browserSignInError: String?
    /// The home screen's API call.
    public private(set) var apiCall = APICall.idle
    /// Whether reading the session needs Face ID (the "Require Face ID" setting).
    public private(set) var requireFaceID: Bool

    /// The language of every message.
    public let language: ClientLanguage
    /// The configuration in use.
    public let configuration: ExampleConfiguration

    @ObservationIgnored private let router: LinkRouter
    @ObservationIgnored private let recovery: PasswordRecovery
    @ObservationIgnored private let login: FirstPartyLogin
    @ObservationIgnored private let oauth: OAuthClient
    @ObservationIgnored private let urlSession: URLSession
    @ObservationIgnored private let makeStore: (_ requireFaceID: Bool) throws -> any TokenStore
    @ObservationIgnored private let backgroundActivity: (any BackgroundActivity)?
    @ObservationIgnored private let confirmIdentity: @Sendable () async throws -> Void
    @ObservationIgnored private(set) var session: AuthSession
    @ObservationIgnored private var following: Task<Void, Never>?

    /// A model for `configuration`.
    ///
    /// - Parameters:
    ///   - urlSession: the session every request uses (a pinned one: ``PinnedSessionDelegate``).
    ///   - requireFaceID: the saved "Require Face ID" setting.
    ///   - makeStore: the token store for a setting (the Keychain store on a device).
    ///   - backgroundActivity: ``ApplicationBackgroundTask`` on iOS.
    ///   - confirmIdentity: the Face ID gate run before a new password is set
    ///     (``BiometricGate/authenticate()`` on a device).
    /// - Throws: what `makeStore` throws.
    public init(
        configuration: ExampleConfiguration, urlSession: URLSession = .shared, requireFaceID: Bool,
        language: ClientLanguage = ClientLanguage(preferredLanguages: Locale.preferredLanguages),
        makeStore: @escaping (_ requireFaceID: Bool) throws -> any TokenStore,
        backgroundActivity: (any BackgroundActivity)? = nil,
        confirmIdentity: @escaping @Sendable () async throws -> Void
    ) throws {
        self.configuration = configuration
        self.urlSession = urlSession
        self.requireFaceID = requireFaceID
        self.language = language
        self.makeStore = makeStore
        self.backgroundActivity = backgroundActivity
        self.confirmIdentity = confirmIdentity
        router = LinkRouter(configuration: configuration)
        recovery = PasswordRecovery(baseURL: configuration.issuer, locale: language.rawValue, session: urlSession)
        login = FirstPartyLogin(baseURL: configuration.issuer, session: urlSession)
        oauth = OAuthClient(issuer: configuration.issuer, clientID: configuration.clientID, scopes: ["openid", "email"], session: urlSession)
        session = Self.makeSession(
            store: try makeStore(requireFaceID), oauth: oauth, login: login, urlSession: urlSession,
            backgroundActivity: backgroundActivity)
    }

    /// Follows the session's events (call from the root view's `.task`); the first one
    /// is the current state.
    public func start() {
        following?.cancel()
        let session = self.session
        following = Task { [weak self] in
            for await event in await session.events() {
                guard let self, session === self.session else { return }
                self.apply(event)
            }
        }
    }

    /// Opens a URL the app was given (`onOpenURL`, `onContinueUserActivity`): a reset
    /// link shows the reset screen and checks the link; other URLs are ignored.
    public func open(_ url: URL) async {
        switch router.route(url) {
        case .ignore:
            return
        case .unusableResetLink(let error):
            reset = ResetFlow(unusable: error, language: language)
        case .resetPassword(let link):
            reset = ResetFlow(link: link)
            await checkResetLink()
        }
    }

    /// Checks the reset link with the server (again, after a failure).
    public func checkResetLink() async {
        guard let token = reset?.token, reset?.step == .checkingLink else { return }
        do {
            let status = try await recovery.validate(token: token)
            reset?.linkChecked(status)
        } catch {
            reset?.linkCheckFailed(Self.clientError(error), language: language)
        }
    }

    /// Replaces the password typed on the reset screen.
    public func setNewPassword(_ text: String) {
        reset?.setPassword(text)
    }

    /// Confirms the owner with Face ID, then sets the new password; the local session (if
    /// any) ends with it.
    public func submitNewPassword() async {
        guard reset?.submit() == true else { return }
        do {
            try await confirmIdentity()
            reset?.identityConfirmed()
        } catch {
            reset?.identityCheckFailed(Self.clientError(error), language: language)
            return
        }
        await saveNewPassword()
    }

    /// Retries the step the reset screen's failure allows.
    public func retryReset() async {
        reset?.retry()
        switch reset?.step {
        case .checkingLink: await checkResetLink()
        case .saving: await saveNewPassword()
        default: break
        }
    }

    /// Closes the reset screen.
    public func closeReset() {
        reset = nil
    }

    /// Signs in with the form's email and password (first-party login).
    public func signInWithPassword() async {
        guard signIn.submit() else { return }
        do {
            let tokens = try await login.signIn(email: signIn.email, password: signIn.password)
            try await session.signIn(tokens)
            signIn.succeeded()
        } catch {
            signIn.failed(Self.clientError(error), language: language)
        }
    }

    /// Signs in through the browser (OAuth with PKCE): `present` shows the request and
    /// returns the callback URL (`webAuthenticationSession.callbackURL(for:)` in SwiftUI).
    public func signInWithBrowser(present: (AuthorizationRequest) async throws -> URL) async {
        browserSignInError = nil
        do {
            let metadata = try await oauth.discover()
            let request = try oauth.makeAuthorizationRequest(metadata: metadata, redirectURI: configuration.redirectURI)
            let response = try await oauth.completeSignIn(callback: try await present(request), for: request)
            try await session.signIn(oauth.storedTokens(response, for: request))
        } catch is CancellationError {
            return
        } catch let error as LatchkeyClientError where error.code == .signInCancelled {
            return
        } catch {
            browserSignInError = Self.clientError(error).message(for: language)
        }
    }

    /// Shows the "forgot password" form, with the address typed so far.
    public func showForgotPassword() {
        forgotPassword = ForgotPasswordForm(email: signIn.email)
    }

    /// Closes the "forgot password" form.
    public func closeForgotPassword() {
        forgotPassword = nil
    }

    /// Asks for a reset link for the form's address.
    public func sendResetLink() async {
        guard let email = forgotPassword?.email, forgotPassword?.submit() == true else { return }
        do {
            try await recovery.requestReset(email: email)
            forgotPassword?.sent()
        } catch {
            forgotPassword?.failed(Self.clientError(error), language: language)
        }
    }

    /// Calls the API with the session's access token (refreshed when needed).
    public func callAPI() async {
        apiCall = .loading
        do {
            let (data, response) = try await session.data(for: URLRequest(url: configuration.apiURL))
            apiCall = .answered(status: response.statusCode, body: String(decoding: data.prefix(4096), as: UTF8.self))
        } catch {
            apiCall = .failed(Self.clientError(error).message(for: language))
        }
    }

    /// Signs out (the tokens go even if the server cannot be reached).
    public func signOut() async {
        do {
            try await session.signOut()
        } catch {
            browserSignInError = Self.clientError(error).message(for: language)
        }
        apiCall = .idle
    }

    /// Turns "Require Face ID" on or off: a new store with the new protection, whose
    /// first read rewrites the stored session with it (asking for Face ID once when it
    /// was on), and a new session over it.
    public func setRequireFaceID(_ on: Bool) throws {
        guard on != requireFaceID else { return }
        session = Self.makeSession(
            store: try makeStore(on), oauth: oauth, login: login, urlSession: urlSession, backgroundActivity: backgroundActivity)
        requireFaceID = on
        start()
    }

    /// Saves tokens a refresh kept in memory (call when protected data becomes available
    /// again, and when the app returns to the foreground).
    public func deviceUnlocked() async {
        await session.saveUnsavedTokens()
        sessionState = await session.state()
    }

    private func saveNewPassword() async {
        guard let reset, reset.step == .saving else { return }
        do {
            try await session.completePasswordReset(recovery, token: reset.token, newPassword: reset.password)
            self.reset?.saved()
        } catch {
            self.reset?.saveFailed(Self.clientError(error), language: language)
        }
    }

    private func apply(_ event: AuthSessionEvent) {
        switch event {
        case .current(let state): sessionState = state
        case .signedIn, .refreshed: Task { self.sessionState = await self.session.state() }
        case .signedOut, .passwordRecovered:
            sessionState = .signedOut
            apiCall = .idle
        }
    }

    private static func makeSession(
        store: any TokenStore, oauth: OAuthClient, login: FirstPartyLogin, urlSession: URLSession,
        backgroundActivity: (any BackgroundActivity)?
    ) -> AuthSession {
        AuthSession(
            store: store, refresher: .matchingTokens(oauth: oauth, firstParty: login), urlSession: urlSession,
            backgroundActivity: backgroundActivity)
    }

    private static func clientError(_ error: any Error) -> LatchkeyClientError {
        error as? LatchkeyClientError ?? LatchkeyClientError(.unexpectedResponse)
    }
}
