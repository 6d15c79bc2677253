#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address, compared and printed in canonical form, so that
/// `::1` and `0:0::1` are the same address. An IPv4-mapped IPv6 address
/// (`::ffff:192.0.2.1`, what a dual-stack socket reports) is its IPv4 address.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    package let bytes: [UInt8]

    /// Parses an IPv4 or IPv6 literal; nil for anything else (host names, ports, zones, and
    /// text holding a NUL, where inet_pton would read only the C string before it).
    package init?(_ text: some StringProtocol) {
        let text = String(text)
        guard !text.utf8.contains(0) else { return nil }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            self.init(bytes: withUnsafeBytes(of: ipv4) { Array($0) })
            return
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, text, &ipv6) == 1 {
            self.init(bytes: withUnsafeBytes(of: ipv6) { Array($0) })
            return
        }
        return nil
    }

    /// Wraps raw address bytes (4 or 16); nil for any other length.
    package init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4:
            self.bytes = bytes
        case 16 where bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF:
            self.bytes = Array(bytes[12...])
        case 16:
            self.bytes = bytes
        default:
            return nil
        }
    }

    /// Whether this is an IPv6 address (after unmapping IPv4-mapped ones).
    package var isIPv6: Bool { bytes.count == 16 }

    /// Whether this is the unspecified address (`0.0.0.0` or `::`).
    package var isUnspecified: Bool { bytes.allSatisfy { $0 == 0 } }

    /// Whether this address is this machine's own: IPv4 127.0.0.0/8 or IPv6 `::1`.
    package var isLoopback: Bool {
        isIPv6 ? bytes.dropLast().allSatisfy { $0 == 0 } && bytes[15] == 1 : bytes[0] == 127
    }

    package var description: String {
        // Formatted on the stack: this runs for every request.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { text in
            text.initialize(repeating: 0)
            let written = bytes.withUnsafeBytes { raw in
                inet_ntop(isIPv6 ? AF_INET6 : AF_INET, raw.baseAddress, text.baseAddress, socklen_t(text.count))
            }
            return written.map { String(cString: $0) } ?? ""
        }
    }

    /// The network part only, for logs: IPv4 keeps the /24 (`203.0.113.0`), IPv6 the /48
    /// (`2001:db8:1::`), so a log identifies a network, not a person.
    package var truncatedForLogs: String {
        let keep = isIPv6 ? 6 : 3
        let masked = bytes.enumerated().map { $0.offset < keep ? $0.element : 0 }
        return IPAddress(bytes: masked)?.description ?? "invalid"
    }

    /// ``truncatedForLogs`` of a textual address; `invalid` when it is not one.
    package static func truncatedForLogs(_ text: String) -> String {
        IPAddress(text)?.truncatedForLogs ?? "invalid"
    }

    /// The wider network a client is in, for limits that must hold against an attacker with
    /// many addresses: the IPv4 /24 or the IPv6 /48 (the networks logs name, ``truncatedForLogs``);
    /// `invalid` when the text is no address.
    package static func widerNetworkKey(_ text: String) -> String {
        let network = truncatedForLogs(text)
        return network.contains(":") ? network + "/48" : network + "/24"
    }

    /// The unit a client is rate-limited as: the whole IPv4 address, or the IPv6 /64
    /// (one subscriber usually holds a whole /64 and could rotate through it).
    package static func rateLimitKey(_ text: String) -> String {
        // A dotted quad inet_pton takes is already in the one form inet_ntop writes (four
        // decimal parts, no leading zeros), so it is its own key: this runs for every limited
        // request, which skips the round trip through the bytes (docs/performance.md,
        // "Request path: rate-limit keys and security headers").
        var ipv4 = in_addr()
        if !text.utf8.contains(0), inet_pton(AF_INET, text, &ipv4) == 1 { return text }
        guard let address = IPAddress(text) else { return text }
        guard address.isIPv6 else { return address.description }
        return (IPAddress(bytes: Array(address.bytes.prefix(8)) + Array(repeating: 0, count: 8))?.description ?? text) + "/64"
    }
}
