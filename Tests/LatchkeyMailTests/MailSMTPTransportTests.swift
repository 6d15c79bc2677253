import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyMail
import Testing
import LatchkeyTestSupport

/// The aiosmtpd server in e2e/smtp_server.py, run as a subprocess for one test.
final class TestSMTPServer {
    enum Mode: String {
        case startTLS = "starttls"
        case implicitTLS = "implicit-tls"
        case plain
    }

    /// What the server recorded for one received message (see e2e/smtp_server.py).
    struct Received: Decodable {
        let mail_from: String
        let rcpt_tos: [String]
        let auth_user: String?
        let tls: Bool
        let raw: String
        let subject: String
        let from: String
        let to: String
        let content_type: String
        let text: String?
        let html: String?
        let defects: [String]
    }

    static let python = PythonHelper.python
    static let user = "mailer"
    static let password = "correct horse battery staple"

    let folder: TemporaryDirectory
    private let helper: PythonHelper
    var port: Int { helper.port }

    /// The server's self-signed certificate, to trust as the CA file.
    var certificatePath: String { folder.url.appendingPathComponent("cert.pem").path }

    init(mode: Mode) throws {
        folder = try TemporaryDirectory(prefix: "latchkey-smtp")
        helper = try PythonHelper(
            script: "smtp_server.py",
            arguments: ["--outdir", folder.url.path, "--mode", mode.rawValue, "--user", Self.user, "--password", Self.password],
            errorLog: folder.url.appendingPathComponent("server.log"))
    }

    /// Every message received so far, in arrival order.
    func received() throws -> [Received] {
        let names = try folder.fileNames().filter { $0.hasSuffix(".json") }
            .sorted { Int($0.dropLast(5)) ?? 0 < Int($1.dropLast(5)) ?? 0 }
        return try names.map {
            try JSONDecoder().decode(Received.self, from: Data(contentsOf: folder.url.appendingPathComponent($0)))
        }
    }
}

@Suite(.enabled(if: TestSMTPServer.python != nil, "LATCHKEY_TEST_PYTHON names a Python with aiosmtpd"))
struct MailSMTPTransportTests {
    let sender: MailSender

    init() throws {
        sender = try MailSender(address: "no-reply@latchkey.example", displayName: "Latchkey — Demo")
    }

    func transport(
        _ server: TestSMTPServer, scheme: String = "smtp", password: String = TestSMTPServer.password,
        authenticate: Bool = true, trustServer: Bool = true, insecure: Bool = false
    ) throws -> SMTPMailTransport {
        try SMTPMailTransport(configuration: SMTPConfiguration(
            url: "\(scheme)://127.0.0.1:\(server.port)",
            username: authenticate ? TestSMTPServer.user : nil,
            password: authenticate ? Redacted(password) : nil,
            sender: sender, allowInsecureLoopback: insecure, timeout: 20,
            caFile: trustServer ? server.certificatePath : nil
        ))
    }

    @Test("mail goes out over STARTTLS with AUTH and arrives with the link intact")
    func startTLSDelivery() throws {
        let server = try TestSMTPServer(mode: .startTLS)
        let message = try makeResetMail(id: "smtp-1", to: "alice@example.com", language: .ar, link: longResetLink)
        try transport(server).send(message)

        let received = try server.received()
        try #require(received.count == 1)
        let mail = received[0]
        #expect(mail.tls)
        #expect(mail.auth_user == TestSMTPServer.user)
        #expect(mail.mail_from == "no-reply@latchkey.example")
        #expect(mail.rcpt_tos == ["alice@example.com"])
        #expect(mail.defects.isEmpty)
        #expect(mail.content_type == "multipart/alternative")
        #expect(mail.subject == message.subject)
        #expect(mail.from == "Latchkey — Demo <no-reply@latchkey.example>")
        // Python's email parser decodes the parts on its own; the link must be whole.
        let text = try #require(mail.text)
        #expect(text.withUnixLineEnds == message.textBody)
        #expect(text.withUnixLineEnds.components(separatedBy: "\n").contains(longResetLink))
        #expect(try #require(mail.html).withUnixLineEnds == message.htmlBody)
        // The server got exactly the bytes the .eml writer produces.
        let parsed = try ParsedMail(Data(mail.raw.utf8))
        #expect(parsed.body("text/plain")?.withUnixLineEnds == message.textBody)
        // The Arabic text part travelled as 8-bit UTF-8, its link whole on a line of its own.
        #expect(parsed.parts.first?.headers["content-transfer-encoding"] == "8bit")
        #expect(mail.raw.contains("\r\n\(longResetLink)\r\n"))
    }

