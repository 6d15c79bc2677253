package import Foundation
import LatchkeyCore

/// A mail the ``FileMailTransport`` wrote, read back from its `.eml` file for
/// `latchkey outbox show`: the headers a person looks for and
/// the plain-text body decoded, so a link in it reads — and copies — whole.
///
/// Reads what ``MIMEMessageWriter`` writes and any other single-part or
/// `multipart/alternative` message: bodies in quoted-printable, base64, 7bit or 8bit,
/// header text in RFC 2047 encoded words (B or Q), UTF-8 (other charsets are read as Latin-1).
package struct WrittenMail: Sendable, Equatable {
    /// The message id: the file name without `.eml`.
    package let id: String
    /// The `To` header.
    package let recipient: String
    /// The `From` header, encoded words decoded.
    package let sender: String
    /// The `Subject` header, encoded words decoded.
    package let subject: String
    /// The `Date` header as written (RFC 5322), empty when missing.
    package let dateText: String
    /// When the file was written (its modification time).
    package let writtenAt: Date
    /// The `text/plain` body, decoded, with LF line ends; empty when the message has none.
    package let textBody: String

    /// The file extension of a written mail.
    static let fileExtension = "eml"
    /// The largest file read; the transport's mails are a few kilobytes.
    static let maximumFileBytes = 1 << 20

    /// Every mail in `directory`, oldest first (by the time each file was written; by id
    /// among files written at once); other files (and the transport's hidden temporary ones)
    /// are passed over. Throws ``LatchkeyError`` naming the directory or file and the
    /// permission missing when one cannot be read, so an unreadable mail is never left out
    /// in silence.
    package static func all(in directory: URL) throws -> [WrittenMail] {
        try FileAccess.require(.readDirectory, of: directory.path, what: "The outbox", code: .invalidConfiguration)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.filter { $0.hasSuffix("." + fileExtension) && !$0.hasPrefix(".") }
            .map { try read(directory.appendingPathComponent($0)) }
            .sorted { ($0.writtenAt, $0.id) < ($1.writtenAt, $1.id) }
    }

    /// The mail in the `.eml` file at `url`. Throws ``LatchkeyError`` naming the file when it
    /// cannot be read or is larger than ``maximumFileBytes``.
    package static func read(_ url: URL) throws -> WrittenMail {
        try FileAccess.require(.read, of: url.path, what: "The mail file", code: .invalidConfiguration)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        if let size = attributes[.size] as? Int, size > maximumFileBytes {
            throw LatchkeyError(.invalidConfiguration, "The mail file \(url.path) is larger than \(maximumFileBytes) bytes: no mail the transport writes.")
        }
        return WrittenMail(
            id: url.deletingPathExtension().lastPathComponent, message: try Data(contentsOf: url),
            writtenAt: attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0))
    }

    /// The mail whose `.eml` bytes are `message`, named `id` and written at `writtenAt`: what
    /// ``read(_:)`` makes of a file's contents. Any bytes make a mail (a header or body it
    /// cannot find is empty); it never throws or traps.
    package init(id: String, message data: Data, writtenAt: Date) {
        let message = MIMEEntity(data)
        self.id = id
        recipient = message.header("To") ?? ""
        sender = EncodedWordDecoding.decode(message.header("From") ?? "")
        subject = EncodedWordDecoding.decode(message.header("Subject") ?? "")
        dateText = message.header("Date") ?? ""
        self.writtenAt = writtenAt
        textBody = message.textPart()?.decodedText() ?? ""
    }
}
