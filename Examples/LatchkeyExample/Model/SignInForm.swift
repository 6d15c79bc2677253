import Foundation
public import LatchkeyClient

/// The email-and-password sign-in form (first-party login), as a state machine; for an
/// account with two-step sign-in, a second step asks for the code from the authenticator app
/// or a recovery code.
public struct SignInForm: Sendable, Equatable {
    /// Where the form is.
    public enum Step: Sendable, Equatable {
        /// Being filled in.
        case editing
        /// The request is on its way.
        case signingIn
        /// The password was right; the code from the authenticator app (or a recovery code) is
        /// asked for, with the message of the last wrong code if there was one.
        case needsCode(String?)
        /// The code is on its way.
        case verifyingCode
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

    /// The code typed at the second step.
    public private(set) var code = ClientSecret("")

    /// Replaces the password typed.
    public mutating func setPassword(_ text: String) {
        password = ClientSecret(text)
    }

    /// Replaces the code typed.
    public mutating func setCode(_ text: String) {
        code = ClientSecret(text)
    }

    /// Whether the code can be sent: at the second step, something typed.
    public var canSubmitCode: Bool {
        if case .needsCode = step { return !code.exposed.trimmingCharacters(in: .whitespaces).isEmpty }
        return false
    }

    /// The password was right and the account needs its code: the second step. The password
    /// is cleared from the form (the challenge keeps it until the code is sent).
    public mutating func codeNeeded() {
        password = ClientSecret("")
        code = ClientSecret("")
        step = .needsCode(nil)
    }

    /// Starts sending the code; false (and nothing changes) when ``canSubmitCode`` is false.
    public mutating func submitCode() -> Bool {
        guard canSubmitCode else { return false }
        step = .verifyingCode
        return true
    }

    /// The code was refused with `error`, shown in `language`: asked for again, cleared. Any
    /// other failure (the password changed meanwhile) starts the form over.
    public mutating func codeFailed(_ error: LatchkeyClientError, language: ClientLanguage) {
        code = ClientSecret("")
        if error.code == .invalidOTP || error.code == .rateLimited || error.kind == .retryable {
            step = .needsCode(error.message(for: language))
        } else {
            step = .failed(error.message(for: language))
        }
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
