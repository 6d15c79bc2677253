import Foundation
import LatchkeyCore

/// Decodes quoted-printable bytes (RFC 2045 §6.7): `=XX` escapes, soft line breaks.
enum QuotedPrintableDecoding {
    static func decode(_ encoded: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count)
        var index = 0
        while index < encoded.count {
            let byte = encoded[index]
            guard byte == UInt8(ascii: "=") else {
                output.append(byte)
                index += 1
                continue
            }
            // A soft break: `=` then CRLF (or LF).
            if encoded[(index + 1)...].starts(with: [13, 10]) {
                index += 3
            } else if encoded[(index + 1)...].starts(with: [10]) {
                index += 2
            } else if index + 2 < encoded.count, let high = encoded[index + 1].hexDigitValue, let low = encoded[index + 2].hexDigitValue {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }
}

/// Decodes RFC 2047 encoded words (`=?charset?B?…?=`, `=?charset?Q?…?=`) in header text;
/// white space between two encoded words is dropped, as the RFC says.
enum EncodedWordDecoding {
    static func decode(_ header: String) -> String {
        var output = ""
        var pendingSpace = ""
        var previousWasEncoded = false
        for token in header.split(separator: " ", omittingEmptySubsequences: false) {
            if let decoded = decodeWord(token) {
                output += previousWasEncoded ? "" : pendingSpace
                output += decoded
                previousWasEncoded = true
            } else {
                output += pendingSpace + token
                previousWasEncoded = false
            }
            pendingSpace = " "
        }
        return output
    }

    private static func decodeWord(_ word: Substring) -> String? {
        guard word.hasPrefix("=?"), word.hasSuffix("?="), word.count > 4 else { return nil }
        let parts = word.dropFirst(2).dropLast(2).split(separator: "?", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let charset = parts[0].lowercased()
        let bytes: [UInt8]
        switch parts[1].uppercased() {
        case "B":
            guard let data = Data(base64Encoded: String(parts[2])) else { return nil }
            bytes = [UInt8](data)
        case "Q":
            bytes = QuotedPrintableDecoding.decode(Array(parts[2].replacingOccurrences(of: "_", with: " ").utf8))
        default:
            return nil
        }
        return charset == "utf-8" || charset == "us-ascii"
            ? String(decoding: bytes, as: UTF8.self) : String(bytes.map { Character(UnicodeScalar($0)) })
    }
}
