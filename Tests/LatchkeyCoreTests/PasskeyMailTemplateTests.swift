import Foundation
import Testing

@testable import LatchkeyCore

/// The mails about a passkey added or removed, in every language: what they say, and that the
/// passkey's name — typed by whoever added it — can neither inject markup or a header nor
/// reorder the words around it.
@Suite struct PasskeyMailTemplateTests {
    private let templates = MailTemplates(productName: "Acme")
    private let changedAt = Date(timeIntervalSince1970: 1_900_000_000)  // 2030-03-17 17:46:40 UTC

    private func render(_ change: MailKind.PasskeyChange, name: String, _ language: SupportedLanguage) throws -> MailMessage {
        try templates.render(.passkeyChanged(change, name: name, changedAt: changedAt), to: "a@example.com", language: language, id: "p")
    }

    @Test("added and removed each say which passkey, when in UTC, and what to do if it was not the owner, in every language",
          arguments: SupportedLanguage.allCases)
    func texts(language: SupportedLanguage) throws {
        let text = language.catalogue.passkeyMail
        let (name, date, time) = (language.isolated("MacBook"), language.isolated("2030-03-17"), language.isolated("17:46"))
        let product = language.isolated("Acme")
        let added = try render(.added, name: "MacBook", language)
        let removed = try render(.removed, name: "MacBook", language)
        #expect(added.subject == text.addedSubject(product))
        #expect(removed.subject == text.removedSubject(product))
        #expect(added.subject != removed.subject)
        #expect(added.locale == language.rawValue)
        for (message, sentence, advice) in [
            (added, text.added(product, name, date, time), text.ifNotYouAdded),
            (removed, text.removed(product, name, date, time), text.ifNotYouRemoved),
        ] {
            #expect(message.htmlBody.contains("<html lang=\"\(language.rawValue)\" dir=\"\(language.direction)\">"))
            for part in [text.greeting, sentence, advice] {
                #expect(message.htmlBody.contains(part.htmlEscaped), "\(language): \(part)")
                #expect(message.textBody.oneLine.contains(part) || message.textBody.contains(part), "\(language): \(part)")
            }
            #expect(!message.subject.contains("MacBook"))
            #expect(!message.textBody.contains("http"))
        }
        // What a stranger's passkey needs: removing, since a password reset leaves it working.
        #expect(text.ifNotYouAdded != text.ifNotYouRemoved)
    }

    @Test("no two languages share the passkey mails' texts")
    func ownTexts() {
        for text in [\PasskeyMailText.ifNotYouAdded, \.ifNotYouRemoved] {
            #expect(Set(SupportedLanguage.allCases.map { $0.catalogue.passkeyMail[keyPath: text] }).count == SupportedLanguage.allCases.count)
        }
        #expect(Set(SupportedLanguage.allCases.map { $0.catalogue.passkeyMail.addedSubject("Acme") }).count == SupportedLanguage.allCases.count)
    }

    @Test("a name with markup is escaped in HTML and kept as typed in plain text; it is never in the subject")
    func markup() throws {
        let name = #"<img src=x onerror="alert('x')"> & "co""#
        let message = try render(.added, name: name, .en)
        #expect(!message.htmlBody.contains("<img"))
        #expect(message.htmlBody.contains("“&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; &quot;co&quot;”"))
        #expect(message.textBody.oneLine.contains("“\(name)”"))
        #expect(message.subject == "A passkey was added to your Acme account")
    }

    @Test("line breaks, controls and bidirectional overrides in a name are replaced, so it cannot add a line or reorder the text",
          arguments: SupportedLanguage.allCases)
    func controls(language: SupportedLanguage) throws {
        let name = "Key\r\nBcc: x@example.com\u{0085}\u{2028}\u{202E}evil\u{2069}\u{2066}\u{200F}x\u{200D}y"
        for change in [MailKind.PasskeyChange.added, .removed] {
            let message = try render(change, name: name, language)
            let shown = "Key\u{FFFD}\u{FFFD}Bcc: x@example.com\u{FFFD}\u{FFFD}\u{FFFD}evil\u{FFFD}\u{FFFD}\u{FFFD}x\u{200D}y"
            #expect(message.textBody.oneLine.contains(language.isolated(shown)) || message.textBody.contains(language.isolated(shown)))
            #expect(message.htmlBody.contains(language.isolated(shown)))
            for body in [message.textBody, message.htmlBody] {
                #expect(!body.unicodeScalars.contains { [0x0D, 0x85, 0x2028, 0x202E, 0x2066, 0x200F].contains($0.value) })
                #expect(!body.split(separator: "\n").contains { $0.hasPrefix("Bcc:") })
            }
            // The only isolates left are the template's own, each closed on its line.
            for line in message.textBody.split(separator: "\n") {
                #expect(line.unicodeScalars.count { $0 == "\u{2068}" } == line.unicodeScalars.count { $0 == "\u{2069}" }, "\(language): \(line)")
            }
        }
    }

    @Test("plain text reads in a terminal: lines of at most 72 characters, a long isolated name kept whole",
          arguments: SupportedLanguage.allCases)
    func lines(language: SupportedLanguage) throws {
        let long = String(repeating: "Passkey of the family ", count: 3).trimmingCharacters(in: .whitespaces)
        for change in [MailKind.PasskeyChange.added, .removed] {
            let message = try render(change, name: long, language)
            for line in message.textBody.split(separator: "\n") where !line.contains("\u{2068}Passkey") {
                #expect(line.count <= 72, "\(language): \(line)")
            }
        }
    }
}

extension String {
    /// The plain text with its wrapped lines joined again.
    fileprivate var oneLine: String { split(separator: "\n").joined(separator: " ") }
}
