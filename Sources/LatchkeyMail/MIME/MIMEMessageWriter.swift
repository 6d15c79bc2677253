package import LatchkeyCore
package import Foundation

/// Renders a ``MailMessage`` as an RFC 5322 / MIME message: the exact bytes a `.eml` file
/// holds and SMTP uploads, so both transports send the same thing.
///
/// The message is `multipart/alternative` with a text/plain and a text/html part, both
/// UTF-8. The text part goes as it is (`7bit` or `8bit`, see ``TextBodyEncoding``), so a
/// person reading the `.eml` file sees its links whole; the HTML part is quoted-printable
/// (lines of at most 76 characters). Header lines are 7-bit ASCII of at most 78 characters:
/// every header value is checked for line breaks and control characters first, and non-ASCII
/// header text is RFC 2047-encoded.
package struct MIMEMessageWriter: Sendable {
    /// Who the message is from.
    let sender: MailSender

    /// A writer of messages from `sender`.
    package init(sender: MailSender) {
        self.sender = sender
    }

    /// The message as CRLF-terminated lines (ASCII but for an `8bit` text part), dated `date`.
    ///
    /// Throws ``LatchkeyError`` `invalid_mail_header` when the recipient is not a plain
    /// address, or the id, subject or language is unfit for a header.
    package func render(_ message: MailMessage, date: Date) throws -> Data {
        try MailHeaderCheck.address(message.to, what: "recipient address")
        try MailHeaderCheck.token(message.id, what: "message id")
        try MailHeaderCheck.text(message.subject, what: "subject")
        try MailHeaderCheck.token(message.locale, what: "message language")

        let text = TextBodyEncoding.encode(message.textBody)
        let html = QuotedPrintable.encode(message.htmlBody)
        var boundary = Self.makeBoundary()
        // A quoted-printable body never holds the boundary; a text sent as it is could, by a
        // chance of 2^-128 per message.
        while text.body.contains(boundary) { boundary = Self.makeBoundary() }
        var lines: [String] = [
            "From: \(fromHeader)",
            "To: \(message.to)",
            "Subject: \(header(message.subject, name: "Subject"))",
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(message.id)@\(sender.domain)>",
            "MIME-Version: 1.0",
            "Content-Language: \(message.locale)",
            "Auto-Submitted: auto-generated",
            "Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"",
            "",
            "This is a multi-part message in MIME format.",
        ]
        for (type, encoding, body) in [
            ("text/plain", text.encoding, text.body), ("text/html", TextBodyEncoding.quotedPrintable, html),
        ] {
            // The CRLF before each delimiter belongs to the delimiter (RFC 2046 §5.1.1), so
            // the encoded body is followed directly by the next one.
            lines += [
                "--\(boundary)",
                "Content-Type: \(type); charset=UTF-8",
                "Content-Transfer-Encoding: \(encoding.rawValue)",
                "",
                body,
            ]
        }
        lines += ["--\(boundary)--", ""]
        return Data(lines.joined(separator: "\r\n").utf8)
    }

    /// `"Name" <address>`, `=?UTF-8?B?…?= <address>` or the bare address.
    private var fromHeader: String {
        guard let name = sender.displayName else { return sender.address }
        let nameIsPlainASCII = name.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) } && !name.contains("=?")
        if nameIsPlainASCII, name.utf8.count <= 60 {
            let quoted = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(quoted)\" <\(sender.address)>"
        }
        return "\(EncodedWord.encode(name))\r\n <\(sender.address)>"
    }

    private func header(_ value: String, name: String) -> String {
        EncodedWord.isPlain(value, headerName: name) ? value : EncodedWord.encode(value)
    }

    /// A boundary that cannot occur in a quoted-printable body: such a body never holds
    /// `=_`, because `=` there is always followed by a hex digit or a line end.
    private static func makeBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "_")
        return "=_lk_\(random)"
    }

    /// `Tue, 15 Jan 2030 08:00:00 +0000` (RFC 5322 §3.3), always in UTC.
    static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12]
        return "\(weekday), \(twoDigits(parts.day)) \(month) \(parts.year ?? 1970) "
            + "\(twoDigits(parts.hour)):\(twoDigits(parts.minute)):\(twoDigits(parts.second)) +0000"
    }
}
