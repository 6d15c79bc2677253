import LatchkeyCore
/// Quoted-printable body encoding (RFC 2045 §6.7) of UTF-8 text.
///
/// Output is 7-bit ASCII with CRLF line ends and no line longer than 76 characters: long
/// lines get soft breaks (`=` at the end), which a decoder removes. A `.` that would start
/// a line is encoded too, so no SMTP dot-stuffing can touch the body.
enum QuotedPrintable {
    /// The longest encoded line, not counting the soft-break `=`.
    private static let maximumSegment = 75
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Encodes `text`; line breaks (LF, CRLF or CR) become hard CRLF breaks.
    static func encode(_ text: String) -> String {
        text.lines().map(encodeLine).joined(separator: "\r\n")
    }

    private static func encodeLine(_ line: Substring) -> String {
        let bytes = Array(line.utf8)
        var lines: [String] = []
        var current = ""
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            var token: String
            switch byte {
            case 0x21...0x3C, 0x3E...0x7E:
                token = String(UnicodeScalar(byte))
            case 0x20 where !isLast, 0x09 where !isLast:
                token = String(UnicodeScalar(byte))
            default:
                token = escaped(byte)
            }
            if current.utf8.count + token.utf8.count > maximumSegment {
                lines.append(current + "=")
                current = ""
            }
            if current.isEmpty, byte == UInt8(ascii: ".") {
                token = escaped(byte)
            }
            current += token
        }
        lines.append(current)
        return lines.joined(separator: "\r\n")
    }

    private static func escaped(_ byte: UInt8) -> String {
        String(decoding: [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}

extension String {
    /// The lines of this text, splitting at CRLF, LF or CR (a trailing break gives a final
    /// empty line).
    func lines() -> [Substring] {
        // Swift treats CRLF as one Character, so one split handles all three forms.
        split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" })
    }
}
