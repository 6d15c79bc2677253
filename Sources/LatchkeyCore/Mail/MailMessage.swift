package import Foundation

/// A rendered email, ready for a transport: one recipient, a subject, and both a plain
/// text and an HTML body. Header values are checked for injection when the message is
/// built, so transports can trust them.
package struct MailMessage: Sendable, Equatable {
    /// A stable identifier (the outbox row id); used as the Message-ID's local part and
    /// the `.eml` file name, so a retried send is recognisable.
    package let id: String
    /// The recipient's address.
    package let to: String
    /// The subject line (UTF-8; transports encode it per RFC 2047).
    package let subject: String
    /// The plain-text body.
    package let textBody: String
    /// The HTML body.
    package let htmlBody: String
    /// The language of the message, e.g. `ar`.
    package let locale: String

    /// Creates a message after checking `to` and `subject` for CR, LF and other
    /// control characters. Throws ``LatchkeyError/Code/invalidMailHeader``.
    package init(id: String, to: String, subject: String, textBody: String, htmlBody: String, locale: String) throws {
        for value in [id, to, subject] where value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw LatchkeyError(.invalidMailHeader, "A mail header contains a control character.")
        }
        self.id = id
        self.to = to
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.locale = locale
    }
}

extension MailMessage: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The id, language and subject only: the bodies may hold a secret link and the
    /// recipient is personal data, so neither reaches a log through interpolation or `dump`.
    package var description: String { "MailMessage(id: \(id), locale: \(locale), subject: \(subject))" }

    /// Same as ``description``.
    package var debugDescription: String { description }

    /// A mirror showing only the id, language and subject.
    package var customMirror: Mirror {
        Mirror(self, children: ["id": id, "locale": locale, "subject": subject], displayStyle: .struct)
    }
}

/// Delivers one message to its recipient: SMTP, a file, or something else.
package protocol MailTransport: Sendable {
    /// Sends `message`. Throws ``LatchkeyError`` with code `mail_delivery_failed` when the
    /// message was not accepted; the outbox then retries later.
    func send(_ message: MailMessage) throws
}

/// A message waiting in the outbox.
package struct OutboxEntry: Sendable, Equatable {
    /// The message to send.
    package let message: MailMessage
    /// How many delivery attempts already failed.
    package let attempts: Int
    /// When the message was queued.
    package let createdAt: Date

    /// Creates an outbox entry value.
    package init(message: MailMessage, attempts: Int, createdAt: Date) {
        self.message = message
        self.attempts = attempts
        self.createdAt = createdAt
    }
}
