package import Foundation

/// Lowercase hexadecimal, two characters per byte: how digests are stored and compared
/// as text.
package enum Hex {
    /// `bytes` as lowercase hexadecimal.
    package static func encode(_ bytes: Data) -> String {
        bytes.withUnsafeBytes { buffer in
            String(unsafeUninitializedCapacity: buffer.count * 2) { text in
                for (offset, byte) in buffer.enumerated() {
                    text[2 * offset] = digit(byte >> 4)
                    text[2 * offset + 1] = digit(byte & 0x0f)
                }
                return buffer.count * 2
            }
        }
    }

    /// The lowercase hexadecimal digit of `nibble` (0–15).
    package static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// The bytes that lowercase hexadecimal `text` spells; nil for anything else (odd
    /// length, upper case, other characters).
    package static func decode(_ text: String) -> Data? {
        let characters = Array(text.utf8)
        guard characters.count.isMultiple(of: 2) else { return nil }
        func nibble(_ character: UInt8) -> UInt8? {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        for index in stride(from: 0, to: characters.count, by: 2) {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return Data(bytes)
    }
}
