/// The relying party an app's passkeys belong to: the domain in the app's associated domains
/// entitlement (`webcredentials:example.com`) and the one the Latchkey server is configured
/// with (`rp.id`). A passkey is bound to it for good.
///
/// The SDK compares the server's relying party with this one before showing any system sheet:
/// a server that names another domain (a misconfigured deployment, or a server that is not the
/// app's) is `invalid_configuration` (`relying_party_mismatch`), never a passkey made for the
/// wrong domain or a sheet the platform would refuse with a vague error.
public struct PasskeyRelyingParty: Sendable, Hashable, CustomStringConvertible {
    /// The relying party identifier: a lowercase domain name, no scheme, port or path.
    public let identifier: String

    /// The relying party `identifier` (`example.com`), as in `webcredentials:example.com`.
    /// Letters are lowercased; an IDN is given in its `xn--` form.
    ///
    /// - Throws: `invalid_configuration` (`invalid_relying_party`) for anything but a domain
    ///   name of at most 253 characters, labels of 1–63 letters, digits and inner hyphens, at
    ///   least two labels (as associated domains need).
    public init(_ identifier: String) throws {
        let domain = identifier.lowercased()
        guard Self.isDomain(domain) else { throw LatchkeyClientError(.invalidConfiguration, reasons: ["invalid_relying_party"]) }
        self.identifier = domain
    }

    /// The ``identifier``.
    public var description: String { identifier }

    /// Whether the server's `rp.id` / `rpId` names this relying party (ASCII, any case).
    func matches(_ serverIdentifier: String) -> Bool {
        serverIdentifier.lowercased() == identifier
    }

    private static func isDomain(_ text: String) -> Bool {
        guard (1...253).contains(text.utf8.count) else { return false }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
        }
    }
}
