import Foundation
import LatchkeyCore
import LatchkeyMail
import Testing
import LatchkeyTestSupport

/// `latchkey outbox show` reads back what the file transport wrote.
@Suite struct WrittenMailTests {
    let clock = ManualClock()

    @Test("a written mail reads back with its recipient, subject and a reset link whole, in every language")
    func readsBack() throws {
        let folder = try TemporaryDirectory()
        let directory = folder.url.appendingPathComponent("outbox")
        let transport = try FileMailTransport(
            directory: directory, sender: MailSender(address: "no-reply@latchkey.example", displayName: "Latchkey Démo"), clock: clock)
        for (index, language) in SupportedLanguage.allCases.enumerated() {
            try transport.send(makeResetMail(id: "msg-\(index)", to: "person\(index)@example.com", language: language, link: longResetLink))
        }

        let mails = try WrittenMail.all(in: directory)
        #expect(mails.map(\.id).sorted() == SupportedLanguage.allCases.indices.map { "msg-\($0)" })
        for (index, language) in SupportedLanguage.allCases.enumerated() {
            let mail = try #require(mails.first { $0.id == "msg-\(index)" })
            let expected = try makeResetMail(id: "msg-\(index)", language: language, link: longResetLink)
            #expect(mail.recipient == "person\(index)@example.com")
            #expect(mail.subject == expected.subject)
            #expect(mail.sender == "Latchkey Démo <no-reply@latchkey.example>")
            #expect(mail.dateText == "Fri, 15 Jan 2027 08:00:00 +0000")
            // The link is on one line of the decoded text, exactly as sent.
            #expect(mail.textBody.split(separator: "\n").contains { $0.contains(longResetLink) })
            #expect(mail.textBody == expected.textBody.replacingOccurrences(of: "\r\n", with: "\n"))
        }
    }

    @Test("files that are not mail are skipped, and a single-part 8bit message reads too")
    func otherFiles() throws {
        let folder = try TemporaryDirectory()
        try Data("not a mail".utf8).write(to: folder.url.appendingPathComponent("notes.txt"))
        try Data("partial".utf8).write(to: folder.url.appendingPathComponent(".msg-9.123.tmp"))
        let plain = """
            From: a@example.com\r
            To: b@example.com\r
            Subject: =?UTF-8?Q?Redefini=C3=A7=C3=A3o?= de senha\r
            Date: Fri, 15 Jan 2027 08:00:00 +0000\r
            Content-Type: text/plain; charset=UTF-8\r
            Content-Transfer-Encoding: 8bit\r
            \r
            Olá: https://example.com/reset-password#token=\(String(repeating: "x", count: 43))\r

            """
        try Data(plain.utf8).write(to: folder.url.appendingPathComponent("msg-8.eml"))
        let mails = try WrittenMail.all(in: folder.url)
        let mail = try #require(mails.first)
        #expect(mails.count == 1)
        #expect(mail.subject == "Redefinição de senha")
        #expect(mail.textBody == "Olá: https://example.com/reset-password#token=\(String(repeating: "x", count: 43))\n")
    }
}
