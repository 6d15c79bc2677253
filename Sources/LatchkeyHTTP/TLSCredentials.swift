import LatchkeyCore
package import LatchkeyCrypto

/// The certificate chain and private key the HTTP server speaks HTTPS with, as PEM text.
/// The key is ``Redacted``: it appears in no description, log or error.
package struct TLSCredentials: Sendable {
    /// The PEM certificate chain, leaf first.
    package let certificateChainPEM: String
    /// The PEM private key.
    package let privateKeyPEM: Redacted<String>

    /// The GnuTLS priorities the server offers: GnuTLS's normal choice of ciphers, with TLS
    /// 1.3 and 1.2 only (older versions are refused during the handshake).
    package static let priorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

    /// Checks that both are PEM of the right kind (the TLS library checks the rest when the
    /// server starts). Throws `invalid_configuration` saying which one is wrong, never
    /// quoting the key.
    package init(certificateChainPEM: String, privateKeyPEM: Redacted<String>) throws {
        guard certificateChainPEM.contains("-----BEGIN CERTIFICATE-----"), !certificateChainPEM.contains("\0") else {
            throw LatchkeyError(.invalidConfiguration, "The TLS certificate is not a PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        let key = privateKeyPEM.exposed
        guard key.contains("-----BEGIN "), key.contains("PRIVATE KEY-----"), !key.contains("\0") else {
            throw LatchkeyError(.invalidConfiguration, "The TLS private key is not a PEM private key (-----BEGIN … PRIVATE KEY-----)")
        }
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }
}
