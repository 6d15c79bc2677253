import LatchkeyCore
package import Foundation
package import LatchkeyCrypto

/// Where and how to deliver mail over SMTP, validated when created so that a bad setting
/// stops start-up with a message naming it.
///
/// Mail is never sent in plain text to another machine: `smtps://` uses TLS from the first
/// byte, `smtp://` requires STARTTLS, and an unencrypted connection is allowed only to a
/// loopback host (127.0.0.0/8, `::1`, `localhost`) when ``allowsPlainText`` was asked for.
/// Certificates are always verified, against the system store or ``caFile``.
package struct SMTPConfiguration: Sendable {
    /// How the connection is protected.
    package enum Security: Sendable, Equatable {
        /// `smtps://`: TLS from the first byte.
        case implicitTLS
        /// `smtp://`: the server must offer STARTTLS, or nothing is sent.
        case startTLS
        /// `smtp://` to a loopback host with plain text explicitly allowed.
        case plainTextLoopback
    }

    /// The server URL, `smtps://host:port` or `smtp://host:port`.
    package let url: String
    /// How the connection is protected, derived from the URL and the loopback setting.
    package let security: Security
    /// The SMTP AUTH user, or nil to send without authenticating.
    package let username: String?
    /// The SMTP AUTH password.
    package let password: Redacted<String>?
    /// The envelope and header sender.
    package let sender: MailSender
    /// The longest one delivery may take, connecting included, in seconds.
    package let timeout: TimeInterval
    /// A PEM file of certificates to trust instead of the system store (e.g. a private CA
    /// or a test server's self-signed certificate), or nil.
    package let caFile: String?

    /// Whether this configuration sends without TLS (only ever to a loopback host).
    package var allowsPlainText: Bool { security == .plainTextLoopback }

    /// Validates and creates a configuration.
    ///
    /// Throws ``LatchkeyError`` `invalid_configuration` naming the setting when the URL is
    /// not `smtp://` or `smtps://` with a host and nothing but an optional port, carries
    /// credentials, or `allowInsecureLoopback` is set for a host that is not loopback; when
    /// only one of username and password is given; when `timeout` is not positive; or when
    /// `caFile` is not a readable file.
    package init(
        url: String, username: String? = nil, password: Redacted<String>? = nil, sender: MailSender,
        allowInsecureLoopback: Bool = false, timeout: TimeInterval = 30, caFile: String? = nil
    ) throws {
        guard let components = URLComponents(string: url),
              let scheme = components.scheme?.lowercased(), scheme == "smtp" || scheme == "smtps",
              let rawHost = components.host, !rawHost.isEmpty
        else {
            throw LatchkeyError(
                .invalidConfiguration,
                "LATCHKEY_SMTP_URL must be smtps://host:port (TLS) or smtp://host:port (STARTTLS)."
            )
        }
        guard components.user == nil, components.password == nil else {
            throw LatchkeyError(
                .invalidConfiguration,
                "LATCHKEY_SMTP_URL must not contain credentials; set LATCHKEY_SMTP_USERNAME and LATCHKEY_SMTP_PASSWORD."
            )
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil else {
            throw LatchkeyError(.invalidConfiguration, "LATCHKEY_SMTP_URL must have no path, query or fragment.")
        }
        let host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        if allowInsecureLoopback, !Self.isLoopback(host) {
            throw LatchkeyError(
                .invalidConfiguration,
                "LATCHKEY_SMTP_URL: plain-text SMTP is allowed only to a loopback host (127.0.0.0/8, ::1, localhost); "
                    + "unset LATCHKEY_SMTP_ALLOW_INSECURE_LOOPBACK or point LATCHKEY_SMTP_URL at a local relay."
            )
        }
        switch (username, password) {
        case (nil, nil):
            break
        case (let user?, _?):
            guard !user.isEmpty, !user.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw LatchkeyError(.invalidConfiguration, "LATCHKEY_SMTP_USERNAME must be non-empty text without control characters.")
            }
        default:
            throw LatchkeyError(
                .invalidConfiguration, "LATCHKEY_SMTP_USERNAME and LATCHKEY_SMTP_PASSWORD must be set together."
            )
        }
        guard timeout.isFinite, timeout > 0 else {
            throw LatchkeyError(.invalidConfiguration, "LATCHKEY_SMTP_TIMEOUT must be a positive number of seconds.")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw LatchkeyError(.invalidConfiguration, "LATCHKEY_SMTP_CA_FILE (\(caFile)) is not a readable file.")
        }

        self.url = url
        self.security = scheme == "smtps" ? .implicitTLS : (allowInsecureLoopback ? .plainTextLoopback : .startTLS)
        self.username = username
        self.password = password
        self.sender = sender
        self.timeout = timeout
        self.caFile = caFile
    }

    /// Whether `host` is this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" || lowered == "0:0:0:0:0:0:0:1" { return true }
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        let values = octets.compactMap { octet -> Int? in
            guard (1...3).contains(octet.count), octet.allSatisfy(\.isASCII), let value = Int(octet), value <= 255 else { return nil }
            return value
        }
        return values.count == 4 && values[0] == 127
    }
}
