import Foundation

/// A throwaway self-signed P-256 certificate for 127.0.0.1, made with the openssl CLI.
package final class TestCertificate {
    private let folder: TemporaryDirectory
    /// The certificate, PEM.
    package var certificatePath: String { folder.url.appendingPathComponent("cert.pem").path }
    /// Its private key, PEM (unencrypted).
    package var keyPath: String { folder.url.appendingPathComponent("key.pem").path }

    /// Makes the key and the certificate in a fresh temporary directory.
    package init() throws {
        folder = try TemporaryDirectory()
        try ChildProcess.succeed("openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", keyPath, "-out", certificatePath,
        ])
    }
}
