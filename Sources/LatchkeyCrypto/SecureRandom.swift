package import Foundation

/// Random bytes from the operating system's CSPRNG (`getrandom(2)` on Linux), drawn for each
/// call; no state is shared between threads or kept across a fork.
package enum SecureRandom {
    /// Returns `count` cryptographically secure random bytes.
    ///
    /// Traps if the random number generator fails: that only happens when the operating
    /// system cannot supply entropy, and carrying on with predictable secrets would be worse
    /// than stopping.
    package static func bytes(_ count: Int) -> Data {
        LibCrypto.randomBytes(count)
    }

    /// Returns a new secret token: `byteCount` random bytes as base64url without padding
    /// (43 characters for the default 32 bytes, i.e. 256 bits). Safe in URLs, fragments and
    /// JSON without escaping.
    package static func token(byteCount: Int = 32) -> Redacted<String> {
        Redacted(Base64URL.encode(bytes(byteCount)))
    }

    /// A random (version 4) UUID in lowercase text, e.g. `0d4e…-4…-a…`, from the CSPRNG.
    package static func identifier() -> String {
        uuidText(version: 4, milliseconds: nil)
    }

    /// A time-ordered (version 7, RFC 9562) UUID in lowercase text: the first 48 bits are
    /// `time` in milliseconds since 1970, the other 74 free bits random from the CSPRNG. Ids
    /// made later sort after earlier ones (within a millisecond, randomly), so rows keyed by
    /// them are appended to the end of their index instead of landing on a random page of it:
    /// for a table that grows by inserts, one page written per commit instead of one per row.
    /// For row ids only: it tells anyone who sees it when it was made.
    package static func identifier(orderedAt time: Date) -> String {
        uuidText(version: 7, milliseconds: milliseconds(time))
    }

    /// The text every ``identifier(orderedAt:)`` of `time`'s millisecond starts with, its 13
    /// characters of time (`01937f4a-2b1c`): ids made in an earlier millisecond sort before
    /// it, ids made in this one or a later one after it. So "made before `time`" is the
    /// range `id < identifierTimePrefix(time)` of an index on time-ordered ids.
    package static func identifierTimePrefix(_ time: Date) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6) { bytes in
            write(milliseconds: milliseconds(time), into: bytes)
            return uuidLayoutText(UnsafeBufferPointer(bytes))
        }
    }

    /// `time` in whole milliseconds since 1970, never negative.
    private static func milliseconds(_ time: Date) -> UInt64 {
        UInt64(max(0, (time.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// A UUID of `version` from 16 random bytes, the first six replaced by `milliseconds`
    /// when given and its variant bits set to RFC 9562's, as 8-4-4-4-12 lowercase hex. The
    /// bytes are drawn straight into a buffer on the stack, and the text written straight
    /// from them (a reset request makes one; as `Data` and then an array, they were three
    /// allocations).
    private static func uuidText(version: UInt8, milliseconds: UInt64?) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { bytes in
            LibCrypto.fillRandom(UnsafeMutableRawBufferPointer(bytes))
            if let milliseconds { write(milliseconds: milliseconds, into: bytes) }
            bytes[6] = bytes[6] & 0x0F | version << 4
            bytes[8] = bytes[8] & 0x3F | 0x80
            return uuidLayoutText(UnsafeBufferPointer(bytes))
        }
    }

    /// Writes the low 48 bits of `milliseconds`, big-endian, into the first six of `bytes`:
    /// a version 7 UUID's time.
    private static func write(milliseconds: UInt64, into bytes: UnsafeMutableBufferPointer<UInt8>) {
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(index))) }
    }

    /// `bytes` (at most 16) as lowercase hex in a UUID's layout, a hyphen before bytes 4, 6,
    /// 8 and 10: 8-4-4-4-12 digits for a whole UUID, its first 13 characters for its time.
    /// One writer for both, so an id and its time prefix cannot disagree.
    private static func uuidLayoutText(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: 36) { text in
            var length = 0
            for (offset, byte) in bytes.enumerated() {
                if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                    text[length] = UInt8(ascii: "-")
                    length += 1
                }
                text[length] = Hex.digit(byte >> 4)
                text[length + 1] = Hex.digit(byte & 0x0F)
                length += 2
            }
            return length
        }
    }
}
