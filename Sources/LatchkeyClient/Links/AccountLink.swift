/// A link from one of the server's mails that the app was opened with, reduced to what the
/// app needs: what the link is for and its token. Its textual forms never show the token.
///
/// ``AccountLinkParser`` is the way to get one from a URL.
public struct AccountLink: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What a mailed link is for. New kinds can be added without breaking callers: the kinds
    /// are static members of a struct, not cases of a public enum.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// A stable name, e.g. `verify_email`.
        public let rawValue: String
        /// The path of this kind's links on the server's public URL (`/verify-email`): what
        /// the server mails unless the app gave its own link base.
        public let defaultPath: String

        private init(_ rawValue: String, _ defaultPath: String) {
            self.rawValue = rawValue
            self.defaultPath = defaultPath
        }

        /// The ``rawValue``.
        public var description: String { rawValue }

        /// A password reset link (`/reset-password#token=…`): ``PasswordRecovery``.
        public static let resetPassword = Kind("reset_password", "/reset-password")
        /// A sign-up's confirmation link (`/verify-email#token=…`):
        /// ``Registration/verifyEmail(token:)`` creates the account.
        public static let verifyEmail = Kind("verify_email", "/verify-email")
        /// An address change's confirmation link, mailed to the new address
        /// (`/confirm-email#token=…`): ``EmailChangeLinks/confirm(token:)``.
        public static let confirmEmailChange = Kind("confirm_email_change", "/confirm-email")
        /// The link that undoes an address change, mailed to the old address
        /// (`/undo-email-change#token=…`): ``EmailChangeLinks/undo(token:)``.
        public static let undoEmailChange = Kind("undo_email_change", "/undo-email-change")

        /// Every kind, in the order ``AccountLinkParser`` gives precedence to when two share a path.
        public static let all: [Kind] = [.resetPassword, .verifyEmail, .confirmEmailChange, .undoEmailChange]
    }

    /// What the link is for.
    public let kind: Kind
    /// The link's token, for the call its kind names (43 base64url characters from Latchkey).
    public let token: ClientSecret

    /// A link of `kind` holding `token`.
    public init(kind: Kind, token: ClientSecret) {
        self.kind = kind
        self.token = token
    }

    /// `AccountLink(verify_email, token: <redacted>)`.
    public var description: String { "AccountLink(\(kind), token: <redacted>)" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with no children, so `dump` and reflection show nothing of the token.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
