/// A secret string (access or refresh token, reset token, authorization code, PKCE
/// verifier, password) that never prints.
///
/// Every textual form — `description`, `debugDescription`, string interpolation, `dump`
/// and `Mirror` reflection — is `<redacted>`. The value is reachable only through
/// ``exposed``, so a reviewer can search for every place a secret leaves its wrapper.
public struct ClientSecret: Sendable, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The secret itself. Read it only to send it where it belongs or to store it.
    public let exposed: String

    /// Wraps `value` so that it cannot be printed or logged by accident.
    public init(_ value: String) {
        self.exposed = value
    }

    /// Always `<redacted>`.
    public var description: String { "<redacted>" }

    /// Always `<redacted>`.
    public var debugDescription: String { "<redacted>" }

    /// A mirror with no children, so `dump` and reflection show nothing of the value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
