import LatchkeyCore
import Foundation

/// RFC 2047 encoded words (`=?UTF-8?B?…?=`) for header text that is not plain ASCII.
enum EncodedWord {
    /// Bytes of text per encoded word: 39 bytes are 52 base64 characters, so a word is 64
    /// characters and a folded header line stays under 78.
    private static let bytesPerWord = 39

    /// Whether `text` can go into a header as it is: printable ASCII and spaces only, not
    /// looking like an encoded word, and short enough for one line after `name: `.
    static func isPlain(_ text: String, headerName: String) -> Bool {
        text.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
            && !text.contains("=?")
            && headerName.utf8.count + 2 + text.utf8.count <= 78
    }

    /// `text` as a sequence of encoded words, each holding whole Unicode scalars, separated
    /// by CRLF + space (folding whitespace, which decoders drop between encoded words).
    static func encode(_ text: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > bytesPerWord {
                words.append(word(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(word(chunk)) }
        return words.joined(separator: "\r\n ")
    }

    private static func word(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?\(Data(bytes).base64EncodedString())?="
    }
}
