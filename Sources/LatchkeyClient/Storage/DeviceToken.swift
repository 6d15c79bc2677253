public import Foundation

/// The device's own credential at one server (what the OWASP authentication cheat sheet calls a
/// device cookie): a sign-in hands it back as `data.device_token`, the app keeps it in a
/// ``DeviceTokenStore`` and sends it with every later sign-in, and with the right password a
/// recognised device gets in even while the server caps the guessing on the account. It names
/// the device, not a session: it is kept across sign-outs and shared by every account signed in
/// from the device (the server recognises it per account), and alone it proves nothing.
///
/// Promises: only a token shaped like one a server issues is ever held — 16 to 64 base64url
/// characters, so never a control character and never more than the server's 64-byte limit —
/// and no textual form (`description`, interpolation, `dump`) shows it.
public struct DeviceToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The token, wrapped so that it never prints.
    public let value: ClientSecret

    /// The token `text`, or nil when it is not shaped like a server's device token.
    public init?(_ text: String) {
        guard (16...64).contains(text.utf8.count), Base64URL.isAlphabet(text) else { return nil }
        value = ClientSecret(text)
    }

    /// Always `DeviceToken(<redacted>)`.
    public var description: String { "DeviceToken(<redacted>)" }

    /// Always `DeviceToken(<redacted>)`.
    public var debugDescription: String { description }

    /// A mirror with no children.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// The name a store keeps a server's device token under: the URL's scheme and host in
    /// lowercase, its port, and its path without a trailing slash — so `https://Auth.example/`
    /// and `https://auth.example` share one token, and two servers (or two ports) never do.
    /// Query, fragment and user information are left out.
    public static func serverKey(_ server: URL) -> String {
        guard var parts = URLComponents(url: server, resolvingAgainstBaseURL: true) else { return server.absoluteString }
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        while parts.path.hasSuffix("/") { parts.path.removeLast() }
        return parts.string ?? server.absoluteString
    }
}
