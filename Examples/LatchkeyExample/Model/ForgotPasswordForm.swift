import Foundation
public import LatchkeyClient

/// The "forgot password" form, as a state machine. The server answers the same for every
/// address, so "sent" never says whether an account exists.
public struct ForgotPasswordForm: Sendable, Equatable {
    /// Where the form is.
    public enum Step: Sendable, Equatable {
        /// Being filled in.
        case editing
        /// The request is on its way.
        case sending
        /// Sent: "If an account exists for this address, a link is on its way."
        case sent(email: String)
        /// The request failed; the message says why.
        case failed(String)
    }

    /// The address typed.
    public var email = ""
    /// Where the form is.
    public private(set) var step = Step.editing

    /// An empty form, or one with `email` filled in (from the sign-in form).
    public init(email: String = "") {
        self.email = email
    }

    /// Whether the form can be sent.
    public var canSubmit: Bool { step != .sending && EmailSyntax.isPlausible(email) }

    /// Starts sending; false when ``canSubmit`` is false.
    public mutating func submit() -> Bool {
        guard canSubmit else { return false }
        step = .sending
        return true
    }

    /// The server took the request.
    public mutating func sent() {
        step = .sent(email: email.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The request failed with `error`, shown in `language`.
    public mutating func failed(_ error: LatchkeyClientError, language: ClientLanguage) {
        step = .failed(error.message(for: language))
    }
}
