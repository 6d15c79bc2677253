public import LatchkeyClient

/// What the three account changes — a new password, a new address, deleting the account —
/// share: they are sent, and the server may ask for the current password first
/// (`reauthentication_required`, when the sign-in is older than five minutes), which the
/// person then types and the change is sent again.
public struct AccountChange: Sendable, Equatable {
    /// Where the change is.
    public enum Step: Sendable, Equatable {
        /// Being filled in (for a deletion: asking the person to confirm).
        case editing
        /// On its way to the server.
        case sending
        /// The server wants the current password (or the one typed was wrong): ask for it;
        /// the message says which.
        case needsCurrentPassword(String)
        /// The server made the change.
        case done
        /// The change failed; the message says why (the form stays filled in).
        case failed(String)
    }

    /// Where the change is.
    public private(set) var step = Step.editing
    /// The current password typed, once the server asked for it.
    public private(set) var currentPassword = ClientSecret("")

    /// A change being filled in.
    public init() {}

    /// Whether the server asked for the current password, so the form shows its field.
    public var asksForCurrentPassword: Bool {
        if case .needsCurrentPassword = step { return true }
        return false
    }

    /// Whether the change may be sent now, its own fields aside: not on its way or done, and
    /// with the current password when the server asked for it.
    public var maySend: Bool {
        switch step {
        case .sending, .done: false
        case .needsCurrentPassword: !currentPassword.exposed.isEmpty
        case .editing, .failed: true
        }
    }

    /// Replaces the current password typed.
    public mutating func setCurrentPassword(_ text: String) {
        currentPassword = ClientSecret(text)
    }

    /// The current password to send with the change: the one typed, if any.
    public var currentPasswordToSend: ClientSecret? {
        currentPassword.exposed.isEmpty ? nil : currentPassword
    }

    /// Starts sending.
    mutating func send() {
        step = .sending
    }

    /// The server made the change: the current password is forgotten.
    mutating func succeeded() {
        guard step == .sending else { return }
        currentPassword = ClientSecret("")
        step = .done
    }

    /// The change failed with `error`, shown in `language`: the server asking for the
    /// current password, or refusing the one typed (which is then cleared), asks for it;
    /// anything else is a failure the person may send again.
    mutating func failed(_ error: LatchkeyClientError, language: ClientLanguage) {
        guard step == .sending else { return }
        switch error.code {
        case .reauthenticationRequired, .invalidCredentials:
            currentPassword = ClientSecret("")
            step = .needsCurrentPassword(error.message(for: language))
        default:
            step = .failed(error.message(for: language))
        }
    }
}

/// "Change password": the new password with the reset screen's live rules, then, when the
/// server asks, the current one.
public struct ChangePasswordForm: Sendable, Equatable {
    /// The account's address, for the "no email in the password" rule.
    public let email: String?
    /// The new password typed.
    public private(set) var newPassword = ClientSecret("")
    /// Rules the server gave when it refused the last password (`too_weak`, …).
    public private(set) var refusedReasons: [String] = []
    /// The change itself: its step and the current password.
    public private(set) var change = AccountChange()

    /// An empty form for the account with `email`.
    public init(email: String?) {
        self.email = email
    }

    /// The live feedback for the new password.
    public var feedback: PasswordFeedback { PasswordFeedback(password: newPassword, email: email) }

    /// Whether the form can be sent: every rule met, and the change may be sent.
    public var canSubmit: Bool { feedback.allMet && change.maySend }

    /// Replaces the new password typed; a refusal of the previous one no longer applies.
    public mutating func setNewPassword(_ text: String) {
        newPassword = ClientSecret(text)
        refusedReasons = []
    }

    /// Replaces the current password typed.
    public mutating func setCurrentPassword(_ text: String) {
        change.setCurrentPassword(text)
    }

    /// Starts sending: the new password and the current one (if typed); nil when
    /// ``canSubmit`` is false.
    public mutating func submit() -> (newPassword: ClientSecret, currentPassword: ClientSecret?)? {
        guard canSubmit else { return nil }
        change.send()
        return (newPassword, change.currentPasswordToSend)
    }

    /// The password was changed: both passwords are forgotten.
    public mutating func saved() {
        change.succeeded()
        if change.step == .done { newPassword = ClientSecret("") }
    }

    /// Saving failed; a refused password keeps the server's reasons.
    public mutating func failed(_ error: LatchkeyClientError, language: ClientLanguage) {
        guard change.step == .sending else { return }
        if error.code == .weakPassword { refusedReasons = error.reasons }
        change.failed(error, language: language)
    }
}

/// "Change address": the new address, then, when the server asks, the current password.
/// The address changes only once the link mailed to the new one is opened.
public struct ChangeEmailForm: Sendable, Equatable {
    /// The new address typed.
    public var newEmail = ""
    /// The change itself: its step and the current password.
    public private(set) var change = AccountChange()

    /// An empty form.
    public init() {}

    /// Whether the form can be sent: a plausible address, and the change may be sent.
    public var canSubmit: Bool { EmailSyntax.isPlausible(newEmail) && change.maySend }

    /// Replaces the current password typed.
    public mutating func setCurrentPassword(_ text: String) {
        change.setCurrentPassword(text)
    }

    /// Starts sending: the address and the current password (if typed); nil when
    /// ``canSubmit`` is false.
    public mutating func submit() -> (newEmail: String, currentPassword: ClientSecret?)? {
        guard canSubmit else { return nil }
        change.send()
        return (newEmail, change.currentPasswordToSend)
    }

    /// The server mailed the new address its link.
    public mutating func sent() {
        change.succeeded()
    }

    /// Asking failed.
    public mutating func failed(_ error: LatchkeyClientError, language: ClientLanguage) {
        change.failed(error, language: language)
    }
}

/// "Delete account" (App Store Review Guideline 5.1.1(v)): the person confirms, then, when
/// the server asks, types the current password; the account is then gone and the session
/// signed out.
public struct DeleteAccountFlow: Sendable, Equatable {
    /// The deletion itself: its step (``AccountChange/Step/editing`` while asking to
    /// confirm) and the current password.
    public private(set) var change = AccountChange()

    /// A deletion waiting for the person to confirm.
    public init() {}

    /// Whether "Delete" may be tapped.
    public var canSubmit: Bool { change.maySend }

    /// Replaces the current password typed.
    public mutating func setCurrentPassword(_ text: String) {
        change.setCurrentPassword(text)
    }

    /// The person confirmed: starts sending (with ``AccountChange/currentPasswordToSend``);
    /// false when ``canSubmit`` is false.
    public mutating func confirm() -> Bool {
        guard canSubmit else { return false }
        change.send()
        return true
    }

    /// The server deleted the account.
    public mutating func deleted() {
        change.succeeded()
    }

    /// Deleting failed.
    public mutating func failed(_ error: LatchkeyClientError, language: ClientLanguage) {
        change.failed(error, language: language)
    }
}
