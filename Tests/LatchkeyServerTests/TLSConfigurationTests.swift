import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyServer
import LatchkeyTestSupport
import Testing

@Suite struct TLSConfigurationTests {
    @Test("LATCHKEY_TLS_CERT and LATCHKEY_TLS_KEY load both files and make the default public URL https")
    func loads() throws {
        let certificate = try TestCertificate()
        let configuration = try Configuration.load(environment: [
            "LATCHKEY_LISTEN": "127.0.0.1:8443", "LATCHKEY_TLS_CERT": certificate.certificatePath,
            "LATCHKEY_TLS_KEY": certificate.keyPath,
        ])
        let tls = try #require(configuration.tls)
        #expect(tls.certificateChainPEM.contains("BEGIN CERTIFICATE"))
        #expect(configuration.publicURL.absoluteString == "https://127.0.0.1:8443")
        #expect(try Configuration.load(environment: [:]).tls == nil)
    }

    @Test("one without the other is refused, naming the missing variable")
    func bothOrNeither() throws {
        let certificate = try TestCertificate()
        let onlyCertificate = try #require(throws: LatchkeyError.self) {
            try Configuration.load(environment: ["LATCHKEY_TLS_CERT": certificate.certificatePath])
        }
        #expect(onlyCertificate.message.hasPrefix("LATCHKEY_TLS_KEY is required"))
        let onlyKey = try #require(throws: LatchkeyError.self) {
            try Configuration.load(environment: ["LATCHKEY_TLS_KEY": certificate.keyPath])
        }
        #expect(onlyKey.message.hasPrefix("LATCHKEY_TLS_CERT is required"))
    }

    @Test("an unreadable or non-PEM file is refused naming the variable and path, never the key")
    func unreadable() throws {
        let certificate = try TestCertificate()
        let missing = try #require(throws: LatchkeyError.self) {
            try Configuration.load(environment: [
                "LATCHKEY_TLS_CERT": certificate.certificatePath, "LATCHKEY_TLS_KEY": "/nonexistent/key.pem",
            ])
        }
        #expect(missing.code == .invalidConfiguration)
        #expect(missing.message.hasPrefix("LATCHKEY_TLS_KEY cannot read '/nonexistent/key.pem'"))

        // The key given as the certificate and the other way round.
        let swapped = try #require(throws: LatchkeyError.self) {
            try Configuration.load(environment: [
                "LATCHKEY_TLS_CERT": certificate.keyPath, "LATCHKEY_TLS_KEY": certificate.certificatePath,
            ])
        }
        #expect(swapped.message.hasPrefix("LATCHKEY_TLS_CERT '\(certificate.keyPath)'"))
        let key = try String(contentsOfFile: certificate.keyPath, encoding: .utf8)
        let keyBody = key.split(separator: "\n")[1]
        #expect(!swapped.description.contains(keyBody))
    }
}
