/// A password reset link the app was opened with, reduced to what the app needs: the
/// reset token. Its textual forms never show the token.
public struct ResetLink: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The reset token to send to `validate` and `reset` (43 base64url characters from Latchkey).
    public let token: ClientSecret

    /// A link holding `token`; ``ResetLinkParser`` is the way to get one from a URL.
    public init(token: ClientSecret) {
        self.token = token
    }

    /// `ResetLink(token: <redacted>)`.
    public var description: String { "ResetLink(token: <redacted>)" }

    /// `ResetLink(token: <redacted>)`.
    public var debugDescription: String { description }

    /// A mirror with no children, so `dump` and reflection show nothing of the token.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
