import Foundation
@testable import LatchkeyClient
import Testing

/// RFC 6749 §10.9, RFC 7009 §5, RFC 8414 §6.1: the SDK checks the server's TLS certificate.
/// The real server speaks HTTPS with a self-signed certificate the SDK does not trust:
/// discovery, the token endpoint and revocation all fail as `untrusted_server`, while
/// `openssl s_client`, told to trust that certificate, reaches the server.
@Suite struct UntrustedCertificateTests {
    @Test("a server whose certificate the system does not trust is refused: discovery, sign-in and revocation")
    func selfSignedCertificateRefused() async throws {
        let chains = try CertificateChains()
        defer { chains.cleanUp() }
        try chains.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", "key.pem", "-out", "cert.pem",
        ])
        let server = try await LatchkeyServerProcess(settings: [
            "LATCHKEY_TLS_CERT": chains.directory.appendingPathComponent("cert.pem").path,
            "LATCHKEY_TLS_KEY": chains.directory.appendingPathComponent("key.pem").path,
        ])
        defer { server.stop() }
        #expect(server.baseURL.scheme == "https")

        // Trusting its certificate, a TLS client gets through: it is the certificate the SDK refuses.
        let port = try #require(server.baseURL.port)
        let verified = try chains.openssl([
            "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", "cert.pem", "-verify_return_error", "-brief", "-ign_eof",
        ], stdin: "GET /healthz HTTP/1.0\r\n\r\n")
        #expect(String(decoding: verified, as: UTF8.self).contains("HTTP/1.1 200"))

        let client = OAuthClient(issuer: server.baseURL, clientID: "sdk-test")
        let discovery = await #expect(throws: LatchkeyClientError.self) { try await client.discover() }
        #expect(discovery?.code == .untrustedServer, "\(String(describing: discovery?.reasons))")

        let metadata = try AuthorizationServerMetadata(
            issuer: server.baseURL, authorizationEndpoint: server.baseURL.appendingPathComponent("oauth/authorize"),
            tokenEndpoint: server.baseURL.appendingPathComponent("oauth/token"),
            revocationEndpoint: server.baseURL.appendingPathComponent("oauth/revoke"),
            authorizationResponseIssParameterSupported: true)
        let revocation = await #expect(throws: LatchkeyClientError.self) {
            try await client.revoke(ClientSecret("a-refresh-token"), metadata: metadata)
        }
        #expect(revocation?.code == .untrustedServer)
        let request = try client.makeAuthorizationRequest(metadata: metadata, redirectURI: URL(string: "http://127.0.0.1/callback")!)
        let exchange = await #expect(throws: LatchkeyClientError.self) {
            try await client.exchange(code: ClientSecret("a-code"), for: request)
        }
        #expect(exchange?.code == .untrustedServer)
        #expect(!server.serverLog().contains("\"route\":\"oauth_token\""))
    }

    @Test("libcurl's certificate failures, which Foundation on Linux reports as unknown errors, are untrusted_server", arguments: [
        ("SSL certificate problem: self-signed certificate", LatchkeyClientError.Code.untrustedServer),
        ("SSL certificate problem: unable to get local issuer certificate", .untrustedServer),
        ("SSL: no alternative certificate subject name matches target host name 'example.com'", .untrustedServer),
        ("Failure when receiving data from the peer", .unexpectedResponse),
    ])
    func curlCertificateMessages(message: String, code: LatchkeyClientError.Code) {
        let error = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message])
        #expect(LatchkeyClientError.from(urlError: error).code == code)
    }
}
