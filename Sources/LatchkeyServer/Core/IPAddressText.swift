import Foundation

/// Parsing and privacy-preserving shortening of textual IP addresses.
enum IPAddressText {
    /// Whether `text` is an IPv4 dotted quad or an IPv6 address.
    static func isValid(_ text: String) -> Bool {
        isIPv4(text) || isIPv6(text)
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                && Int(part).map { $0 <= 255 } == true && !(part.count > 1 && part.hasPrefix("0"))
        }
    }

    static func isIPv6(_ text: String) -> Bool {
        guard text.contains(":"), text.count <= 45 else { return false }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        var groups = halves.flatMap { $0.isEmpty ? [] : $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) }
        var expected = 8
        if let last = groups.last, last.contains(".") {
            guard isIPv4(last) else { return false }
            groups.removeLast()
            expected = 6
        }
        guard groups.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy(\.isHexDigit) }) else { return false }
        return halves.count == 2 ? groups.count < expected : groups.count == expected
    }

    /// The address with its host part removed, for logs: IPv4 keeps the /24 network
    /// (`203.0.113.0`), IPv6 the /48 (`2001:db8:1::`).
    static func truncated(_ text: String) -> String {
        if isIPv4(text) {
            return text.split(separator: ".").prefix(3).joined(separator: ".") + ".0"
        }
        if isIPv6(text) {
            let expanded = expandIPv6(text)
            return expanded.prefix(3).map { String(Int($0, radix: 16) ?? 0, radix: 16) }.joined(separator: ":") + "::"
        }
        return "invalid"
    }

    private static func expandIPv6(_ text: String) -> [String] {
        let halves = text.components(separatedBy: "::")
        let head = halves[0].isEmpty ? [] : halves[0].split(separator: ":").map(String.init)
        let tail = halves.count > 1 && !halves[1].isEmpty ? halves[1].split(separator: ":").map(String.init) : []
        let missing = max(0, 8 - head.count - tail.count)
        return head + Array(repeating: "0", count: missing) + tail
    }
}
