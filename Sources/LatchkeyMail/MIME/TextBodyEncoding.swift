import Foundation

/// How a text part's body goes on the wire: as it is — `7bit` when it is ASCII, `8bit` when
/// it is UTF-8 beyond ASCII (RFC 2045 §2.7–2.8) — whenever its lines allow that, else
/// quoted-printable.
///
/// Sent as it is, a body reads in a terminal exactly as a mail client shows it: `cat` on an
/// `.eml` file shows a reset link whole, ready to copy. That needs every line within SMTP's
/// 998 octets (RFC 5321 §4.5.3.1.6), no control character but tab, and no space or tab at a
/// line's end (which transports may strip); a body that breaks any of these is
/// quoted-printable instead, which carries anything but splits long lines.
enum TextBodyEncoding: String {
    case sevenBit = "7bit"
    case eightBit = "8bit"
    case quotedPrintable = "quoted-printable"

    /// The longest line, in octets without the CRLF, a body sent as it is may have.
    static let maximumLineOctets = 998

    /// The encoding `text` can travel in, and its body in that encoding with CRLF line ends.
    static func encode(_ text: String) -> (encoding: TextBodyEncoding, body: String) {
        let lines = text.lines()
        let sendableAsItIs = lines.allSatisfy { line in
            line.utf8.count <= maximumLineOctets
                && line.last != " " && line.last != "\t"
                && !line.unicodeScalars.contains { $0 != "\t" && $0.properties.generalCategory == .control }
        }
        guard sendableAsItIs else { return (.quotedPrintable, QuotedPrintable.encode(text)) }
        let body = lines.joined(separator: "\r\n")
        return (body.utf8.allSatisfy { $0 < 0x80 } ? .sevenBit : .eightBit, body)
    }
}
