package import LatchkeyCore
/// Decides which IP address a request comes from.
///
/// The TCP peer is the client unless the peer is a configured trusted proxy. Then the
/// `X-Forwarded-For` hops are read from the right (the hop the nearest proxy appended)
/// and the first one that is not itself a trusted proxy is the client. Hops left of it
/// were written by the client and could be forged, so they are never used.
package struct ClientIPResolver: Sendable {
    private let trustedProxies: Set<IPAddress>

    /// Creates a resolver trusting `trustedProxies`; entries that are not IP addresses
    /// are ignored (the server configuration rejects them before this point).
    package init(trustedProxies: [String]) {
        self.trustedProxies = Set(trustedProxies.compactMap { IPAddress($0) })
    }

    /// The client's address, given the TCP peer and every `X-Forwarded-For` value in order.
    package func clientIP(peer: IPAddress, forwardedFor: [String]) -> IPAddress {
        guard trustedProxies.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        var client = peer
        for hop in hops.reversed() {
            // A hop that is not an address means the proxy chain is misconfigured; the
            // last trusted hop is the best answer that cannot be forged.
            guard let address = IPAddress(hop.trimmingASCIIWhitespace()) else { return client }
            client = address
            if !trustedProxies.contains(address) { return address }
        }
        return client
    }
}

extension Substring {
    fileprivate func trimmingASCIIWhitespace() -> Substring {
        let isContent: (Character) -> Bool = { $0 != " " && $0 != "\t" }
        guard let first = firstIndex(where: isContent), let last = lastIndex(where: isContent) else { return "" }
        return self[first...last]
    }
}
