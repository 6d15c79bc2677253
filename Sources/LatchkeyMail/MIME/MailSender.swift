import LatchkeyCore
/// The `From` of every message: an address and an optional display name (e.g. the app's
/// name), checked once when created so that neither can inject a header.
package struct MailSender: Sendable, Equatable {
    /// The sender address, also used as the SMTP envelope sender.
    package let address: String
    /// The name shown to recipients, or nil for the bare address. May be non-ASCII; it is
    /// RFC 2047-encoded on the wire.
    package let displayName: String?

    /// Creates a sender. Throws ``LatchkeyError`` `invalid_mail_header` when `address` is
    /// not a plain `local@domain` address or `displayName` contains a line break or other
    /// control character.
    package init(address: String, displayName: String? = nil) throws {
        try MailHeaderCheck.address(address, what: "sender address")
        if let displayName {
            try MailHeaderCheck.text(displayName, what: "sender name")
            guard displayName.utf8.count <= 256 else {
                throw LatchkeyError(.invalidMailHeader, "The sender name is longer than 256 bytes.")
            }
        }
        self.address = address
        self.displayName = displayName.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The part after the `@`, used as the right-hand side of Message-IDs.
    var domain: Substring { address.split(separator: "@").last ?? "" }
}
