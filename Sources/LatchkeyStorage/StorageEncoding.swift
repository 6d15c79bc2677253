import LatchkeyCore
import Foundation
import LatchkeyCrypto

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
        Hex.encode(bytes)
    }

    /// The bytes that lowercase hexadecimal `text` spells; throws a storage error for
    /// anything else (odd length, other characters).
    static func bytes(hex text: String) throws -> Data {
        guard let bytes = Hex.decode(text) else {
            throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "malformed hex digest")
        }
        return bytes
    }
}
