import Foundation

/// The bytes of the hex string `text` (test vectors are printed in hex); spaces are skipped.
func hex(_ text: String) -> Data {
    let digits = Array(text.filter { !$0.isWhitespace })
    return Data(stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! })
}
