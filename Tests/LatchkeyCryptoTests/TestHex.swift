import Foundation

extension Data {
    /// Lowercase hex, the form test vectors are printed in.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
