import Foundation
import LatchkeyCrypto
import LatchkeyCore

/// A message as a mail client would read it: unfolded headers with RFC 2047 decoded, and
/// the multipart/alternative parts decoded (quoted-printable; 7bit and 8bit as they are).
/// Written from the RFCs, independently of the code under test.
struct ParsedMail {
    struct Part {
        let headers: [String: String]
        let rawBody: String
        let decodedBody: String
    }

    /// Raw header lines as written (before unfolding).
    let rawHeaderLines: [String]
    /// Raw body lines as written.
    let rawBodyLines: [String]
    let headers: [String: String]
    let parts: [Part]
    let boundary: String

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    init(_ data: Data) throws {
        guard let text = String(data: data, encoding: .utf8) else { throw Malformed(description: "not UTF-8") }
        guard let split = text.range(of: "\r\n\r\n") else { throw Malformed(description: "no header/body separator") }
        let headerBlock = String(text[..<split.lowerBound])
        let body = String(text[split.upperBound...])
        rawHeaderLines = headerBlock.components(separatedBy: "\r\n")
        guard headerBlock.utf8.allSatisfy({ $0 < 0x80 }) else { throw Malformed(description: "header not ASCII") }
        rawBodyLines = body.components(separatedBy: "\r\n")
        headers = try Self.parseHeaders(headerBlock)
        guard let contentType = headers["content-type"], contentType.hasPrefix("multipart/alternative;"),
              let boundaryStart = contentType.range(of: "boundary=\"")
        else { throw Malformed(description: "not multipart/alternative with a quoted boundary") }
        let afterBoundary = contentType[boundaryStart.upperBound...]
        guard let quote = afterBoundary.firstIndex(of: "\"") else { throw Malformed(description: "unterminated boundary") }
        boundary = String(afterBoundary[..<quote])

        let delimiter = "\r\n--" + boundary
        let sections = ("\r\n" + body).components(separatedBy: delimiter)
        guard sections.count >= 3, sections.last?.hasPrefix("--") == true else {
            throw Malformed(description: "missing parts or closing delimiter")
        }
        parts = try sections.dropFirst().dropLast().map { section in
            guard let start = section.range(of: "\r\n"), start.lowerBound == section.startIndex,
                  let end = section.range(of: "\r\n\r\n")
            else { throw Malformed(description: "malformed part") }
            let partHeaders = try Self.parseHeaders(String(section[start.upperBound..<end.lowerBound]))
            let rawBody = String(section[end.upperBound...])
            switch partHeaders["content-transfer-encoding"]?.lowercased() {
            case "quoted-printable":
                return Part(headers: partHeaders, rawBody: rawBody, decodedBody: try Self.decodeQuotedPrintable(rawBody))
            case "7bit" where rawBody.utf8.allSatisfy({ $0 < 0x80 }), "8bit":
                return Part(headers: partHeaders, rawBody: rawBody, decodedBody: rawBody)
            default:
                throw Malformed(description: "part is neither quoted-printable nor 7bit ASCII nor 8bit")
            }
        }
    }

    /// The decoded body of the part whose Content-Type starts with `type`.
    func body(_ type: String) -> String? {
        parts.first { $0.headers["content-type"]?.hasPrefix(type) == true }?.decodedBody
    }

    private static func parseHeaders(_ block: String) throws -> [String: String] {
        let unfolded = block.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: "\t")
        var result: [String: String] = [:]
        for line in unfolded.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw Malformed(description: "header without colon: \(line)") }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            result[name] = try decodeEncodedWords(value)
        }
        return result
    }

    /// RFC 2047 `=?UTF-8?B?…?=` words decoded; whitespace between two words dropped.
    static func decodeEncodedWords(_ value: String) throws -> String {
        var output = ""
        var rest = Substring(value)
        var lastWasWord = false
        while let start = rest.range(of: "=?UTF-8?B?") {
            let before = rest[..<start.lowerBound]
            if !(lastWasWord && before.allSatisfy({ $0 == " " || $0 == "\t" })) { output += before }
            guard let end = rest[start.upperBound...].range(of: "?=") else { throw Malformed(description: "open encoded word") }
            guard let bytes = Data(base64Encoded: String(rest[start.upperBound..<end.lowerBound])),
                  let decoded = String(data: bytes, encoding: .utf8)
            else { throw Malformed(description: "bad encoded word") }
            output += decoded
            rest = rest[end.upperBound...]
            lastWasWord = true
        }
        return output + rest
    }

    /// RFC 2045 §6.7 decoding: soft breaks removed, `=XX` turned back into bytes, UTF-8.
    static func decodeQuotedPrintable(_ encoded: String) throws -> String {
        let joined = encoded.replacingOccurrences(of: "=\r\n", with: "")
        var bytes: [UInt8] = []
        var iterator = Array(joined.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "=") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { throw Malformed(description: "bad =XX escape") }
            bytes.append(value)
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else { throw Malformed(description: "not UTF-8") }
        return text
    }
}

extension String {
    /// The text with CRLF line ends turned into LF, to compare a decoded body with a template.
    var withUnixLineEnds: String { replacingOccurrences(of: "\r\n", with: "\n") }
}

/// Builds the reset mail most tests send.
func makeResetMail(
    id: String = "msg-1", to: String = "alice@example.com", language: SupportedLanguage = .en, link: String
) throws -> MailMessage {
    try MailTemplates().render(.passwordReset(link: .init(link), validMinutes: 30), to: to, language: language, id: id)
}

/// A link longer than a quoted-printable line (76 characters).
let longResetLink = "https://app.example.com/reset-password#token=" + String(repeating: "Ab3_-x9Z", count: 12)
