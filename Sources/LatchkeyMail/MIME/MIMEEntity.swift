import Foundation

/// One MIME entity (a message or a part of one): its unfolded headers and its raw body.
struct MIMEEntity {
    /// Header names (lowercased) and values, in order.
    let headers: [(name: String, value: String)]
    /// The body bytes, undecoded.
    let body: [UInt8]

    init(_ data: Data) {
        let bytes = [UInt8](data)
        // The head ends at the first empty line (CRLF CRLF, or LF LF in a file edited by hand).
        var split = bytes.count
        var bodyStart = bytes.count
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: [13, 10, 13, 10]) {
                (split, bodyStart) = (index, index + 4)
                break
            }
            if bytes[index...].starts(with: [10, 10]) {
                (split, bodyStart) = (index, index + 2)
                break
            }
            index += 1
        }
        let head = String(decoding: bytes[..<split], as: UTF8.self)
        var headers: [(name: String, value: String)] = []
        for line in head.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            if let first = line.first, first == " " || first == "\t", let last = headers.popLast() {
                headers.append((last.name, last.value + " " + line.trimmingCharacters(in: .whitespaces)))
            } else if let colon = line.firstIndex(of: ":") {
                headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        self.headers = headers
        self.body = Array(bytes[min(bodyStart, bytes.count)...])
    }

    /// The first value of the header `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.name == name.lowercased() }?.value
    }

    /// The media type, lowercased (`text/plain` when there is no `Content-Type`).
    var mediaType: String {
        (header("Content-Type") ?? "text/plain").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            ?? "text/plain"
    }

    /// The value of the `Content-Type` parameter `name`, unquoted.
    func contentTypeParameter(_ name: String) -> String? {
        guard let value = header("Content-Type") else { return nil }
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            return pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
        }
        return nil
    }

    /// The first `text/plain` entity: this one, or the first in a multipart body (depth-first).
    func textPart() -> MIMEEntity? {
        if mediaType == "text/plain" { return self }
        guard mediaType.hasPrefix("multipart/"), let boundary = contentTypeParameter("boundary") else { return nil }
        return parts(boundary: boundary).lazy.compactMap { $0.textPart() }.first
    }

    /// The parts of a multipart body delimited by `boundary` (RFC 2046 §5.1.1).
    private func parts(boundary: String) -> [MIMEEntity] {
        let text = String(decoding: body, as: UTF8.self)
        var parts: [MIMEEntity] = []
        var current: [Substring]?
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let closes = trimmed == "--" + boundary + "--"
            guard closes || trimmed == "--" + boundary else {
                current?.append(line)
                continue
            }
            if let current { parts.append(MIMEEntity(Data(current.joined(separator: "\r\n").utf8))) }
            if closes { break }
            current = []
        }
        return parts
    }

    /// The body decoded by its `Content-Transfer-Encoding` and charset, with LF line ends.
    func decodedText() -> String {
        let encoding = (header("Content-Transfer-Encoding") ?? "7bit").lowercased()
        let bytes: [UInt8]
        switch encoding {
        case "quoted-printable": bytes = QuotedPrintableDecoding.decode(body)
        case "base64":
            let compact = String(decoding: body, as: UTF8.self).filter { !$0.isWhitespace }
            bytes = Data(base64Encoded: compact).map { [UInt8]($0) } ?? body
        default: bytes = body
        }
        // CRLF becomes LF in the bytes: a search in the text (Foundation's
        // replacingOccurrences) leaves a CRLF followed by a combining mark in place.
        var unfolded: [UInt8] = []
        unfolded.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() where !(byte == 13 && index + 1 < bytes.count && bytes[index + 1] == 10) {
            unfolded.append(byte)
        }
        let charset = contentTypeParameter("charset")?.lowercased() ?? "us-ascii"
        return charset == "utf-8" || charset == "us-ascii"
            ? String(decoding: unfolded, as: UTF8.self) : String(unfolded.map { Character(UnicodeScalar($0)) })
    }
}
