import Foundation
import LatchkeyCore
import LatchkeyMail
import Testing
import LatchkeyTestSupport

@Suite struct MailFileTransportTests {
    let clock = ManualClock()

    func makeTransport(_ folder: TemporaryDirectory, name: String? = "Latchkey Demo", subfolder: String = "outbox") throws -> FileMailTransport {
        try FileMailTransport(
            directory: folder.url.appendingPathComponent(subfolder),
            sender: MailSender(address: "no-reply@latchkey.example", displayName: name),
            clock: clock
        )
    }

    func readMail(_ folder: TemporaryDirectory, id: String, subfolder: String = "outbox") throws -> (Data, ParsedMail) {
        let data = try Data(contentsOf: folder.url.appendingPathComponent("\(subfolder)/\(id).eml"))
        return (data, try ParsedMail(data))
    }

    @Test("an .eml file carries the headers a mail client expects")
    func headers() throws {
        let folder = try TemporaryDirectory()
        let transport = try makeTransport(folder)
        try transport.send(makeResetMail(id: "msg-42", link: longResetLink))
        let (_, mail) = try readMail(folder, id: "msg-42")

        #expect(mail.headers["from"] == "\"Latchkey Demo\" <no-reply@latchkey.example>")
        #expect(mail.headers["to"] == "alice@example.com")
        #expect(mail.headers["subject"] == "Reset your Latchkey password")
        #expect(mail.headers["date"] == "Fri, 15 Jan 2027 08:00:00 +0000")
        #expect(mail.headers["message-id"] == "<msg-42@latchkey.example>")
        #expect(mail.headers["mime-version"] == "1.0")
        #expect(mail.headers["content-language"] == "en")
        #expect(mail.headers["content-type"] == "multipart/alternative; boundary=\"\(mail.boundary)\"")
        #expect(mail.boundary.count >= 20 && mail.boundary.count <= 70)
        #expect(mail.parts.map { $0.headers["content-type"] } == ["text/plain; charset=UTF-8", "text/html; charset=UTF-8"])
    }

    @Test("every line is CRLF-terminated and within the limits: headers 7-bit (78), HTML quoted-printable (76), text 998 octets")
    func lineLimits() throws {
        let folder = try TemporaryDirectory()
        let transport = try makeTransport(folder, name: "تطبيق لاتشكي التجريبي مع اسم طويل جدًا للمرسل")
        for language in SupportedLanguage.allCases {
            try transport.send(makeResetMail(id: "m-\(language.rawValue)", language: language, link: longResetLink))
            let (data, mail) = try readMail(folder, id: "m-\(language.rawValue)")
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
            #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
            #expect(text.hasSuffix("\r\n"))
            #expect(mail.rawHeaderLines.allSatisfy { $0.count <= 78 })
            #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 998 })
            let html = try #require(mail.parts.first { $0.headers["content-type"]?.hasPrefix("text/html") == true })
            #expect(html.headers["content-transfer-encoding"] == "quoted-printable")
            #expect(html.rawBody.utf8.allSatisfy { $0 < 0x80 } && html.rawBody.components(separatedBy: "\r\n").allSatisfy { $0.count <= 76 })
            // Every language's text goes beyond ASCII (English has its typographic apostrophe).
            let plain = try #require(mail.parts.first { $0.headers["content-type"]?.hasPrefix("text/plain") == true })
            #expect(plain.headers["content-transfer-encoding"] == "8bit")
        }
        try transport.send(MailMessage(id: "ascii", to: "bob@example.com", subject: "Hi", textBody: "Plain ASCII.\n", htmlBody: "<p>x</p>", locale: "en"))
        let plain = try #require(try readMail(folder, id: "ascii").1.parts.first)
        #expect(plain.headers["content-transfer-encoding"] == "7bit")
        #expect(plain.decodedBody == "Plain ASCII.\r\n")
    }

