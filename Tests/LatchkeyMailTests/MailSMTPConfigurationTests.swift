import LatchkeyCrypto
import LatchkeyCore
import LatchkeyMail
import Testing

@Suite struct MailSMTPConfigurationTests {
    let sender: MailSender

    init() throws {
        sender = try MailSender(address: "no-reply@latchkey.example")
    }

    func configuration(_ url: String, insecure: Bool = false) throws -> SMTPConfiguration {
        try SMTPConfiguration(url: url, sender: sender, allowInsecureLoopback: insecure)
    }

    @Test("smtps:// means TLS from the start and smtp:// means STARTTLS is required")
    func tlsModes() throws {
        #expect(try configuration("smtps://mail.example.com:465").security == .implicitTLS)
        #expect(try configuration("smtp://mail.example.com:587").security == .startTLS)
        #expect(try configuration("SMTP://127.0.0.1:25").security == .startTLS)
        #expect(try configuration("smtp://mail.example.com").allowsPlainText == false)
    }

    @Test("plain text is allowed only to a loopback host, and only when asked for", arguments: [
        "smtp://127.0.0.1:1025", "smtp://127.42.0.9:25", "smtp://localhost:1025", "smtp://LOCALHOST", "smtp://[::1]:1025",
    ])
    func plainTextLoopback(url: String) throws {
        #expect(try configuration(url, insecure: true).security == .plainTextLoopback)
        #expect(try configuration(url, insecure: false).security == .startTLS)
    }

    @Test("plain text to any other host stops start-up naming LATCHKEY_SMTP_URL", arguments: [
        "smtp://mail.example.com:25", "smtp://10.0.0.5:25", "smtp://128.0.0.1", "smtp://127.0.0.1.example.com",
        "smtp://127.1", "smtp://[::ffff:127.0.0.1]:25", "smtp://localhost.example.com",
    ])
    func plainTextElsewhere(url: String) {
        let error = #expect(throws: LatchkeyError.self) { try configuration(url, insecure: true) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.hasPrefix("LATCHKEY_SMTP_URL") == true)
    }

    @Test("a URL that is not a bare smtp(s)://host:port is refused", arguments: [
        "http://mail.example.com", "mail.example.com:587", "", "smtp://", "smtp://user:pw@mail.example.com",
        "smtp://mail.example.com/path", "smtp://mail.example.com?x=1", "smtp://mail.example.com#f",
    ])
    func badURLs(url: String) {
        let error = #expect(throws: LatchkeyError.self) { try configuration(url) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("LATCHKEY_SMTP_URL") == true)
        #expect(error?.description.contains("pw") == false)
    }

    @Test("credentials come in pairs, the timeout is positive and the CA file exists")
    func otherSettings() throws {
        let url = "smtps://mail.example.com"
        #expect(throws: LatchkeyError.self) { try SMTPConfiguration(url: url, username: "u", sender: sender) }
        #expect(throws: LatchkeyError.self) { try SMTPConfiguration(url: url, password: Redacted("p"), sender: sender) }
        #expect(throws: LatchkeyError.self) { try SMTPConfiguration(url: url, username: "u\r\nx", password: Redacted("p"), sender: sender) }
        #expect(throws: LatchkeyError.self) { try SMTPConfiguration(url: url, sender: sender, timeout: 0) }
        #expect(throws: LatchkeyError.self) { try SMTPConfiguration(url: url, sender: sender, timeout: .nan) }
        let missing = #expect(throws: LatchkeyError.self) { try SMTPConfiguration(url: url, sender: sender, caFile: "/nonexistent/ca.pem") }
        #expect(missing?.message.contains("LATCHKEY_SMTP_CA_FILE") == true)
        let valid = try SMTPConfiguration(url: url, username: "u", password: Redacted("hunter2-pw"), sender: sender, timeout: 5)
        #expect(valid.username == "u")
        var dumped = ""
        dump(valid, to: &dumped)
        #expect(!dumped.contains("hunter2-pw"))
        #expect(!"\(valid)".contains("hunter2-pw"))
    }
}
