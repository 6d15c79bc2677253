public import LatchkeyClient

/// The email-and-password sign-in form (first-party login), as a state machine.
public struct SignInForm: Sendable, Equatable {
    /// Where the form is.
    public enum Step: Sendable, Equatable {
        /// Being filled in.
        case editing
        /// The request is on its way.
        case signingIn
        /// The last attempt failed; the message says why (the form stays filled in).
        case failed(String)
    }

    /// The address typed.
    public var email = ""
    /// The password typed.
    public private(set) var password = ClientSecret("")
    /// Where the form is.
    public private(set) var step = Step.editing

    /// An empty form.
    public init() {}

    /// Whether the form can be sent: a plausible address, a password, not already sending.
    public var canSubmit: Bool {
        step != .signingIn && EmailSyntax.isPlausible(email) && !password.exposed.isEmpty
    }

    /// Replaces the password typed.
    public mutating func setPassword(_ text: String) {
        password = ClientSecret(text)
    }

    /// Starts sending; false (and nothing changes) when ``canSubmit`` is false.
    public mutating func submit() -> Bool {
        guard canSubmit else { return false }
        step = .signingIn
        return true
    }

    /// The sign-in succeeded: the form is cleared.
    public mutating func succeeded() {
        self = SignInForm()
    }

    /// The sign-in failed with `error`, shown in `language`; the password is cleared after
    /// wrong credentials (so it is typed again), kept after a network failure.
    public mutating func failed(_ error: LatchkeyClientError, language: ClientLanguage) {
        if error.code == .invalidCredentials { password = ClientSecret("") }
        step = .failed(error.message(for: language))
    }
}