    @Test("the text part is sent as it is, so the file shows the reset link whole on a line of its own",
          arguments: SupportedLanguage.allCases)
    func linkWholeInTheFile(language: SupportedLanguage) throws {
        let folder = try TemporaryDirectory()
        let transport = try makeTransport(folder)
        try transport.send(makeResetMail(id: "raw", language: language, link: longResetLink))
        let (data, _) = try readMail(folder, id: "raw")
        // What `cat` shows: the link, exactly, between line breaks; no `=` escapes or soft breaks.
        let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.contains(longResetLink))
        #expect(lines.contains(language.catalogue.passwordResetMail.validity(30)))
    }

    @Test("a text part that cannot go as it is (a line over 998 octets, a control character) is quoted-printable")
    func quotedPrintableFallback() throws {
        let folder = try TemporaryDirectory()
        let transport = try makeTransport(folder)
        for (id, body) in [("long", String(repeating: "é", count: 500)), ("control", "bell\u{7}")] {
            try transport.send(MailMessage(id: id, to: "bob@example.com", subject: "QP", textBody: body, htmlBody: "<p>x</p>", locale: "en"))
            let (_, mail) = try readMail(folder, id: id)
            let plain = try #require(mail.parts.first)
            #expect(plain.headers["content-transfer-encoding"] == "quoted-printable")
            #expect(plain.decodedBody == body)
            #expect(plain.rawBody.utf8.allSatisfy { $0 < 0x80 })
        }
    }

    @Test("each file written is logged with its path, so a developer finds the mail")
    func mailWrittenIsLogged() throws {
        let folder = try TemporaryDirectory()
        let sink = MemoryLogSink()
        let transport = try FileMailTransport(
            directory: folder.url.appendingPathComponent("outbox"), sender: MailSender(address: "no-reply@latchkey.example"),
            clock: clock, logger: Logger(sink: sink, clock: clock))
        try transport.send(makeResetMail(id: "logged", link: longResetLink))
        let path = folder.url.appendingPathComponent("outbox/logged.eml").path
        let written = try sink.lines.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "mail_written" }
        #expect(written.count == 1)
        #expect(written.first?["path"] as? String == path)
        #expect(written.first?["message_id"] as? String == "logged")
        #expect(!sink.lines.joined().contains("token="))
    }

    @Test("both bodies decode back exactly and the long reset link survives intact", arguments: SupportedLanguage.allCases)
    func roundTrip(language: SupportedLanguage) throws {
        let folder = try TemporaryDirectory()
        let transport = try makeTransport(folder)
        let message = try makeResetMail(id: "rt", language: language, link: longResetLink)
        try transport.send(message)
        let (data, mail) = try readMail(folder, id: "rt")

        let text = try #require(mail.body("text/plain"))
        let html = try #require(mail.body("text/html"))
        #expect(text.withUnixLineEnds == message.textBody)
        #expect(html.withUnixLineEnds == message.htmlBody)
        #expect(text.components(separatedBy: "\r\n").contains(longResetLink))
        #expect(html.contains("href=\"\(longResetLink)\""))
        #expect(String(decoding: data, as: UTF8.self).contains("\r\n\(longResetLink)\r\n"))
        #expect(mail.headers["subject"] == message.subject)
    }

    @Test("non-ASCII subject and sender name are RFC 2047 encoded and decode back")
    func encodedWords() throws {
        let folder = try TemporaryDirectory()
        let transport = try makeTransport(folder, name: "Chave Mestra — Ação")
        let message = try makeResetMail(id: "ar", language: .ar, link: longResetLink)
        try transport.send(message)
        let (_, mail) = try readMail(folder, id: "ar")
        #expect(mail.rawHeaderLines.contains { $0.hasPrefix("Subject: =?UTF-8?B?") })
        #expect(mail.rawHeaderLines.contains { $0.hasPrefix("From: =?UTF-8?B?") })
        #expect(mail.headers["subject"] == message.subject)
        #expect(message.subject == "إعادة تعيين كلمة المرور لحسابك في \u{2068}Latchkey\u{2069}")
        #expect(mail.headers["from"] == "Chave Mestra — Ação <no-reply@latchkey.example>")
        #expect(mail.headers["content-language"] == "ar")
    }

    @Test("quoted-printable keeps trailing spaces, equals signs and leading dots intact")
    func quotedPrintableEdges() throws {
        let folder = try TemporaryDirectory()
        let transport = try makeTransport(folder, name: nil)
        let body = ".starts with a dot\ntrailing space \na=b and tab\t\n" + String(repeating: "é", count: 80) + "\r\nend"
        try transport.send(MailMessage(id: "qp", to: "bob@example.com", subject: "QP", textBody: body, htmlBody: "<p>x</p>", locale: "en"))
        let (_, mail) = try readMail(folder, id: "qp")
        #expect(mail.headers["from"] == "no-reply@latchkey.example")
        #expect(try #require(mail.body("text/plain")) == body.withUnixLineEnds.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(!mail.rawBodyLines.contains { $0.hasPrefix(".") })
        #expect(mail.rawBodyLines.contains("=2Estarts with a dot"))
        #expect(mail.rawBodyLines.contains("trailing space=20"))
        #expect(mail.rawBodyLines.contains("a=3Db and tab=09"))
    }

    @Test("mail files are readable by the owner only, in a private folder, with no temporary file left")
    func permissions() throws {
        let folder = try TemporaryDirectory()
        let transport = try makeTransport(folder, subfolder: "data/outbox")
        try transport.send(makeResetMail(id: "perm", link: longResetLink))
        let fileAttributes = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("data/outbox/perm.eml").path)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("data/outbox").path)
        #expect((fileAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(try folder.fileNames(in: "data/outbox") == ["perm.eml"])
    }

    @Test("sending the same message again replaces its file")
    func resendReplaces() throws {
        let folder = try TemporaryDirectory()
        let transport = try makeTransport(folder)
        try transport.send(makeResetMail(id: "again", link: longResetLink))
        clock.advance(by: 60)
        try transport.send(makeResetMail(id: "again", link: longResetLink))
        #expect(try folder.fileNames(in: "outbox") == ["again.eml"])
        #expect(try readMail(folder, id: "again").1.headers["date"] == "Fri, 15 Jan 2027 08:01:00 +0000")
    }

    @Test("line breaks and control characters in any header value are refused")
    func headerInjection() throws {
        for name in ["Evil\r\nBcc: victim@example.com", "Evil\nX: y", "Evil\u{0}", "Evil\u{2028}Bcc: x"] {
            #expect(throws: LatchkeyError.self) { try MailSender(address: "no-reply@latchkey.example", displayName: name) }
        }
        for address in ["no-reply@latchkey.example\r\nBcc: x@y.z", "a b@example.com", "<a@example.com>", "a@example.com, b@example.com", "no-at-sign", "a@@b", "é@example.com"] {
            let error = #expect(throws: LatchkeyError.self) { try MailSender(address: address) }
            #expect(error?.code == .invalidMailHeader)
            #expect(error?.description.contains(address) == false)
        }
        #expect(throws: LatchkeyError.self) {
            try MailMessage(id: "x", to: "a@example.com", subject: "Hi\r\nBcc: victim@example.com", textBody: "", htmlBody: "", locale: "en")
        }
        #expect(throws: LatchkeyError.self) {
            try MailMessage(id: "x", to: "a@example.com\nBcc: v@example.com", subject: "Hi", textBody: "", htmlBody: "", locale: "en")
        }

        // Values MailMessage lets through but a header or file name must not carry.
        let folder = try TemporaryDirectory()
        let transport = try makeTransport(folder)
        let unsafe = [
            try MailMessage(id: "x1", to: "a@example.com, b@example.com", subject: "Hi", textBody: "", htmlBody: "", locale: "en"),
            try MailMessage(id: "x2", to: "Name <a@example.com>", subject: "Hi", textBody: "", htmlBody: "", locale: "en"),
            try MailMessage(id: "x3", to: "a@example.com", subject: "Hi\u{2029}Bcc: v@example.com", textBody: "", htmlBody: "", locale: "en"),
            try MailMessage(id: "../escape", to: "a@example.com", subject: "Hi", textBody: "", htmlBody: "", locale: "en"),
            try MailMessage(id: "x4", to: "a@example.com", subject: "Hi", textBody: "", htmlBody: "", locale: "en\"; x"),
        ]
        for message in unsafe {
            let error = #expect(throws: LatchkeyError.self) { try transport.send(message) }
            #expect(error?.code == .invalidMailHeader)
        }
        #expect(try folder.fileNames(in: "outbox").isEmpty)
    }

    @Test("a folder that cannot be created stops start-up with a configuration error")
    func unusableFolder() throws {
        let folder = try TemporaryDirectory()
        let blocker = folder.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let error = #expect(throws: LatchkeyError.self) {
            try FileMailTransport(directory: blocker.appendingPathComponent("outbox"), sender: MailSender(address: "a@example.com"))
        }
        #expect(error?.code == .invalidConfiguration)
    }
}
