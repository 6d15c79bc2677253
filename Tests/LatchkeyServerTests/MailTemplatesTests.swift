import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyStorage
import LatchkeyRedis
import LatchkeyMail
import LatchkeyWeb
import LatchkeyPasswordStrength
import LatchkeyServer
import Testing

@Suite struct MailTemplatesTests {
    let templates = MailTemplates()
    let link = "https://app.example.com/reset-password#token=s3cr3t-T0ken_value"

    @Test("both mails render in every language with that language's own words", arguments: SupportedLanguage.allCases)
    func everyLanguage(language: SupportedLanguage) throws {
        let reset = try templates.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: "a@example.com", language: language, id: "r1")
        let changed = try templates.render(.passwordChanged(resetPageURL: "https://app.example.com/forgot"), to: "a@example.com", language: language, id: "c1")
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
        let english = try templates.render(.passwordChanged(resetPageURL: "https://x.example/r"), to: "a@example.com", language: .en, id: "c")
        #expect(english.subject == "Your password was changed")
        #expect(english.textBody.contains("If it wasn’t you, reset your password now:"))
        let spanish = try templates.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: "a@example.com", language: .es, id: "r")
        #expect(spanish.textBody.contains("Si no fuiste tú, puedes ignorar este correo. Tu contraseña seguirá siendo la misma."))
        let portuguese = try templates.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: "a@example.com", language: .pt, id: "r")
        #expect(portuguese.textBody.contains("Alguém pediu para redefinir a senha deste endereço de e-mail."))
    }

    @Test("Arabic mail is written right to left and the others left to right")
    func arabicIsRightToLeft() throws {
        let arabic = try templates.render(.passwordReset(link: Redacted(link), validMinutes: 30), to: "a@example.com", language: .ar, id: "r")
        #expect(arabic.htmlBody.contains("<html lang=\"ar\" dir=\"rtl\">"))
        #expect(arabic.htmlBody.contains("<div lang=\"ar\" dir=\"rtl\""))
        #expect(arabic.subject == "إعادة تعيين كلمة المرور")
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
        let changed = try templates.render(.passwordChanged(resetPageURL: hostile), to: "a@example.com", language: .pt, id: "c")
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
                try templates.render(.passwordChanged(resetPageURL: bad), to: "a@example.com", language: .en, id: "c")
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
            try templates.render(.passwordChanged(resetPageURL: link), to: "a@example.com", language: .en, id: "../../etc/x")
        }
        #expect(error?.code == .invalidMailHeader)
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
