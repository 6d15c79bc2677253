import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyHTTP
import Testing
import LatchkeyTestSupport

extension TestCertificate {
    /// The certificate and key as the server takes them.
    fileprivate func credentials() throws -> TLSCredentials {
        try TLSCredentials(
            certificateChainPEM: String(contentsOfFile: certificatePath, encoding: .utf8),
            privateKeyPEM: Redacted(String(contentsOfFile: keyPath, encoding: .utf8)))
    }
}

/// Answers every request with 200 `hello`.
private struct HelloHandler: HTTPHandler {
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Data("hello".utf8))
    }
}

/// Answers every request with the same response value.
private struct FixedHandler: HTTPHandler {
    let answer: HTTPResponse

    func handle(_ request: HTTPRequest) -> HTTPResponse { answer }
}

@Suite struct HTTPSServerTests {
    private func startedServer(_ certificate: TestCertificate) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, maxBodyBytes: 1024, tls: try certificate.credentials()),
            handler: HelloHandler())
        try server.start()
        return server
    }

    /// `openssl s_client` limited to one TLS version; the low security level lets the client
    /// offer TLS 1.1 at all, so a refusal comes from the server.
    private func handshake(port: Int, version: String, certificate: TestCertificate) throws -> (succeeded: Bool, output: String) {
        let (status, output) = try ChildProcess.run("openssl", [
            "s_client", "-connect", "127.0.0.1:\(port)", "-\(version)", "-cipher", "DEFAULT:@SECLEVEL=0",
            "-CAfile", certificate.certificatePath, "-verify_return_error",
        ])
        return (status == 0, output)
    }

    @Test("HTTPS answers with the handler's response and Strict-Transport-Security, also on the server's own 413")
    func servesHTTPS() throws {
        let certificate = try TestCertificate()
        let server = try startedServer(certificate)
        defer { server.stop() }
        let url = "https://127.0.0.1:\(server.boundPort)/anything"

        let ok = try ChildProcess.succeed("curl", ["-sS", "--cacert", certificate.certificatePath, "-D", "-", url])
        #expect(ok.hasPrefix("HTTP/1.1 200"))
        #expect(ok.contains("Strict-Transport-Security: max-age=31536000\r\n"))
        #expect(ok.hasSuffix("\r\n\r\nhello"))

        let tooLarge = try ChildProcess.succeed("curl", [
            "-sS", "--cacert", certificate.certificatePath, "-D", "-", "-o", "/dev/null",
            "-H", "Content-Type: application/json", "--data", String(repeating: "x", count: 2048), url,
        ])
        #expect(tooLarge.hasPrefix("HTTP/1.1 413"))
        #expect(tooLarge.contains("Strict-Transport-Security: max-age=31536000\r\n"))
    }

    @Test("one reusable response goes out with Strict-Transport-Security over HTTPS and without it over plain HTTP")
    func reusableResponseFollowsTheTransport() throws {
        let certificate = try TestCertificate()
        var answer = HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Data("hello".utf8))
        answer.reusableWire = ReusableWireResponse()
        let handler = FixedHandler(answer: answer)
        let plain = HTTPServer(configuration: HTTPServerConfiguration(port: 0), handler: handler)
        try plain.start()
        defer { plain.stop() }
        let secure = HTTPServer(configuration: HTTPServerConfiguration(port: 0, tls: try certificate.credentials()), handler: handler)
        try secure.start()
        defer { secure.stop() }
        let overHTTP = { try ChildProcess.succeed("curl", ["-sS", "-D", "-", "http://127.0.0.1:\(plain.boundPort)/"]) }
        let overHTTPS = {
            try ChildProcess.succeed("curl", ["-sS", "--cacert", certificate.certificatePath, "-D", "-", "https://127.0.0.1:\(secure.boundPort)/"])
        }

        // Plain HTTP first, so a form built without the header exists before HTTPS asks.
        for (answered, overTLS) in [(try overHTTP(), false), (try overHTTPS(), true), (try overHTTP(), false), (try overHTTPS(), true)] {
            #expect(answered.hasPrefix("HTTP/1.1 200") && answered.hasSuffix("\r\n\r\nhello"))
            #expect(answered.contains("Strict-Transport-Security: max-age=31536000\r\n") == overTLS)
        }
    }

    @Test("TLS 1.2 and 1.3 handshakes succeed; TLS 1.1 is refused by the server")
    func protocolVersions() throws {
        let certificate = try TestCertificate()
        let server = try startedServer(certificate)
        defer { server.stop() }

        let tls12 = try handshake(port: server.boundPort, version: "tls1_2", certificate: certificate)
        #expect(tls12.succeeded)
        #expect(tls12.output.contains("Protocol  : TLSv1.2"))
        let tls13 = try handshake(port: server.boundPort, version: "tls1_3", certificate: certificate)
        #expect(tls13.succeeded)
        #expect(tls13.output.contains("TLSv1.3"))
        let tls11 = try handshake(port: server.boundPort, version: "tls1_1", certificate: certificate)
        #expect(!tls11.succeeded)
        #expect(tls11.output.contains("no peer certificate available"))
        // The client did connect and offer TLS 1.1 (it can: no "no protocols available");
        // the server ended the handshake.
        #expect(tls11.output.contains("CONNECTED"))
        #expect(!tls11.output.contains("no protocols available"))
    }

    @Test("plain HTTP to the HTTPS port gets no HTTP answer, and HTTPS keeps working")
    func plainHTTPRefused() throws {
        let certificate = try TestCertificate()
        let server = try startedServer(certificate)
        defer { server.stop() }

        let connection = try RawHTTPConnection(port: server.boundPort, receiveTimeoutSeconds: 5)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(throws: RawHTTPError.self) { try connection.readResponse() }

        let ok = try ChildProcess.succeed("curl", [
            "-sS", "--cacert", certificate.certificatePath, "https://127.0.0.1:\(server.boundPort)/",
        ])
        #expect(ok == "hello")
    }

    @Test("a key that is not the certificate's stops start-up with an error about the certificate or key")
    func mismatchedKey() throws {
        let certificate = try TestCertificate()
        let other = try TestCertificate()
        let credentials = try TLSCredentials(
            certificateChainPEM: String(contentsOfFile: certificate.certificatePath, encoding: .utf8),
            privateKeyPEM: Redacted(String(contentsOfFile: other.keyPath, encoding: .utf8)))
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, tls: credentials), handler: HelloHandler())
        let error = try #require(throws: LatchkeyError.self) { try server.start() }
        #expect(error.code == .httpServer)
        #expect(error.message.contains("certificate or key"))
        #expect(!error.description.contains("PRIVATE KEY"))
    }
}
