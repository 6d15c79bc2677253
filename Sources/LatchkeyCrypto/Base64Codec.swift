import Foundation

/// Unpadded base64 with a choice of alphabet: base64url (RFC 4648 §5) for tokens and JOSE,
/// standard base64 (RFC 4648 §4) for PHC strings.
///
/// Decoding is strict: only characters of the alphabet, no padding, no whitespace, no
/// length that cannot come from an encoder (4n+1), and the unused low bits of the last
/// character must be zero, so every byte string has exactly one accepted encoding.
struct Base64Codec: Sendable {
    /// RFC 4648 §5: `A–Z a–z 0–9 - _`.
    static let url = Base64Codec(last2: "-_")
    /// RFC 4648 §4: `A–Z a–z 0–9 + /`.
    static let standard = Base64Codec(last2: "+/")

    private let symbols: [UInt8]
    private let values: [UInt8]
    private static let invalid: UInt8 = 0xFF

    private init(last2: String) {
        let symbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
            + Array(last2.utf8)
        var values = [UInt8](repeating: Self.invalid, count: 256)
        for (value, symbol) in symbols.enumerated() {
            values[Int(symbol)] = UInt8(value)
        }
        self.symbols = symbols
        self.values = values
    }

    func encode(_ data: Data) -> String {
        var output = [UInt8]()
        output.reserveCapacity((data.count * 4 + 2) / 3)
        var accumulator: UInt32 = 0
        var bits = 0
        // Through the buffer, not Data's iterator, which costs a call per byte.
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                accumulator = (accumulator << 8) | UInt32(byte)
                bits += 8
                while bits >= 6 {
                    bits -= 6
                    output.append(symbols[Int((accumulator >> UInt32(bits)) & 0x3F)])
                }
            }
        }
        if bits > 0 {
            output.append(symbols[Int((accumulator << UInt32(6 - bits)) & 0x3F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    func decode(_ text: String) -> Data? {
        // Bytes collect in an array (Data appends one byte at a time slowly) and become Data once.
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for symbol in text.utf8 {
            let value = values[Int(symbol)]
            guard value != Self.invalid else { return nil }
            accumulator = ((accumulator << 6) | UInt32(value)) & 0xFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // 6 leftover bits means a length of 4n+1; other leftovers must be zero padding bits.
        guard bits < 6, accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return Data(output)
    }
}
