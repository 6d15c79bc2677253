import Foundation
import LatchkeyCore
import LatchkeyFuzzSupport
import LatchkeyMail

// MIME decoding of written mail (WrittenMail: headers, RFC 2047 encoded words, multipart,
// quoted-printable and base64 bodies), as `latchkey outbox show` reads an .eml file.
// Properties: any bytes read without a trap; a message the writer renders, with the input's
// first line as subject and the rest as text body, reads back with that subject (but for a
// plain subject's surrounding spaces, header whitespace) and that body (every line break,
// CRLF, LF or a lone CR, as LF).

private let writer = MIMEMessageWriter(sender: try! MailSender(address: "noreply@example.com", displayName: "Latchkey"))
private let date = Date(timeIntervalSince1970: 1_700_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMIME(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    _ = WrittenMail(id: "fuzz", message: input.data, writtenAt: date)

    guard let text = input.text else { return 0 }
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let subject = String(lines[0])
    let body = lines.count > 1 ? String(lines[1]) : ""
    guard let message = try? MailMessage(
        id: "fuzz", to: "person@example.com", subject: subject, textBody: body, htmlBody: "<p>\(body)</p>", locale: "en"),
        let rendered = try? writer.render(message, date: date)
    else { return 0 }
    let read = WrittenMail(id: "fuzz", message: rendered, writtenAt: date)
    expect(read.recipient == "person@example.com", "the recipient does not read back")
    // A plain subject's surrounding spaces are header whitespace, which a reader drops.
    expect(
        read.subject == subject || read.subject == subject.trimmingCharacters(in: .whitespaces),
        "the subject does not read back")
    // Line breaks (CRLF, LF or a lone CR) read back as LF.
    let expected = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" })
        .joined(separator: "\n")
    expect(read.textBody == expected, "the text body does not read back")
    return 0
}
