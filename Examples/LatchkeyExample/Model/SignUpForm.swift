import Foundation
public import LatchkeyClient

/// The "Create account" form, as a state machine: an address and a password with the same
/// live rule feedback as the reset screen (``PasswordFeedback``, here with the address, so
/// "no email in the password" counts too). The server answers the same for every address,
/// so "sent" never says whether the address already had an account.
public struct SignUpForm: Sendable, Equatable {
    /// Where the form is.
    public enum Step: Sendable, Equatable {
        /// Being filled in.
        case editing
        /// The request is on its way.
        case sending
        /// Sent: "If this address has no account yet, a link is on its way."
        case sent(email: String)
        /// The request failed; the message says why (the form stays filled in).
        case failed(String)
    }

    /// The address typed.
    public var email = ""
    /// The password typed.
    public private(set) var password = ClientSecret("")
    /// Where the form is.
    public private(set) var step = Step.editing
    /// Rules the server gave when it refused the last password (`too_weak`, …).
    public private(set) var refusedReasons: [String] = []

    /// An empty form, or one with `email` filled in (from the sign-in form).
    public init(email: String = "") {
        self.email = email
    }

    /// The live feedback for the typed password, checked with the address once it looks like one.
    public var feedback: PasswordFeedback {
        PasswordFeedback(password: password, email: EmailSyntax.isPlausible(email) ? email : nil)
    }

    /// Whether the form can be sent: a plausible address, a password meeting every rule the
    /// app checks, not already sending or sent.
    public var canSubmit: Bool {
        switch step {
        case .sending, .sent: false
        case .editing, .failed: EmailSyntax.isPlausible(email) && feedback.allMet
        }
    }

    /// Replaces the password typed; a refusal of the previous one no longer applies.
    public mutating func setPassword(_ text: String) {
        password = ClientSecret(text)
        refusedReasons = []
    }

    /// Starts sending; false (and nothing changes) when ``canSubmit`` is false.
    public mutating func submit() -> Bool {
        guard canSubmit else { return false }
        step = .sending
        return true
    }

    /// The server took the sign-up: the password is forgotten (the server holds it until
    /// the link is used).
    public mutating func sent() {
        guard step == .sending else { return }
        password = ClientSecret("")
        step = .sent(email: email.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The sign-up failed with `error`, shown in `language`; a refused password keeps the
    /// server's reasons.
    public mutating func failed(_ error: LatchkeyClientError, language: ClientLanguage) {
        guard step == .sending else { return }
        if error.code == .weakPassword { refusedReasons = error.reasons }
        step = .failed(error.message(for: language))
    }
}
