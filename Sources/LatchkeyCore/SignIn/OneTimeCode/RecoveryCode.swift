import Foundation
package import LatchkeyCrypto

/// Recovery codes: what a person who lost their authenticator app types instead of its code.
///
/// Promises:
/// - A set is ``count`` codes of ``length`` symbols of Crockford's base32 alphabet
///   (`0–9 A–Z` without `I L O U`), each symbol 5 bits drawn uniformly from the CSPRNG: 60 bits
///   a code. Shown in groups of four (`7KQ2-M9XD-C4RT`).
/// - Input is read as people type it (``normalized(_:)``): any case, spaces and hyphens
///   ignored, and the lookalikes `O` read as `0`, `I` and `L` as `1`.
/// - Only a digest is stored (``digest(_:accountID:)``): SHA-256 over a label, the account id and
///   the code, so one table of precomputed digests serves no other account.
package enum RecoveryCode {
    /// Codes in a set: 10.
    package static let count = 10
    /// Symbols in a code: 12 (60 bits).
    package static let length = 12

    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// A new set of ``count`` codes, each as shown to the person (three groups of four).
    package static func generate() -> [Redacted<String>] {
        (0..<count).map { _ in
            let symbols = SecureRandom.bytes(length).map { alphabet[Int($0 & 0x1F)] }
            let text = String(decoding: symbols, as: UTF8.self)
            return Redacted(stride(from: 0, to: length, by: 4).map { offset in
                let start = text.index(text.startIndex, offsetBy: offset)
                return String(text[start..<text.index(start, offsetBy: 4)])
            }.joined(separator: "-"))
        }
    }

    /// The code `text` as stored, its ``length`` symbols in upper case; nil when it is not one
    /// (another length, or a character outside the alphabet and its lookalikes).
    package static func normalized(_ text: String) -> String? {
        var symbols = [UInt8]()
        for byte in text.utf8 {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") { continue }
            var upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
            switch upper {
            case UInt8(ascii: "O"): upper = UInt8(ascii: "0")
            case UInt8(ascii: "I"), UInt8(ascii: "L"): upper = UInt8(ascii: "1")
            default: break
            }
            guard alphabet.contains(upper), symbols.count < length else { return nil }
            symbols.append(upper)
        }
        return symbols.count == length ? String(decoding: symbols, as: UTF8.self) : nil
    }

    /// The stored digest of the normalised code `code` of the account `accountID`: 64 lowercase
    /// hex characters.
    package static func digest(_ code: String, accountID: String) -> String {
        Hex.encode(SHA256.hash(utf8: "latchkey-recovery-code-v1:\(accountID):\(code)"))
    }
}
