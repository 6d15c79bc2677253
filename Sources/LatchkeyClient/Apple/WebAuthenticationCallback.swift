public import Foundation

/// What the system browser sheet watches for to end a sign-in, derived from the request's
/// redirect URI: a custom scheme (`com.example.app:/oauth`), or — from iOS 17.4 and
/// macOS 14.4, through `ASWebAuthenticationSession.Callback.https(host:path:)` — an https
/// URL on one of the app's associated domains, which only this app can claim, so the
/// server may skip the extra "Allow" step it shows public clients with custom schemes
/// (RFC 8252 §8.6). Portable, so the choice is tested on Linux.
public enum WebAuthenticationCallback: Sendable, Equatable {
    /// A callback to this custom scheme (lowercased).
    case customScheme(String)
    /// A callback to `https://host/path` (the host must be listed under `webcredentials:`
    /// in the app's Associated Domains).
    case https(host: String, path: String)

    /// The callback for `redirectURI`.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` with reason
    ///   `http_redirect` (http, or a loopback redirect: those are for command-line tools),
    ///   `https_redirect_port` (the https callback matches host and path only),
    ///   `invalid_redirect_uri` (no host for https, or not a valid URL scheme).
    public init(redirectURI: URL) throws {
        guard let scheme = redirectURI.scheme?.lowercased() else { throw Self.invalid("invalid_redirect_uri") }
        switch scheme {
        case "http":
            throw Self.invalid("http_redirect")
        case "https":
            guard let host = redirectURI.host?.lowercased(), !host.isEmpty else { throw Self.invalid("invalid_redirect_uri") }
            guard redirectURI.port == nil else { throw Self.invalid("https_redirect_port") }
            self = .https(host: host, path: redirectURI.path.isEmpty ? "/" : redirectURI.path)
        default:
            // RFC 3986 §3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
            let bytes = Array(scheme.utf8)
            guard let first = bytes.first, (0x61...0x7A).contains(first), bytes.allSatisfy({ byte in
                (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }) else { throw Self.invalid("invalid_redirect_uri") }
            self = .customScheme(scheme)
        }
    }

    /// Whether the callback needs `ASWebAuthenticationSession.Callback` (iOS 17.4, macOS 14.4).
    public var needsCallbackMatching: Bool {
        if case .https = self { true } else { false }
    }

    private static func invalid(_ reason: String) -> LatchkeyClientError {
        LatchkeyClientError(.invalidConfiguration, reasons: [reason])
    }
}
