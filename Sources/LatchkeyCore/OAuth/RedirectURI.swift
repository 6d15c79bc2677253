/// A redirect URI an OAuth client registered, in one of the forms RFC 8252 allows for
/// native apps. Creating one validates it; ``matches(_:)`` decides whether a redirect URI
/// in a request is this one.
///
/// Accepted forms:
/// - `https://host[:port]/path[?query]` — a claimed https URL (RFC 8252 §7.2);
/// - `com.example.app:/path` — a private-use scheme in reverse-DNS form, with at least one
///   dot and a path that starts with a single slash (RFC 8252 §7.1);
/// - `http://127.0.0.1[:port]/path` or `http://[::1][:port]/path` — loopback (RFC 8252 §7.3),
///   where the request may use any port.
///
/// Rejected: plain `http` to any other host (including `localhost`, RFC 8252 §8.3),
/// fragments, user info, wildcards, schemes without a dot (`javascript:`, `data:`, `file:`),
/// whitespace, control and non-ASCII characters, and anything over 2048 bytes.
package struct RedirectURI: Sendable, Hashable, CustomStringConvertible {
    /// Which of the accepted forms a redirect URI has.
    package enum Kind: Sendable, Hashable {
        /// `https://…`.
        case https
        /// A reverse-DNS private-use scheme such as `com.example.app:/oauth`.
        case privateUseScheme
        /// `http://127.0.0.1…` or `http://[::1]…`; the port is not compared.
        case loopback
    }

    /// The longest redirect URI accepted, in bytes.
    package static let maximumLength = 2048

    /// The URI exactly as registered.
    package let value: String
    /// Its form.
    package let kind: Kind
    /// For loopback URIs, the URI with its port removed (what ``matches(_:)`` compares).
    private let portless: String?

    /// Validates `text` as a redirect URI. Throws `invalid_redirect_uri` with a message
    /// naming the problem.
    package init(_ text: String) throws {
        guard !text.isEmpty, text.utf8.count <= Self.maximumLength else {
            throw Self.invalid("must be 1 to \(Self.maximumLength) characters")
        }
        if let bad = text.unicodeScalars.first(where: { !Self.isAllowedCharacter($0) }) {
            switch bad {
            case "#": throw Self.invalid("must not have a fragment (#)")
            case "*": throw Self.invalid("must not contain a wildcard (*)")
            default: throw Self.invalid("must contain only printable ASCII without spaces, double quotes, <, >, \\, ^, `, {, | or }")
            }
        }
        guard let colon = text.firstIndex(of: ":") else { throw Self.invalid("has no scheme") }
        let scheme = text[..<colon]
        let rest = text[text.index(after: colon)...]
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
            scheme.unicodeScalars.allSatisfy(Self.isSchemeCharacter)
        else {
            throw Self.invalid("must start with a lowercase scheme such as https or com.example.app")
        }
        switch scheme {
        case "https":
            let (host, _) = try Self.authority(of: rest)
            guard !host.isEmpty else { throw Self.invalid("has no host") }
            kind = .https
            portless = nil
        case "http":
            let (host, pathAndQuery) = try Self.authority(of: rest)
            guard host == "127.0.0.1" || host == "[::1]" else {
                throw Self.invalid(
                    "may use http only with the loopback IP literals 127.0.0.1 and [::1] (use https, a private-use scheme, or http://127.0.0.1 instead of localhost)")
            }
            kind = .loopback
            portless = "http://" + host + pathAndQuery
        default:
            let labels = scheme.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else {
                throw Self.invalid(
                    "must use https, loopback http, or a reverse-DNS private-use scheme with a dot such as com.example.app")
            }
            guard rest.hasPrefix("/"), !rest.hasPrefix("//") else {
                throw Self.invalid("with a private-use scheme must have a path starting with one slash, as in com.example.app:/oauth")
            }
            kind = .privateUseScheme
            portless = nil
        }
        value = text
    }

    /// Whether the redirect URI in a request is this registered one: the same string
    /// exactly, byte for byte, except that for a loopback URI the port may differ (or be absent).
    package func matches(_ requested: String) -> Bool {
        // Byte-wise: String's == treats canonically equivalent text (U+212A KELVIN SIGN and K) as equal.
        if requested.utf8.elementsEqual(value.utf8) { return true }
        guard let portless, requested.utf8.count <= Self.maximumLength,
            let candidate = try? RedirectURI(requested), candidate.kind == .loopback
        else { return false }
        return candidate.portless == portless
    }

    package var description: String { value }

    // MARK: Parsing

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        default: false
        }
    }

    /// RFC 3986 unreserved and reserved characters, less `#` and `*`, plus `%`.
    private static func isAllowedCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isLetterOrDigit(scalar) || "-._~:/?[]@!$&'()+,;=%".unicodeScalars.contains(scalar)
    }

    private static func isSchemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "0"..."9", "+", "-", ".": true
        default: false
        }
    }

    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isLetterOrDigit(scalar) || scalar == "-" || scalar == "."
    }

    private static func isIPv6Character(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."f", "A"..."F", "0"..."9", ":", ".": true
        default: false
        }
    }

    /// Splits `//host[:port]/path?query` (what follows `scheme:`) into the host and the path
    /// with query (possibly empty), checking the port if there is one.
    private static func authority(of rest: Substring) throws -> (host: String, pathAndQuery: String) {
        guard rest.hasPrefix("//") else { throw invalid("must have // and a host after the scheme") }
        let afterSlashes = rest.dropFirst(2)
        let end = afterSlashes.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterSlashes.endIndex
        let authority = afterSlashes[..<end]
        guard !authority.contains("@") else { throw invalid("must not contain user info (@)") }
        let host: Substring
        let portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("has an unterminated IPv6 address") }
            host = authority[...close]
            guard host.dropFirst().dropLast().unicodeScalars.allSatisfy(isIPv6Character) else {
                throw invalid("has an invalid IPv6 address")
            }
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw invalid("has an invalid host") }
            portPart = after.isEmpty ? nil : after.dropFirst()
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            portPart = parts.count > 1 ? parts[1] : nil
            guard host.unicodeScalars.allSatisfy(isHostCharacter) else { throw invalid("has an invalid host") }
        }
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy(\.isASCIIDigit), let number = Int(portPart),
                number <= 65535
            else { throw invalid("has an invalid port") }
        }
        return (String(host), String(afterSlashes[end...]))
    }

    private static func invalid(_ problem: String) -> LatchkeyError {
        LatchkeyError(.invalidRedirectURI, "The redirect URI \(problem).")
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0–9.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
