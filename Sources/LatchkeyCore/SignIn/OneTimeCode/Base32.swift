package import Foundation

/// Base32 (RFC 4648 §6, alphabet `A–Z 2–7`), as authenticator secrets are written: in the
/// `otpauth://` URL and for typing in by hand.
package enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// `data` in base32, without `=` padding (as `otpauth://` URLs carry it).
    package static func encode(_ data: Data) -> String {
        var output = [UInt8]()
        output.reserveCapacity((data.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in data {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 0x1F)])
                bits -= 5
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base32 `text`, read as people copy it: any case, spaces and hyphens
    /// ignored, `=` padding optional. Nil for any other character, a length no encoding has,
    /// or unused bits that are not zero, so each byte string has one accepted form. At most
    /// `maxBytes` bytes are decoded (nil for more).
    package static func decode(_ text: String, maxBytes: Int = 64) -> Data? {
        var values = [UInt8]()
        var padding = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "-"): continue
            case UInt8(ascii: "="): padding += 1; continue
            default: break
            }
            guard padding == 0 else { return nil }
            let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
            guard let value = alphabet.firstIndex(of: upper) else { return nil }
            values.append(UInt8(value))
            guard values.count * 5 / 8 <= maxBytes else { return nil }
        }
        // A final group of 2, 4, 5 or 7 characters carries 1, 2, 3 or 4 bytes.
        guard [0, 2, 4, 5, 7].contains(values.count % 8) else { return nil }
        var output = Data()
        var buffer: UInt32 = 0
        var bits = 0
        for value in values {
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt32(bits - 8)) & 0xFF))
                bits -= 8
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        guard buffer == 0 else { return nil }
        return output
    }
}
