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
        // Three bytes to four symbols, written straight into the string's storage: every token
        // a request issues (an access token's parts, a refresh token) is encoded here, and
        // appending symbol by symbol to an array cost far more (measured: docs/performance.md,
        // "Base64url written and read in place").
        let length = (data.count * 4 + 2) / 3
        guard length > 0 else { return "" }
        return symbols.withUnsafeBufferPointer { symbols in
            data.withUnsafeBytes { bytes in
                String(unsafeUninitializedCapacity: length) { text in
                    var input = 0
                    var output = 0
                    while bytes.count - input >= 3 {
                        let group = UInt32(bytes[input]) << 16 | UInt32(bytes[input + 1]) << 8 | UInt32(bytes[input + 2])
                        text[output] = symbols[Int(group >> 18)]
                        text[output + 1] = symbols[Int(group >> 12 & 0x3F)]
                        text[output + 2] = symbols[Int(group >> 6 & 0x3F)]
                        text[output + 3] = symbols[Int(group & 0x3F)]
                        input += 3
                        output += 4
                    }
                    // One or two bytes left: two or three symbols, the unused low bits zero.
                    let left = bytes.count - input
                    if left > 0 {
                        let group = UInt32(bytes[input]) << 16 | (left == 2 ? UInt32(bytes[input + 1]) << 8 : 0)
                        text[output] = symbols[Int(group >> 18)]
                        text[output + 1] = symbols[Int(group >> 12 & 0x3F)]
                        output += 2
                        if left == 2 {
                            text[output] = symbols[Int(group >> 6 & 0x3F)]
                            output += 1
                        }
                    }
                    return output
                }
            }
        }
    }

    func decode(_ text: String) -> Data? {
        // Read in the string's contiguous UTF-8 and written straight into the result: a
        // reset token is checked here on every request that carries one, and iterating the
        // string's view while appending to an array cost far more (measured:
        // docs/performance.md, "Base64url written and read in place").
        var text = text
        return text.withUTF8 { input -> Data? in
            var output = Data(count: input.count * 3 / 4)
            let valid = values.withUnsafeBufferPointer { values in
                output.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) -> Bool in
                    var accumulator: UInt32 = 0
                    var bits = 0
                    var written = 0
                    for symbol in input {
                        let value = values[Int(symbol)]
                        guard value != Self.invalid else { return false }
                        accumulator = ((accumulator << 6) | UInt32(value)) & 0xFFF
                        bits += 6
                        if bits >= 8 {
                            bits -= 8
                            output[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                            written += 1
                        }
                    }
                    // 6 leftover bits means a length of 4n+1; other leftovers must be zero padding bits.
                    return bits < 6 && accumulator & ((1 << UInt32(bits)) - 1) == 0
                }
            }
            return valid ? output : nil
        }
    }
}
