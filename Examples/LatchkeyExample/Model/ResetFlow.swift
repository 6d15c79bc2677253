public import Foundation
public import LatchkeyClient

/// The reset screen reached through a reset link, as a state machine: check the link →
/// show whose account (the email hint) → choose a password with live rule feedback →
/// confirm it is the device's owner (Face ID) → set it → done.
public struct ResetFlow: Sendable, Equatable {
    /// Where the flow is.
    public enum Step: Sendable, Equatable {
        /// The link's token is being checked with the server.
        case checkingLink
        /// The link cannot be used (unknown, used, expired, malformed): request a new one.
        case linkUnusable(String)
        /// The link is good: the person chooses a password.
        case choosingPassword
        /// Face ID (or the passcode) is being asked for.
        case confirmingIdentity
        /// The new password is on its way.
        case saving
        /// The password was changed; every session of the account has ended.
        case done
        /// A step failed; the message says why. With `retry` the same step can be tried
        /// again (network trouble, Face ID cancelled, a password the server refused).
        indirect case failed(String, retry: Step?)
    }

    /// The link's token.
    public let token: ClientSecret
    /// Where the flow is.
    public private(set) var step: Step
    /// Whose account the link is for (`j***@example.com`), once checked.
    public private(set) var emailHint: String?
    /// When the link stops working, once checked.
    public private(set) var expiresAt: Date?
    /// The password typed.
    public private(set) var password = ClientSecret("")
    /// Rules the server gave when it refused the last password (`too_weak`, …).
    public private(set) var refusedReasons: [String] = []

    /// A flow for `link`, starting by checking it.
    public init(link: ResetLink) {
        token = link.token
        step = .checkingLink
    }

    /// A flow for a link that cannot be used at all (see ``LinkRouter``).
    public init(unusable error: LatchkeyClientError, language: ClientLanguage) {
        token = ClientSecret("")
        step = .linkUnusable(error.message(for: language))
    }

    /// The live feedback for the typed password.
    public var feedback: PasswordFeedback { PasswordFeedback(password: password, email: nil) }

    /// Whether the password can be submitted.
    public var canSubmit: Bool {
        guard case .choosingPassword = step else { return false }
        return feedback.allMet
    }

    /// Replaces the typed password; a refusal of the previous one no longer applies.
    public mutating func setPassword(_ text: String) {
        password = ClientSecret(text)
        refusedReasons = []
    }

    /// The server says the link is good.
    public mutating func linkChecked(_ status: ResetTokenStatus) {
        guard step == .checkingLink else { return }
        emailHint = status.emailHint
        expiresAt = status.expiresAt
        step = .choosingPassword
    }

    /// Checking the link failed: `invalid_token` ends the flow, anything else may be retried.
    public mutating func linkCheckFailed(_ error: LatchkeyClientError, language: ClientLanguage) {
        guard step == .checkingLink else { return }
        step = error.code == .invalidToken || error.code == .invalidLink
            ? .linkUnusable(error.message(for: language)) : .failed(error.message(for: language), retry: .checkingLink)
    }

    /// Starts the identity check before saving; false when ``canSubmit`` is false.
    public mutating func submit() -> Bool {
        guard canSubmit else { return false }
        step = .confirmingIdentity
        return true
    }

    /// The owner passed Face ID: the password is sent.
    public mutating func identityConfirmed() {
        guard step == .confirmingIdentity else { return }
        step = .saving
    }

    /// Face ID failed or was cancelled: back to the password, with the reason.
    public mutating func identityCheckFailed(_ error: LatchkeyClientError, language: ClientLanguage) {
        guard step == .confirmingIdentity else { return }
        step = .failed(error.message(for: language), retry: .choosingPassword)
    }

    /// The server changed the password.
    public mutating func saved() {
        guard step == .saving else { return }
        password = ClientSecret("")
        step = .done
    }

    /// Saving failed: a refused password goes back to choosing (with the server's
    /// reasons), a used or expired link ends the flow, anything else may be retried.
    public mutating func saveFailed(_ error: LatchkeyClientError, language: ClientLanguage) {
        guard step == .saving else { return }
        switch error.code {
        case .weakPassword:
            refusedReasons = error.reasons
            step = .failed(error.message(for: language), retry: .choosingPassword)
        case .invalidToken:
            step = .linkUnusable(error.message(for: language))
        default:
            step = .failed(error.message(for: language), retry: .saving)
        }
    }

    /// Goes back to the step a failure allows retrying; the caller re-runs its work
    /// (``Step/checkingLink``: check again; ``Step/saving``: send again).
    public mutating func retry() {
        guard case .failed(_, let retry?) = step else { return }
        step = retry
    }
}
