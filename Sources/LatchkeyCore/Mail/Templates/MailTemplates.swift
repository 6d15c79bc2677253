import Foundation
import LatchkeyCrypto

/// Writes the messages the server sends, in every ``SupportedLanguage``, as plain text and
/// HTML.
///
/// Values placed in the HTML are escaped. A reset link is a secret: it appears in the
/// rendered bodies (where it must) but in no error or description.
package struct MailTemplates: Sendable {
    /// URL schemes that never go into a mail link, whatever the configuration says.
    private static let forbiddenSchemes: Set<String> = ["javascript", "data", "vbscript", "file"]

    /// The name people know the service by (`LATCHKEY_PRODUCT_NAME`), in every subject and
    /// at the top of every message.
    package let productName: String

    /// Creates the templates for the product called `productName`.
    package init(productName: String = "Latchkey") {
        self.productName = productName
    }

    /// Renders `kind` for the recipient `to` in `language`, as message `id` (the outbox
    /// row id).
    ///
    /// Throws ``LatchkeyError`` `invalid_configuration` when a link is not an absolute
    /// `scheme://` URL (or uses `javascript:`, `data:`, `vbscript:` or `file:`) or a
    /// validity is under one unit (minute, hour, day), and `invalid_mail_header` when `to` is not a plain
    /// `local@domain` address or `id` is not a token of letters, digits, `.`, `_` and `-`.
    /// The errors never contain the link.
    package func render(_ kind: MailKind, to: String, language: SupportedLanguage, id: String) throws -> MailMessage {
        // Checked here as well as by the transports, so a bad message is refused before
        // it is queued rather than given up later.
        try MailHeaderCheck.address(to, what: "recipient address")
        try MailHeaderCheck.token(id, what: "message id")
        let product = language.isolated(productName)
        let layout: MailLayout
        switch kind {
        case .passwordReset(let link, let validMinutes):
            guard validMinutes >= 1 else {
                throw LatchkeyError(.invalidConfiguration, "A reset link must stay valid for at least one minute.")
            }
            try Self.checkLink(link.exposed, name: "reset link")
            let text = language.catalogue.passwordResetMail
            layout = MailLayout(language: language, title: text.subject(product), blocks: [
                .brand(productName),
                .paragraph(text.greeting),
                .paragraph(text.requested(product)),
                .paragraph(text.instruction),
                .button(label: text.button, url: link.exposed),
                .paragraph(text.validity(validMinutes)),
                .paragraph(text.ignore),
                .linkFallback(label: text.linkFallback, url: link.exposed),
            ])
        case .passwordChanged(let resetPageURL, let changedAt):
            try Self.checkLink(resetPageURL, name: "reset page URL")
            let text = language.catalogue.passwordChangedMail
            let (date, time) = Self.utcDateAndTime(changedAt)
            layout = MailLayout(language: language, title: text.subject(product), blocks: [
                .brand(productName),
                .paragraph(text.greeting),
                .paragraph(text.changed(product, language.isolated(date), language.isolated(time))),
                .paragraph(text.ifYou),
                .paragraph(text.ifNotYou),
                .button(label: text.button, url: resetPageURL),
                .linkFallback(label: text.linkFallback, url: resetPageURL),
            ])
        case .emailVerification(let link, let validHours):
            guard validHours >= 1 else {
                throw LatchkeyError(.invalidConfiguration, "A confirmation link must stay valid for at least one hour.")
            }
            try Self.checkLink(link.exposed, name: "confirmation link")
            let text = language.catalogue.emailVerificationMail
            layout = MailLayout(language: language, title: text.subject(product), blocks: [
                .brand(productName),
                .paragraph(text.greeting),
                .paragraph(text.requested(product)),
                .paragraph(text.instruction),
                .button(label: text.button, url: link.exposed),
                .paragraph(text.validity(validHours)),
                .paragraph(text.ignore),
                .linkFallback(label: text.linkFallback, url: link.exposed),
            ])
        case .accountExists(let resetPageURL):
            try Self.checkLink(resetPageURL, name: "reset page URL")
            let text = language.catalogue.accountExistsMail
            layout = MailLayout(language: language, title: text.subject(product), blocks: [
                .brand(productName),
                .paragraph(text.greeting),
                .paragraph(text.attempted(product)),
                .paragraph(text.instruction),
                .button(label: text.button, url: resetPageURL),
                .paragraph(text.ignore),
                .linkFallback(label: text.linkFallback, url: resetPageURL),
            ])
        case .emailConfirmation(let link, let validHours):
            guard validHours >= 1 else {
                throw LatchkeyError(.invalidConfiguration, "A confirmation link must stay valid for at least one hour.")
            }
            try Self.checkLink(link.exposed, name: "confirmation link")
            let text = language.catalogue.emailConfirmationMail
            layout = MailLayout(language: language, title: text.subject(product), blocks: [
                .brand(productName),
                .paragraph(text.greeting),
                .paragraph(text.requested(product)),
                .paragraph(text.instruction),
                .button(label: text.button, url: link.exposed),
                .paragraph(text.validity(validHours)),
                .paragraph(text.ignore),
                .linkFallback(label: text.linkFallback, url: link.exposed),
            ])
        case .emailTaken:
            let text = language.catalogue.emailTakenMail
            layout = MailLayout(language: language, title: text.subject(product), blocks: [
                .brand(productName),
                .paragraph(text.greeting),
                .paragraph(text.attempted(product)),
                .paragraph(text.nothingChanged),
                .paragraph(text.ifYou),
                .paragraph(text.ifNotYou),
            ])
        case .emailChanged(let newAddressHint, let changedAt, let undoLink, let validDays):
            guard validDays >= 1 else {
                throw LatchkeyError(.invalidConfiguration, "An undo link must stay valid for at least one day.")
            }
            try Self.checkLink(undoLink.exposed, name: "undo link")
            let text = language.catalogue.emailChangedMail
            let (date, time) = Self.utcDateAndTime(changedAt)
            layout = MailLayout(language: language, title: text.subject(product), blocks: [
                .brand(productName),
                .paragraph(text.greeting),
                .paragraph(text.changed(
                    product, language.isolated(newAddressHint), language.isolated(date), language.isolated(time))),
                .paragraph(text.ifYou),
                .paragraph(text.ifNotYou),
                .button(label: text.button, url: undoLink.exposed),
                .paragraph(text.validity(validDays)),
                .linkFallback(label: text.linkFallback, url: undoLink.exposed),
            ])
        case .accountDeleted(let deletedAt):
            let text = language.catalogue.accountDeletedMail
            let (date, time) = Self.utcDateAndTime(deletedAt)
            layout = MailLayout(language: language, title: text.subject(product), blocks: [
                .brand(productName),
                .paragraph(text.greeting),
                .paragraph(text.deleted(product, language.isolated(date), language.isolated(time))),
                .paragraph(text.everythingRemoved),
                .paragraph(text.registerAgain(product)),
                .paragraph(text.ifNotYou),
            ])
        case .operatorEmailChange(let newAddressHint, let changedAt):
            let text = language.catalogue.operatorEmailChangeMail
            let (date, time) = Self.utcDateAndTime(changedAt)
            layout = MailLayout(language: language, title: text.subject(product), blocks: [
                .brand(productName),
                .paragraph(text.greeting),
                .paragraph(text.changed(product, language.isolated(newAddressHint), language.isolated(date), language.isolated(time))),
                .paragraph(text.signedOut),
                .paragraph(text.ifNotYou(product)),
            ])
        case .secondFactorChanged(let change, let changedAt):
            let text = language.catalogue.secondFactorMail
            let (day, minute) = Self.utcDateAndTime(changedAt)
            let (date, time) = (language.isolated(day), language.isolated(minute))
            let blocks: [MailBlock] =
                switch change {
                case .enabled: [.paragraph(text.enabled(product, date, time)), .paragraph(text.ifNotYou)]
                case .disabled: [.paragraph(text.disabled(product, date, time)), .paragraph(text.enrolAgain), .paragraph(text.ifNotYou)]
                case .removedByOperator:
                    [.paragraph(text.removedByOperator(product, date, time)), .paragraph(text.enrolAgain), .paragraph(text.ifNotYouOperator(product))]
                }
            layout = MailLayout(
                language: language, title: change == .enabled ? text.enabledSubject(product) : text.disabledSubject(product),
                blocks: [.brand(productName), .paragraph(text.greeting)] + blocks)
        case .recoveryCodeUsed(let usedAt, let remaining):
            let text = language.catalogue.secondFactorMail
            let (day, minute) = Self.utcDateAndTime(usedAt)
            let (date, time) = (language.isolated(day), language.isolated(minute))
            layout = MailLayout(language: language, title: text.recoveryCodeSubject(product), blocks: [
                .brand(productName),
                .paragraph(text.greeting),
                .paragraph(text.recoveryCodeUsed(product, date, time)),
                .paragraph(text.remaining(max(0, remaining))),
                .paragraph(text.ifNotYou),
            ])
        case .newDeviceSignIn(let signedInAt, let device, let address, let resetPageURL):
            try Self.checkLink(resetPageURL, name: "reset page URL")
            let text = language.catalogue.newDeviceMail
            let (date, time) = Self.utcDateAndTime(signedInAt)
            layout = MailLayout(language: language, title: text.subject(product), blocks: [
                .brand(productName),
                .paragraph(text.greeting),
                .paragraph(text.signedIn(product, language.isolated(date), language.isolated(time))),
                .paragraph(device.map { text.device(language.isolated($0)) } ?? text.unknownDevice),
            ] + (address.map { [.paragraph(text.network(language.isolated($0)))] } ?? []) + [
                .paragraph(text.ifYou),
                .paragraph(text.ifNotYou),
                .button(label: text.button, url: resetPageURL),
                .linkFallback(label: text.linkFallback, url: resetPageURL),
            ])
        case .passkeyChanged(let change, let name, let changedAt):
            let text = language.catalogue.passkeyMail
            let (day, minute) = Self.utcDateAndTime(changedAt)
            let (date, time) = (language.isolated(day), language.isolated(minute))
            // The name is whatever was typed when the passkey was added (perhaps by an intruder):
            // in a sentence of the body only, quoted by the text, never in the subject.
            let shown = language.isolated(Self.displayedName(name))
            let (title, blocks): (String, [MailBlock]) =
                switch change {
                case .added: (text.addedSubject(product), [.paragraph(text.added(product, shown, date, time)), .paragraph(text.ifNotYouAdded)])
                case .removed:
                    (text.removedSubject(product), [.paragraph(text.removed(product, shown, date, time)), .paragraph(text.ifNotYouRemoved)])
                }
            layout = MailLayout(language: language, title: title, blocks: [.brand(productName), .paragraph(text.greeting)] + blocks)
        }
        return try MailMessage(
            id: id, to: to, subject: layout.title, textBody: layout.text, htmlBody: layout.html,
            locale: language.rawValue
        )
    }

    /// `2030-01-15` and `08:00`: the day and minute of `date` in UTC, written the same way in
    /// every language.
    static func utcDateAndTime(_ date: Date) -> (date: String, time: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func padded(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return ("\(padded(parts.year, 4))-\(padded(parts.month, 2))-\(padded(parts.day, 2))",
                "\(padded(parts.hour, 2)):\(padded(parts.minute, 2))")
    }

    /// `name` (a name a person gave something, such as a passkey) as it may appear inside a
    /// sentence of a mail: every ``Unicode/Scalar/isLayoutControl`` scalar becomes U+FFFD, so the
    /// name can neither break a line of the plain text nor reorder or hide the words around it.
    /// (Names set since this check are refused with one; older ones may still hold one.)
    static func displayedName(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { $0.isLayoutControl ? "\u{FFFD}" : $0 }))
    }

    /// Accepts an absolute URL — `scheme://…`, or an app's private-use `com.example.app:/path`
    /// (RFC 8252 §7.1) — without whitespace or control characters, whose scheme is not one a
    /// browser would run or read locally.
    package static func checkLink(_ link: String, name: String) throws {
        let invalid = LatchkeyError(
            .invalidConfiguration,
            "The \(name) in a mail must be an absolute http(s) or app URL without spaces."
        )
        guard let separator = link.range(of: ":"), link[separator.upperBound...].hasPrefix("/"), !link.unicodeScalars.contains(where: {
            $0.properties.isWhitespace || $0.properties.generalCategory == .control
        }) else { throw invalid }
        let scheme = link[..<separator.lowerBound].lowercased()
        let schemeCharacters = "abcdefghijklmnopqrstuvwxyz0123456789+-."
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ schemeCharacters.contains($0) }),
              !forbiddenSchemes.contains(scheme)
        else { throw invalid }
    }
}
