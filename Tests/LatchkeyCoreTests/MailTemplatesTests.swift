import Foundation
import LatchkeyCrypto
import LatchkeyCore
import Testing

@Suite struct MailTemplatesTests {
    let templates = MailTemplates()
    let link = "https://app.example.com/reset-password#token=s3cr3t-T0ken_value"
    /// 2030-01-15 08:05:09 UTC.
    let changedAt = Date(timeIntervalSince1970: 1_894_694_709)

    @Test("both mails render in every language with that language's own words", arguments: SupportedLanguage.allCases)
    func everyLanguage(language: SupportedLanguage) throws {
        let reset = try templates.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: "a@example.com", language: language, id: "r1")
        let changed = try templates.render(.passwordChanged(resetPageURL: "https://app.example.com/forgot", changedAt: changedAt), to: "a@example.com", language: language, id: "c1")
        for message in [reset, changed] {
            #expect(message.locale == language.rawValue)
            #expect(!message.subject.isEmpty)
            #expect(message.htmlBody.contains("<html lang=\"\(language.rawValue)\" dir=\"\(language.direction)\">"))
            #expect(message.htmlBody.contains("<title>\(message.subject)</title>"))
            #expect(message.textBody.hasSuffix("\n"))
        }
        #expect(reset.subject != changed.subject)
        #expect(reset.textBody.contains("\n\(link)\n"))
        #expect(reset.textBody.contains("30"))
        #expect(changed.textBody.contains("\nhttps://app.example.com/forgot\n"))
    }

    @Test("each language has its own subject and text")
    func languagesDiffer() throws {
        let subjects = try SupportedLanguage.allCases.map {
            try templates.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: "a@example.com", language: $0, id: "r1").subject
        }
        #expect(Set(subjects).count == SupportedLanguage.allCases.count)
        let english = try templates.render(.passwordChanged(resetPageURL: "https://x.example/r", changedAt: changedAt), to: "a@example.com", language: .en, id: "c")
        #expect(english.subject == "Your Latchkey password was changed")
        #expect(english.textBody.unwrapped.contains("If it wasn’t you, someone else may know your password. Reset it now"))
        let spanish = try templates.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: "a@example.com", language: .es, id: "r")
        #expect(spanish.textBody.unwrapped.contains("Si no fuiste tú, puedes ignorar este correo. Tu contraseña seguirá siendo la misma."))
        let portuguese = try templates.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: "a@example.com", language: .pt, id: "r")
        #expect(portuguese.textBody.unwrapped.contains("Alguém pediu para redefinir a senha da conta do Latchkey deste endereço de e-mail."))
    }

    @Test("Arabic mail is written right to left and the others left to right")
    func arabicIsRightToLeft() throws {
        let arabic = try templates.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: "a@example.com", language: .ar, id: "r")
        #expect(arabic.htmlBody.contains("<html lang=\"ar\" dir=\"rtl\">"))
        #expect(arabic.htmlBody.contains("<div lang=\"ar\" dir=\"rtl\""))
        #expect(arabic.subject == "إعادة تعيين كلمة المرور لحسابك في \u{2068}Latchkey\u{2069}")
        #expect(arabic.textBody.contains("يبقى الرابط صالحًا لمدة 30 دقيقة."))
        // The link itself stays left to right inside the right-to-left text.
        #expect(arabic.htmlBody.contains("<p dir=\"ltr\" style=\"margin:0;font-size:13px;text-align:left;word-break:break-all;\"><a href=\"\(link)\""))
        for language in [SupportedLanguage.en, .pt, .es] {
            let message = try templates.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: "a@example.com", language: language, id: "r")
            #expect(message.htmlBody.contains("dir=\"ltr\""))
            #expect(!message.htmlBody.contains("dir=\"rtl\""))
        }
    }

    @Test("the reset link is the button and the fallback in HTML, and on its own line in text")
    func linkPlacement() throws {
        let message = try templates.render(.passwordReset(link: Redacted(link), validMinutes: 45), to: "a@example.com", language: .en, id: "r")
        let lines = message.textBody.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.contains { $0 == link })
        #expect(message.textBody.contains("The link works for 45 minutes."))
        #expect(message.htmlBody.components(separatedBy: "href=\"\(link)\"").count == 3)
        #expect(message.htmlBody.contains(">Choose a new password</a>"))
    }

    @Test("every value placed in HTML is escaped")
    func htmlEscaping() throws {
        let hostile = "https://app.example.com/reset?a=1&b=\"><script>alert('x')</script>"
        let reset = try templates.render(.passwordReset(link: Redacted(hostile), validMinutes: 30), to: "a@example.com", language: .en, id: "r")
        let changed = try templates.render(.passwordChanged(resetPageURL: hostile, changedAt: changedAt), to: "a@example.com", language: .pt, id: "c")
        let escaped = "https://app.example.com/reset?a=1&amp;b=&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
        for message in [reset, changed] {
            #expect(!message.htmlBody.contains("<script>"))
            #expect(message.htmlBody.contains("href=\"\(escaped)\""))
            // Plain text is not HTML: the link stays exactly as given.
            #expect(message.textBody.contains(hostile))
        }
    }

    @Test("minutes are counted in each language's plural forms")
    func minutesPlurals() throws {
        func validity(_ minutes: Int, _ language: SupportedLanguage) throws -> String {
            try templates.render(.passwordReset(link: Redacted(link), validMinutes: minutes), to: "a@example.com", language: language, id: "r").textBody
        }
        #expect(try validity(1, .en).contains("The link works for 1 minute."))
        #expect(try validity(1, .pt).contains("O link vale por 1 minuto."))
        #expect(try validity(15, .pt).contains("O link vale por 15 minutos."))
        #expect(try validity(1, .es).contains("El enlace es válido durante 1 minuto."))
        #expect(try validity(1, .ar).contains("لمدة دقيقة واحدة."))
        #expect(try validity(2, .ar).contains("لمدة دقيقتين."))
        #expect(try validity(5, .ar).contains("لمدة 5 دقائق."))
        #expect(try validity(60, .ar).contains("لمدة 60 دقيقة."))
    }

    @Test("an unsafe link or lifetime is refused and the error does not reveal the link")
    func unsafeLinks() throws {
        for bad in ["javascript://x%0Aalert(1)", "DATA://text/html,x", "not a link", "https://x.example/a b", "https://x.example/\r\nBcc: x", "/relative#token=abc"] {
            let error = try #require(throws: LatchkeyError.self) {
                try templates.render(.passwordReset(link: Redacted(bad), validMinutes: 30), to: "a@example.com", language: .en, id: "r")
            }
            #expect(error.code == .invalidConfiguration)
            #expect(!error.description.contains(bad))
            #expect(throws: LatchkeyError.self) {
                try templates.render(.passwordChanged(resetPageURL: bad, changedAt: changedAt), to: "a@example.com", language: .en, id: "c")
            }
        }
        #expect(throws: LatchkeyError.self) {
            try templates.render(.passwordReset(link: Redacted(link), validMinutes: 0), to: "a@example.com", language: .en, id: "r")
        }
        // An app's own scheme is a legitimate reset link.
        let app = try templates.render(.passwordReset(link: Redacted("myapp://reset#token=abc"), validMinutes: 30), to: "a@example.com", language: .en, id: "r")
        #expect(app.textBody.contains("myapp://reset#token=abc"))
    }

    @Test("a recipient or id that could inject a header is refused before the mail is queued")
    func recipientInjection() {
        for to in ["a@example.com\r\nBcc: evil@example.com", "a@example.com, evil@example.com", "Evil <a@example.com>"] {
            let error = #expect(throws: LatchkeyError.self) {
                try templates.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: to, language: .en, id: "r")
            }
            #expect(error?.code == .invalidMailHeader)
            #expect(error?.description.contains("evil") == false)
        }
        let error = #expect(throws: LatchkeyError.self) {
            try templates.render(.passwordChanged(resetPageURL: link, changedAt: changedAt), to: "a@example.com", language: .en, id: "../../etc/x")
        }
        #expect(error?.code == .invalidMailHeader)
    }

    @Test("the product's name is in every subject and at the top of every message, isolated inside Arabic",
          arguments: SupportedLanguage.allCases)
    func productName(language: SupportedLanguage) throws {
        let branded = MailTemplates(productName: "Acme Notes")
        let reset = try branded.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: "a@example.com", language: language, id: "r")
        let changed = try branded.render(
            .passwordChanged(resetPageURL: "https://x.example/r", changedAt: changedAt), to: "a@example.com", language: language, id: "c")
        let name = language == .ar ? "\u{2068}Acme Notes\u{2069}" : "Acme Notes"
        for message in [reset, changed] {
            #expect(message.subject.contains(name), "\(language): \(message.subject)")
            #expect(message.textBody.unwrapped.contains(name))
            #expect(message.htmlBody.contains("font-weight:700;\">Acme Notes</p>"))
            #expect(!message.subject.contains("Latchkey") && !message.textBody.contains("Latchkey"))
        }
    }

    @Test("the password-changed mail says when, in UTC, and what to do if it was someone else", arguments: SupportedLanguage.allCases)
    func changedMailSaysWhen(language: SupportedLanguage) throws {
        let changed = try templates.render(
            .passwordChanged(resetPageURL: "https://x.example/r", changedAt: changedAt), to: "a@example.com", language: language, id: "c")
        let text = changed.textBody.unwrapped
        #expect(text.contains(language.isolated("2030-01-15")) && text.contains(language.isolated("08:05")) && text.contains("UTC"))
        #expect(text.contains(language.catalogue.passwordChangedMail.ifNotYou))
        #expect(changed.textBody.split(separator: "\n").contains("https://x.example/r"))
        let english = try templates.render(
            .passwordChanged(resetPageURL: "https://x.example/r", changedAt: changedAt), to: "a@example.com", language: .en, id: "c")
        #expect(english.textBody.unwrapped.contains("The password of your Latchkey account was changed on 2030-01-15 at 08:05 UTC."))
    }

    @Test("plain text reads in a terminal: lines of at most 72 characters, every link whole on a line of its own",
          arguments: SupportedLanguage.allCases)
    func plainTextLines(language: SupportedLanguage) throws {
        let longLink = "https://app.example.com/reset-password#token=" + String(repeating: "Ab3_-x9Z", count: 12)
        let reset = try templates.render(.passwordReset(link: Redacted(longLink), validMinutes: 30), to: "a@example.com", language: language, id: "r")
        let changed = try templates.render(
            .passwordChanged(resetPageURL: longLink, changedAt: changedAt), to: "a@example.com", language: language, id: "c")
        for message in [reset, changed] {
            let lines = message.textBody.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.contains { $0 == longLink })
            for line in lines where line != longLink {
                #expect(line.count <= 72, "\(language): \(line)")
                #expect(line == line.trimmingCharacters(in: .whitespaces))
            }
        }
    }

    @Test("an isolated name is never split across lines of the plain text")
    func isolatesStayOnOneLine() throws {
        let long = MailTemplates(productName: "Acme Notes for Teams and Families Everywhere")
        for language in SupportedLanguage.allCases {
            let changed = try long.render(
                .passwordChanged(resetPageURL: "https://x.example/r", changedAt: changedAt), to: "a@example.com", language: language, id: "c")
            for line in changed.textBody.split(separator: "\n") {
                let opens = line.unicodeScalars.count { $0 == "\u{2068}" }, closes = line.unicodeScalars.count { $0 == "\u{2069}" }
                #expect(opens == closes, "\(language): \(line)")
            }
            // Left to right the name is ordinary words and may wrap; an isolated one never does.
            let text = language.isRightToLeft ? changed.textBody : changed.textBody.unwrapped
            #expect(text.contains(language.isolated("Acme Notes for Teams and Families Everywhere")))
        }
    }

    @Test("printing a rendered message or its kind shows neither the link nor the recipient")
    func noLeakInDescriptions() throws {
        let kind = MailKind.passwordReset(link: Redacted(link), validMinutes: 30)
        let message = try templates.render(kind, to: "alice@example.com", language: .en, id: "r1")
        let entry = OutboxEntry(message: message, attempts: 0, createdAt: Date())
        var dumped = ""
        dump(entry, to: &dumped)
        for text in ["\(kind)", "\(message)", String(reflecting: message), "\(entry)", dumped] {
            #expect(!text.contains("s3cr3t"))
            #expect(!text.contains("alice@example.com"))
        }
        #expect("\(message)".contains("r1"))
    }
}

extension String {
    /// The text with its lines joined by spaces: a wrapped paragraph as one line, to look for
    /// a sentence whatever the wrapping.
    var unwrapped: String { split(separator: "\n").joined(separator: " ") }
}
