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
///
/// Making a model reads nothing (no Keychain, no file), so the app makes it in its `init`,
/// even while iOS prewarms the app before the first unlock, and a link that opens the app
/// from cold is never dropped. Face ID is asked for only by ``unlock()``: from a button, and
/// automatically at most once each time the app comes back from the background
/// (``sceneBecameActive()``) — the Face ID sheet itself makes the scene inactive and active
/// again, so asking on every activation would ask again after every cancel.
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
    /// The "Create account" form, while shown.
    public var signUp: SignUpForm?
    /// The screen of a sign-up's or an address change's link, while shown (opened by the link).
    public private(set) var emailLink: EmailLinkFlow?
    /// The Account screen, while shown.
    public private(set) var account: AccountScreen?
    /// "Change password" on the Account screen, while shown.
    public private(set) var changePassword: ChangePasswordForm?
    /// "Change address" on the Account screen, while shown.
    public var changeEmail: ChangeEmailForm?
    /// "Delete account" on the Account screen, while shown.
    public private(set) var deleteAccount: DeleteAccountFlow?
    /// "Two-step sign-in" on the Account screen, while shown.
    public private(set) var twoStepSetup: TwoStepSetup?
    /// Whether the session ended because the person deleted their account (the sign-in
    /// screen says so), until the next sign-in.
    public private(set) var accountDeleted = false
    /// The reset screen, while shown (opened by a reset link).
    public private(set) var reset: ResetFlow?
    /// A message from the browser sign-in, if it failed.
    public private(set) var browserSignInError: String?
    /// The home screen's API call.
    public private(set) var apiCall = APICall.idle
    /// Whether the saved session needs Face ID: the stored item's protection as the
    /// Keychain reports it, never a setting that may disagree with it.
    public private(set) var requireFaceID = false
    /// Why "Require Face ID" could not be changed (no passcode, no Face ID enrolled), if so.
    public private(set) var faceIDSettingError: String?
    /// Why the last ``unlock()`` did not unlock (the person cancelled), if so.
    public private(set) var unlockError: String?
    /// Whether a browser sign-in is showing.
    public private(set) var isSigningInWithBrowser = false
    /// A message from the passkey sign-in, if it failed (not when the person cancelled).
    public private(set) var passkeySignInError: String?

    /// The language of every message.
    public let language: ClientLanguage
    /// The configuration in use.
    public let configuration: ExampleConfiguration

    @ObservationIgnored private let router: LinkRouter
    @ObservationIgnored private let recovery: PasswordRecovery
    @ObservationIgnored private let registration: Registration
    @ObservationIgnored private let emailChange: EmailChangeLinks
    @ObservationIgnored private let accountClient: AccountClient
    @ObservationIgnored private let login: FirstPartyLogin
    @ObservationIgnored private let oauth: OAuthClient
    @ObservationIgnored private let makeStore: (_ requireFaceID: Bool) throws -> any TokenStore
    @ObservationIgnored private let confirmIdentity: @Sendable () async throws -> Void
    @ObservationIgnored private let store: any TokenStore
    @ObservationIgnored private let session: AuthSession
    @ObservationIgnored private let secondFactor: SecondFactorClient
    /// The passkey clients, when the configuration names a relying party.
    @ObservationIgnored private let passkeys: (signIn: PasskeySignIn, client: PasskeyClient)?
    /// The sign-in's second step, while the form asks for the code.
    @ObservationIgnored private var secondFactorChallenge: SecondFactorChallenge?
    @ObservationIgnored private var following: Task<Void, Never>?
    /// Whether the next activation may ask for Face ID by itself: at launch, and after each
    /// return from the background; spent by the first activation.
    @ObservationIgnored private var mayAskOnActivation = true

    /// A model for `configuration`; reads nothing.
    ///
    /// - Parameters:
    ///   - urlSession: the session every request uses (a pinned one: ``PinnedSessionDelegate``).
    ///   - makeStore: the token store whose options ask for Face ID or not (the Keychain
    ///     store on a device). The session uses the one without: a save keeps the stored
    ///     item's protection whatever the options say, and "Require Face ID" changes it
    ///     explicitly (``setRequireFaceID(_:)``).
    ///   - backgroundActivity: ``ApplicationBackgroundTask`` on iOS.
    ///   - confirmIdentity: the Face ID gate run before a new password is set
    ///     (``BiometricGate/authenticate()`` on a device).
    /// - Throws: what `makeStore` throws.
    public init(
        configuration: ExampleConfiguration, urlSession: URLSession = .shared,
        language: ClientLanguage = ClientLanguage(preferredLanguages: Locale.preferredLanguages),
        makeStore: @escaping (_ requireFaceID: Bool) throws -> any TokenStore,
        backgroundActivity: (any BackgroundActivity)? = nil,
        confirmIdentity: @escaping @Sendable () async throws -> Void
    ) throws {
        self.configuration = configuration
        self.language = language
        self.makeStore = makeStore
        self.confirmIdentity = confirmIdentity
        router = LinkRouter(configuration: configuration)
        recovery = PasswordRecovery(baseURL: configuration.issuer, locale: language.rawValue, session: urlSession)
        registration = Registration(baseURL: configuration.issuer, locale: language.rawValue, session: urlSession)
        emailChange = EmailChangeLinks(baseURL: configuration.issuer, session: urlSession)
        store = try makeStore(false)
        // The store keeps this device's token too (the Keychain store and the file store do):
        // sign-ins send it and keep the server's answer, and sign-out leaves it.
        let deviceTokens = store as? any DeviceTokenStore
        login = FirstPartyLogin(baseURL: configuration.issuer, session: urlSession, deviceTokens: deviceTokens)
        oauth = OAuthClient(issuer: configuration.issuer, clientID: configuration.clientID, scopes: ["openid", "email"], session: urlSession)
        session = AuthSession(
            store: store, refresher: .matchingTokens(oauth: oauth, firstParty: login), urlSession: urlSession,
            backgroundActivity: backgroundActivity)
        accountClient = AccountClient(baseURL: configuration.issuer, session: session)
        secondFactor = SecondFactorClient(baseURL: configuration.issuer, session: session)
        passkeys = try configuration.passkeyRelyingParty.map(PasskeyRelyingParty.init).map { [session] party in
            (PasskeySignIn(baseURL: configuration.issuer, relyingParty: party, session: urlSession, deviceTokens: deviceTokens),
             PasskeyClient(baseURL: configuration.issuer, relyingParty: party, session: session))
        }
    }

    /// Whether the app offers passkeys: the configuration names their relying party.
    public var offersPasskeys: Bool { passkeys != nil }

    /// Follows the session's events (call from the root view's `.task`); the first one
    /// is the current state. Never asks for Face ID.
    public func start() {
        following?.cancel()
        let session = self.session
        following = Task { [weak self] in
            for await event in await session.events() {
                guard let self else { return }
                self.apply(event)
            }
        }
    }

    /// The scene became active (at launch, after the background, after a system sheet
    /// such as Face ID's): saves tokens a refresh kept in memory and reads the state again;
    /// asks for Face ID only when this is the first activation since the launch or the
    /// background and the saved session needs it.
    public func sceneBecameActive() async {
        await deviceUnlocked()
        guard mayAskOnActivation else { return }
        mayAskOnActivation = false
        if case .unavailable(let error) = sessionState, error.code == .userAuthenticationRequired { await unlock() }
    }

    /// The scene went to the background: the next read of a Face ID session asks again
    /// (once, when the app comes back).
    public func sceneEnteredBackground() {
        (store as? any AuthenticatingTokenStore)?.requireAuthentication()
        mayAskOnActivation = true
    }

    /// Asks for Face ID (or the passcode) for the saved session: the locked screen's
    /// button. A cancel leaves the session locked, with a message, until the next tap.
    public func unlock() async {
        unlockError = nil
        do {
            try await session.authenticate()
        } catch {
            unlockError = Self.clientError(error).message(for: language)
        }
        await readState()
    }

    /// Opens a URL the app was given (`onOpenURL`, `onContinueUserActivity`): a reset
    /// link shows the reset screen and checks the link; a sign-up's or an address change's
    /// link shows its screen and is used at once; other URLs are ignored.
    public func open(_ url: URL) async {
        switch router.route(url) {
        case .ignore:
            return
        case .unusable(let kind, let error) where kind == .resetPassword:
            reset = ResetFlow(unusable: error, language: language)
        case .unusable(let kind, let error):
            emailLink = EmailLinkFlow(unusable: kind, error: error, language: language)
        case .open(let link) where link.kind == .resetPassword:
            reset = ResetFlow(link: ResetLink(token: link.token))
            await checkResetLink()
        case .open(let link):
            emailLink = EmailLinkFlow(link: link)
            await followEmailLink()
        }
    }

    /// Uses the sign-up's or address change's link (again, after a failure): a sign-up's
    /// creates the account; a new address's confirms it; an undo gives the old address back
    /// and signs every device out — this one too, when it was that account's.
    public func retryEmailLink() async {
        guard emailLink?.retry() == true else { return }
        await followEmailLink()
    }

    /// Closes the link's screen.
    public func closeEmailLink() {
        emailLink = nil
    }

    /// Shows the "Create account" form, with the address typed so far.
    public func showSignUp() {
        signUp = SignUpForm(email: signIn.email)
    }

    /// Closes the "Create account" form.
    public func closeSignUp() {
        signUp = nil
    }

    /// Sends the "Create account" form: a confirmation link goes to a new address.
    public func createAccount() async {
        guard let form = signUp, signUp?.submit() == true else { return }
        do {
            try await registration.register(email: form.email, password: form.password)
            signUp?.sent()
        } catch {
            signUp?.failed(Self.clientError(error), language: language)
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

    /// Signs in with the form's email and password (first-party login); for an account with
    /// two-step sign-in the form then asks for the code (``submitSignInCode()``).
    public func signInWithPassword() async {
        guard signIn.submit() else { return }
        do {
            switch try await login.beginSignIn(email: signIn.email, password: signIn.password) {
            case .signedIn(let tokens):
                try await session.signIn(tokens)
                signIn.succeeded()
            case .secondFactorRequired(let challenge):
                secondFactorChallenge = challenge
                signIn.codeNeeded()
            }
        } catch {
            signIn.failed(Self.clientError(error), language: language)
        }
    }

    /// Sends the code typed at the sign-in's second step: signed in, or asked again.
    public func submitSignInCode() async {
        guard let challenge = secondFactorChallenge, signIn.submitCode() else { return }
        do {
            try await session.signIn(try await challenge.complete(code: signIn.code))
            secondFactorChallenge = nil
            signIn.succeeded()
        } catch {
            let failure = Self.clientError(error)
            signIn.codeFailed(failure, language: language)
            if case .failed = signIn.step { secondFactorChallenge = nil }
        }
    }

    /// Leaves the sign-in's second step: the form starts over.
    public func cancelSignInCode() {
        secondFactorChallenge = nil
        signIn = SignInForm()
    }

    /// Signs in through the browser (OAuth with PKCE): `present` shows the request and
    /// returns the callback URL (`webAuthenticationSession.callbackURL(for:)` in SwiftUI,
    /// which refuses a second sheet). A second tap while a sign-in runs does nothing.
    public func signInWithBrowser(present: (AuthorizationRequest) async throws -> URL) async {
        guard !isSigningInWithBrowser else { return }
        isSigningInWithBrowser = true
        defer { isSigningInWithBrowser = false }
        browserSignInError = nil
        do {
            let metadata = try await oauth.discover()
            let request = try oauth.makeAuthorizationRequest(metadata: metadata, redirectURI: configuration.redirectURI)
            let response = try await oauth.completeSignIn(callback: try await present(request), for: request)
            try await session.signIn(oauth.storedTokens(response, for: request))
        } catch is CancellationError {
            return
        } catch let error as LatchkeyClientError where error.code == .signInCancelled || error.reasons == ["sign_in_in_progress"] {
            return
        } catch {
            browserSignInError = Self.clientError(error).message(for: language)
        }
    }

    /// Signs in with a passkey, no address typed: `present` shows the system's request and
    /// returns the passkey's answer (``PasskeyAuthorization/signIn(_:)`` from the button, or
    /// ``PasskeyAuthorization/autoFill(_:)`` while the form shows; the button's sheet withdraws
    /// the waiting AutoFill request, ``PasskeyAuthorizationFlow``'s rule). A cancelled or
    /// withdrawn request shows nothing.
    public func signInWithPasskey(present: (PasskeyAssertionRequest) async throws -> PasskeyAssertion) async {
        guard let passkeys else { return }
        passkeySignInError = nil
        do {
            let assertion = try await present(try await passkeys.signIn.authenticationOptions())
            try await session.signIn(try await passkeys.signIn.signIn(with: assertion))
            signIn = SignInForm()
            accountDeleted = false
        } catch is CancellationError {
            return
        } catch let error as LatchkeyClientError where error.code == .passkeyCancelled {
            return
        } catch {
            passkeySignInError = Self.clientError(error).message(for: language)
        }
    }

    /// The automatic passkey upgrade (iOS 18), right after a password sign-in: `present` asks
    /// the credential manager to add a passkey without a sheet
    /// (``PasskeyAuthorization/upgrade(_:)``). Whatever goes wrong — the manager declined, the
    /// sign-in is not recent enough — is ignored: the next password sign-in tries again.
    public func upgradeToPasskey(present: (PasskeyRegistrationRequest) async throws -> PasskeyRegistration) async {
        guard let passkeys else { return }
        _ = try? await passkeys.client.finishRegistration(try await present(try await passkeys.client.registrationOptions()))
    }

    /// "Add a passkey" on the Account screen: `present` shows the system's sheet
    /// (``PasskeyAuthorization/register(_:)``). A sign-in older than five minutes is asked to
    /// sign in again (the message says so), as the other account changes.
    public func addPasskey(present: (PasskeyRegistrationRequest) async throws -> PasskeyRegistration) async {
        guard let passkeys, account?.startAddingPasskey() == true else { return }
        do {
            let registration = try await present(try await passkeys.client.registrationOptions())
            account?.passkeyAdded(.success(try await passkeys.client.finishRegistration(registration)), language: language)
        } catch {
            account?.passkeyAdded(.failure(Self.clientError(error)), language: language)
        }
    }

    /// Removes `passkey` from the account; the server refuses the last way to sign in.
    public func deletePasskey(_ passkey: Passkey) async {
        do {
            try await accountClient.deletePasskey(passkey)
            account?.passkeyRemoved(passkey)
        } catch {
            account?.passkeyFailed(Self.clientError(error), language: language)
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

    /// Shows the Account screen and reads the account and its devices.
    public func showAccount() async {
        account = AccountScreen()
        await reloadAccount()
    }

    /// Reads the account and its devices again.
    public func reloadAccount() async {
        guard account != nil else { return }
        do {
            async let user = accountClient.current()
            async let devices = accountClient.devices()
            let (loadedUser, loadedDevices) = try await (user, devices)
            account?.loaded(loadedUser, devices: loadedDevices)
            if offersPasskeys { account?.passkeysLoaded(try await accountClient.passkeys()) }
        } catch {
            account?.loadFailed(Self.clientError(error), language: language)
        }
    }

    /// Closes the Account screen and its forms.
    public func closeAccount() {
        account = nil
        changePassword = nil
        changeEmail = nil
        deleteAccount = nil
        twoStepSetup = nil
    }

    /// Shows "Two-step sign-in" on the Account screen.
    public func showTwoStepSetup() {
        twoStepSetup = TwoStepSetup()
    }

    /// Closes "Two-step sign-in"; a secret not confirmed expires on the server.
    public func closeTwoStepSetup() {
        twoStepSetup = nil
    }

    /// Replaces the password typed on "Two-step sign-in".
    public func setTwoStepPassword(_ text: String) {
        twoStepSetup?.setPassword(text)
    }

    /// Replaces the code typed on "Two-step sign-in".
    public func setTwoStepCode(_ text: String) {
        twoStepSetup?.setCode(text)
    }

    /// Asks the server for a new secret, with the password typed.
    public func generateTwoStepSecret() async {
        guard let password = twoStepSetup?.password, twoStepSetup?.start(needsPassword: true) == true else { return }
        do {
            twoStepSetup?.generated(try await secondFactor.generate(password: password))
        } catch {
            twoStepSetup?.failed(Self.clientError(error), language: language)
        }
    }

    /// Turns two-step sign-in on with the code typed, for the secret shown.
    public func enableTwoStep() async {
        guard let setup = twoStepSetup, let secret = setup.secret, twoStepSetup?.start(needsPassword: false) == true else { return }
        do {
            twoStepSetup?.enabled(try await secondFactor.enable(secret, code: setup.code))
        } catch {
            twoStepSetup?.failed(Self.clientError(error), language: language)
        }
    }

    /// Back from a failure on "Two-step sign-in" to the step before it.
    public func retryTwoStep() {
        twoStepSetup?.retry()
    }

    /// Turns two-step sign-in off with the code typed (from the app, or a recovery code).
    public func disableTwoStep() async {
        guard let code = twoStepSetup?.code, twoStepSetup?.start(needsPassword: false) == true else { return }
        do {
            try await secondFactor.disable(code: code)
            twoStepSetup?.disabled()
        } catch {
            twoStepSetup?.failed(Self.clientError(error), language: language)
        }
    }

    /// Signs `device` out ("sign out this device"): another device's tokens stop at once;
    /// for this device it is ``signOut()``.
    public func signOut(device: SignedInDevice) async {
        do {
            try await accountClient.signOut(device: device)
            await reloadAccount()
        } catch {
            account?.deviceSignOutFailed(Self.clientError(error), language: language)
        }
    }

    /// Shows "Change password".
    public func showChangePassword() {
        changePassword = ChangePasswordForm(email: account?.account?.email)
    }

    /// Replaces the new password typed on "Change password".
    public func setNewPassword(forChange text: String) {
        changePassword?.setNewPassword(text)
    }

    /// Replaces the current password typed on "Change password".
    public func setCurrentPassword(forPasswordChange text: String) {
        changePassword?.setCurrentPassword(text)
    }

    /// Sends the new password (with the current one when the server asked for it). Every
    /// other device is signed out; this one stays, with a renewed access token.
    public func submitPasswordChange() async {
        guard let (newPassword, currentPassword) = changePassword?.submit() else { return }
        do {
            _ = try await accountClient.changePassword(
                to: newPassword, currentPassword: currentPassword, email: account?.account?.email)
            changePassword?.saved()
            await reloadAccount()
        } catch {
            changePassword?.failed(Self.clientError(error), language: language)
        }
    }

    /// Closes "Change password".
    public func closeChangePassword() {
        changePassword = nil
    }

    /// Shows "Change address".
    public func showChangeEmail() {
        changeEmail = ChangeEmailForm()
    }

    /// Asks to move the account to the typed address (with the current password when the
    /// server asked for it): a link goes to the new address.
    public func submitEmailChange() async {
        guard let (newEmail, currentPassword) = changeEmail?.submit() else { return }
        do {
            _ = try await accountClient.changeEmail(to: newEmail, currentPassword: currentPassword)
            changeEmail?.sent()
        } catch {
            changeEmail?.failed(Self.clientError(error), language: language)
        }
    }

    /// Closes "Change address".
    public func closeChangeEmail() {
        changeEmail = nil
    }

    /// Shows "Delete account", which asks the person to confirm first.
    public func showDeleteAccount() {
        deleteAccount = DeleteAccountFlow()
    }

    /// Replaces the current password typed on "Delete account".
    public func setCurrentPassword(forDeletion text: String) {
        deleteAccount?.setCurrentPassword(text)
    }

    /// The person confirmed: deletes the account (with the current password when the server
    /// asked for it). The session then signs out, which closes the Account screen.
    public func confirmDeleteAccount() async {
        guard deleteAccount?.confirm() == true else { return }
        do {
            try await accountClient.deleteAccount(currentPassword: deleteAccount?.change.currentPasswordToSend)
            deleteAccount?.deleted()
        } catch {
            deleteAccount?.failed(Self.clientError(error), language: language)
        }
    }

    /// Closes "Delete account" without deleting.
    public func closeDeleteAccount() {
        deleteAccount = nil
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

    /// Signs out (the tokens go even if the server cannot be reached); never asks for
    /// Face ID, and revokes the login all the same.
    public func signOut() async {
        do {
            try await session.signOut()
        } catch {
            browserSignInError = Self.clientError(error).message(for: language)
        }
        apiCall = .idle
        await readState()
    }

    /// Turns "Require Face ID" on or off by changing the saved session's protection:
    /// on asks for nothing; off asks for Face ID once, to read the session one last time.
    /// When the device cannot hold it (no passcode, no Face ID enrolled) the session stays
    /// as it was and ``faceIDSettingError`` says why.
    public func setRequireFaceID(_ on: Bool) async {
        guard on != requireFaceID else { return }
        faceIDSettingError = nil
        do {
            let target = on ? try makeStore(true) : store
            guard let changing = target as? any ProtectionChangingTokenStore else { return }
            try await changing.changeProtection(allowingWeaker: !on, lockTimeout: 30)
        } catch {
            faceIDSettingError = Self.clientError(error).message(for: language)
        }
        await readState()
    }

    /// Saves tokens a refresh kept in memory and reads the state again (call when
    /// protected data becomes available again); never asks for Face ID.
    public func deviceUnlocked() async {
        await session.saveUnsavedTokens()
        await readState()
    }

    /// A message for the sign-in screen when the saved session ended without the person
    /// signing out (Face ID changed since they signed in), if so.
    public var signedOutNotice: String? {
        guard case .unavailable(let error) = sessionState, error.code == .sessionExpired else { return nil }
        return error.message(for: language)
    }

    private func followEmailLink() async {
        guard let flow = emailLink, flow.step == .working else { return }
        do {
            switch flow.kind {
            case .verifyEmail:
                try await registration.verifyEmail(token: flow.token)
            case .confirmEmailChange:
                try await emailChange.confirm(token: flow.token)
                await reloadAccount()
            case .undoEmailChange:
                try await emailChange.undo(token: flow.token)
                await checkSessionWithServer()
            default:
                throw LatchkeyClientError(.invalidLink, reasons: ["wrong_path"])
            }
            emailLink?.completed()
        } catch {
            emailLink?.failed(Self.clientError(error), language: language)
        }
    }

    /// Renews the access token at once, so that a session the server has ended (an undone
    /// address change ends every login of the account) is found out now: the session then
    /// removes its tokens and sends its signed-out event. A session of another account, or
    /// a server out of reach, stays as it is.
    private func checkSessionWithServer() async {
        guard case .signedIn = sessionState, let token = try? await session.validAccessToken() else { return }
        _ = try? await session.accessToken(replacing: token)
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
        case .current(let state):
            sessionState = state
            readProtection()
        case .signedIn, .refreshed:
            if event == .signedIn { accountDeleted = false }
            Task { await self.readState() }
        case .signedOut, .passwordRecovered:
            sessionState = .signedOut
            apiCall = .idle
            accountDeleted = event == .signedOut(.accountDeleted)
            closeAccount()
            readProtection()
        }
    }

    /// The session's state and the saved session's protection, read without UI.
    private func readState() async {
        sessionState = await session.state()
        readProtection()
    }

    private func readProtection() {
        let protection = try? (store as? any ProtectionChangingTokenStore)?.storedProtection()
        requireFaceID = protection?.needsUserPresence ?? false
    }

    private static func clientError(_ error: any Error) -> LatchkeyClientError {
        error as? LatchkeyClientError ?? LatchkeyClientError(.unexpectedResponse)
    }
}
