import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyTestSupport
import Testing

/// The mails of the signed-in account's changes, in every language: each carries every text of
/// its surface, in its direction, and the links it must (and only those).
@Suite struct AccountMailTests {
    private static let confirmLink = "https://auth.example.com/confirm-email#token=confirm-token"
    private static let undoLink = "https://auth.example.com/undo-email-change#token=undo-token"

    @Test("every account mail carries every text of its language, in its direction", arguments: SupportedLanguage.allCases)
    func texts(language: SupportedLanguage) throws {
        let templates = MailTemplates(productName: "Acme")
        let catalogue = language.catalogue
        let changedAt = Date(timeIntervalSince1970: 1_900_000_000)
        let mails = [
            (try templates.render(.emailConfirmation(link: Redacted(Self.confirmLink), validHours: 24), to: "a@example.com", language: language, id: "c"),
             LanguageCatalogueTests.texts(catalogue.emailConfirmationMail)),
            (try templates.render(.emailTaken, to: "a@example.com", language: language, id: "t"),
             LanguageCatalogueTests.texts(catalogue.emailTakenMail)),
            (try templates.render(
                .emailChanged(newAddressHint: "n***@example.com", changedAt: changedAt, undoLink: Redacted(Self.undoLink), validDays: 7),
                to: "a@example.com", language: language, id: "u"),
             LanguageCatalogueTests.texts(catalogue.emailChangedMail)),
            (try templates.render(.accountDeleted(deletedAt: changedAt), to: "a@example.com", language: language, id: "d"),
             LanguageCatalogueTests.texts(catalogue.accountDeletedMail)),
        ]
        for (message, texts) in mails {
            #expect(message.htmlBody.contains("<html lang=\"\(language.rawValue)\" dir=\"\(catalogue.direction.rawValue)\">"))
            #expect(!texts.isEmpty)
            for (name, text) in texts {
                #expect(message.htmlBody.contains(text.htmlEscaped), "\(language).\(name) is not in the mail \(message.subject)")
            }
        }
        #expect(mails[0].0.textBody.contains(catalogue.emailConfirmationMail.validity(24)))
        #expect(mails[0].0.textBody.contains(Self.confirmLink))
        #expect(!mails[1].0.textBody.contains("http"))
        #expect(mails[2].0.textBody.contains(Self.undoLink))
        #expect(mails[2].0.textBody.contains(catalogue.emailChangedMail.validity(7)))
        #expect(mails[2].0.textBody.contains("n***@example.com"))
        #expect(mails[3].0.textBody.contains("2030-03-17"))
    }

    @Test("no two languages share the account mails' texts")
    func ownTexts() {
        let subjects = SupportedLanguage.allCases.map { $0.catalogue.emailChangedMail.ifNotYou }
        #expect(Set(subjects).count == SupportedLanguage.allCases.count)
        let deleted = SupportedLanguage.allCases.map { $0.catalogue.accountDeletedMail.everythingRemoved }
        #expect(Set(deleted).count == SupportedLanguage.allCases.count)
    }

    @Test("a link that is not an absolute URL, or a validity under one unit, is refused before it is queued")
    func badLinks() {
        let templates = MailTemplates()
        #expect(throws: LatchkeyError.self) {
            try templates.render(.emailConfirmation(link: Redacted("javascript:alert(1)"), validHours: 24), to: "a@example.com", language: .en, id: "c")
        }
        #expect(throws: LatchkeyError.self) {
            try templates.render(.emailConfirmation(link: Redacted(Self.confirmLink), validHours: 0), to: "a@example.com", language: .en, id: "c")
        }
        #expect(throws: LatchkeyError.self) {
            try templates.render(
                .emailChanged(newAddressHint: "n***@example.com", changedAt: Date(), undoLink: Redacted("/undo"), validDays: 7),
                to: "a@example.com", language: .en, id: "u")
        }
    }
}
