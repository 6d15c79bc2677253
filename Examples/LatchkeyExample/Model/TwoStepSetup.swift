public import LatchkeyClient

/// "Two-step sign-in" on the Account screen, as a state machine: the password, then the secret
/// to add to an authenticator app (a QR code of its `otpauth://` URL, or the link that opens the
/// app on this device, or the key typed by hand) with the first code the app shows, then the
/// recovery codes, shown once. Or, when it is on: a code (or a recovery code) turns it off.
public struct TwoStepSetup: Sendable, Equatable {
    /// Where the screen is.
    public enum Step: Sendable, Equatable {
        /// Asking for the password (to turn it on) or a code (to turn it off).
        case editing
        /// A request is on its way.
        case working
        /// The secret to add to the app, and the code field.
        case confirming(AuthenticatorSecret)
        /// On: the recovery codes, shown this once.
        case enabled(recoveryCodes: [String])
        /// Off.
        case disabled
        /// The last request failed; the message says why (the screen stays where it was).
        case failed(String)
    }

    /// Where the screen is.
    public private(set) var step = Step.editing
    /// The password typed (to turn it on).
    public private(set) var password = ClientSecret("")
    /// The code typed (to confirm the secret, or to turn it off).
    public private(set) var code = ClientSecret("")
    /// The secret being confirmed, kept while a confirmation fails.
    public private(set) var secret: AuthenticatorSecret?

    /// A screen at its first step.
    public init() {}

    /// Replaces the password typed.
    public mutating func setPassword(_ text: String) {
        password = ClientSecret(text)
    }

    /// Replaces the code typed.
    public mutating func setCode(_ text: String) {
        code = ClientSecret(text)
    }

    /// Starts a request with what was typed; false (and nothing changes) while one is on its
    /// way or the field it needs is empty (`needs`: the password or the code).
    mutating func start(needsPassword: Bool) -> Bool {
        guard step != .working, !(needsPassword ? password : code).exposed.isEmpty else { return false }
        step = .working
        return true
    }

    /// The secret came: the password is cleared and the code asked for.
    mutating func generated(_ secret: AuthenticatorSecret) {
        password = ClientSecret("")
        self.secret = secret
        step = .confirming(secret)
    }

    /// It is on: the recovery codes to show once; the secret is forgotten.
    mutating func enabled(_ codes: [ClientSecret]) {
        code = ClientSecret("")
        secret = nil
        step = .enabled(recoveryCodes: codes.map(\.exposed))
    }

    /// It is off.
    mutating func disabled() {
        code = ClientSecret("")
        step = .disabled
    }

    /// A request failed with `error`, said in `language`; while a secret is being confirmed
    /// the code is asked for again.
    mutating func failed(_ error: LatchkeyClientError, language: ClientLanguage) {
        code = ClientSecret("")
        if error.code == .invalidCredentials { password = ClientSecret("") }
        step = .failed(error.message(for: language))
    }

    /// Back to the step before the failure: the code field when a secret waits, else the start.
    public mutating func retry() {
        guard case .failed = step else { return }
        step = secret.map(Step.confirming) ?? .editing
    }
}