    @Test("mail goes out over implicit TLS (smtps://)")
    func implicitTLSDelivery() throws {
        let server = try TestSMTPServer(mode: .implicitTLS)
        let message = try makeResetMail(id: "smtps-1", link: longResetLink)
        try transport(server, scheme: "smtps").send(message)
        let received = try server.received()
        try #require(received.count == 1)
        #expect(received[0].tls)
        #expect(received[0].auth_user == TestSMTPServer.user)
        #expect(received[0].text?.contains(longResetLink) == true)
    }

    @Test("a wrong password is a delivery error that does not contain the password")
    func wrongPassword() throws {
        let server = try TestSMTPServer(mode: .startTLS)
        let wrong = "not-the-right-password"
        let error = try #require(throws: LatchkeyError.self) {
            try transport(server, password: wrong).send(makeResetMail(link: longResetLink))
        }
        #expect(error.code == .mailDelivery)
        #expect(error.message.contains("username or password"))
        #expect(!error.description.contains(wrong))
        #expect(!error.description.contains("token="))
        #expect(try server.received().isEmpty)
    }

    @Test("the recorded conversation shows TLS, the AUTH verdict and the replies, never a credential or the message")
    func recordedConversation() throws {
        let server = try TestSMTPServer(mode: .startTLS)
        let message = try makeResetMail(link: longResetLink)
        let (accepted, noFailure) = try transport(server).sendRecordingConversation(message)
        #expect(noFailure == nil)
        #expect(accepted.tls?.hasPrefix("TLSv1.3") == true)
        #expect(accepted.authentication?.hasPrefix("235") == true)
        #expect(accepted.lastReply?.hasPrefix("221") == true || accepted.lastReply?.hasPrefix("250") == true)
        #expect(accepted.lines.contains("> STARTTLS"))
        #expect(accepted.lines.contains("> MAIL FROM:<no-reply@latchkey.example>"))
        #expect(accepted.lines.contains { $0.hasPrefix("> AUTH ") })
        let wrong = "not-the-right-password"
        let (refused, failure) = try transport(server, password: wrong).sendRecordingConversation(message)
        #expect(failure?.code == .mailDelivery)
        #expect(refused.authentication?.hasPrefix("535") == true)
        for conversation in [accepted, refused] {
            let text = conversation.lines.joined(separator: "\n")
            let plain = Data("\0\(TestSMTPServer.user)\0".utf8)
            for secret in [TestSMTPServer.password, wrong, Data(TestSMTPServer.password.utf8).base64EncodedString(),
                           (plain + Data(TestSMTPServer.password.utf8)).base64EncodedString(),
                           (plain + Data(wrong.utf8)).base64EncodedString(), "token=", "Subject:"] {
                #expect(!text.contains(secret), "\(secret)")
            }
            #expect(conversation.lines.count <= 200 && conversation.lines.allSatisfy { $0.count <= 300 })
        }
        #expect(try server.received().count == 1)
    }

    @Test("a server without STARTTLS gets nothing: no plain-text send")
    func noStartTLSRefused() throws {
        let server = try TestSMTPServer(mode: .plain)
        let error = try #require(throws: LatchkeyError.self) {
            try transport(server, trustServer: false).send(makeResetMail(link: longResetLink))
        }
        #expect(error.code == .mailDelivery)
        #expect(error.message.contains("STARTTLS"))
        #expect(!error.description.contains(TestSMTPServer.password))
        #expect(try server.received().isEmpty)
    }

    @Test("plain text to a loopback relay works when explicitly allowed")
    func plainTextLoopbackAllowed() throws {
        let server = try TestSMTPServer(mode: .plain)
        let message = try makeResetMail(id: "plain-1", link: longResetLink)
        try transport(server, authenticate: false, trustServer: false, insecure: true).send(message)
        let received = try server.received()
        try #require(received.count == 1)
        #expect(!received[0].tls)
        #expect(received[0].auth_user == nil)
        #expect(received[0].text?.withUnixLineEnds == message.textBody)
    }

    @Test("an untrusted certificate is refused: verification is on by default")
    func untrustedCertificate() throws {
        let server = try TestSMTPServer(mode: .startTLS)
        let error = try #require(throws: LatchkeyError.self) {
            try transport(server, trustServer: false).send(makeResetMail(link: longResetLink))
        }
        #expect(error.code == .mailDelivery)
        #expect(error.message.contains("TLS"))
        #expect(try server.received().isEmpty)
    }

    @Test("an unreachable server is a delivery error")
    func unreachable() throws {
        // Start and stop a server to get a port nothing listens on any more.
        let port = try TestSMTPServer(mode: .plain).port
        let transport = try SMTPMailTransport(configuration: SMTPConfiguration(
            url: "smtp://127.0.0.1:\(port)", sender: sender, allowInsecureLoopback: true, timeout: 20
        ))
        let error = try #require(throws: LatchkeyError.self) { try transport.send(makeResetMail(link: longResetLink)) }
        #expect(error.code == .mailDelivery)
        #expect(error.message == "The mail server could not be reached.")
    }
}
