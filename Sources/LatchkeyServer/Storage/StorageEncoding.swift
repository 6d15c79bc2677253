import Foundation

/// How values that SQL has no portable type for are stored, the same in every store
/// (see ``Migrations``): instants as Unix-epoch milliseconds, digests as lowercase hex.
enum StorageEncoding {
    /// The longest outbox `last_error` kept; longer texts are cut, so a chatty server
    /// cannot grow a row.
    static let lastErrorLimit = 1000

    /// `date` as whole milliseconds since the Unix epoch, rounded down. Sub-millisecond
    /// precision is dropped, so a `Date` read back may differ from the one written by
    /// less than a millisecond.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The instant `milliseconds` after the Unix epoch.
    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `bytes` as lowercase hexadecimal, two characters per byte.
    static func hex(_ bytes: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes that lowercase hexadecimal `text` spells; throws a storage error for
    /// anything else (odd length, other characters).
    static func bytes(hex text: String) throws -> Data {
        let characters = Array(text.utf8)
        guard characters.count.isMultiple(of: 2) else {
            throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "odd-length hex digest")
        }
        func nibble(_ character: UInt8) throws -> UInt8 {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
            default:
                throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "non-hex character in a digest")
            }
        }
        var bytes = Data(capacity: characters.count / 2)
        for index in stride(from: 0, to: characters.count, by: 2) {
            bytes.append(try nibble(characters[index]) << 4 | nibble(characters[index + 1]))
        }
        return bytes
    }
}
