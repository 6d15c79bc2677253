package import LatchkeyCore

/// Which new connections the server lets in: at most `limit` open at once, and at most
/// `perNetworkLimit` from one client network, except from the trusted proxies.
///
/// A client network is an IPv4 address or an IPv6 /64 (one subscriber usually holds a whole
/// /64 and could rotate through it). A trusted proxy carries many clients' connections, so its
/// own address is not held to the per-network limit (nor counted against its network's);
/// every other peer is, proxies configured or not. A connection is *reserved* when it is
/// accepted (keyed by its descriptor, which is unique while the socket is open), *claimed*
/// when the HTTP library starts serving it and *released* when it closes. A reservation the
/// library never claimed (it closed the socket on the way, e.g. out of memory) is released
/// when its descriptor number comes back from `accept`, which proves the old socket is gone
/// — so no slot leaks.
package struct ConnectionAdmission: Sendable {
    /// The most connections open at once.
    package let limit: Int
    /// The most connections open at once from one client network.
    package let perNetworkLimit: Int
    /// Peers held only to the total limit: the trusted proxies.
    private let unlimitedPeers: Set<IPAddress>
    /// Connections reserved or open.
    private var total = 0
    private var perNetwork: [IPAddress: Int] = [:]
    /// Peers of accepted connections the library has not started serving, by descriptor.
    private var reserved: [Int32: IPAddress] = [:]

    /// Creates an admission with nothing open; connections from `unlimitedPeers` (the trusted
    /// proxies) count only against `limit`.
    package init(limit: Int, perNetworkLimit: Int, unlimitedPeers: Set<IPAddress> = []) {
        self.limit = limit
        self.perNetworkLimit = perNetworkLimit
        self.unlimitedPeers = unlimitedPeers
    }

    /// The network `address` is counted in: the address itself for IPv4 (also when mapped
    /// into IPv6), its /64 for IPv6.
    package static func network(of address: IPAddress) -> IPAddress {
        guard address.isIPv6 else { return address }
        return IPAddress(bytes: Array(address.bytes.prefix(8)) + Array(repeating: 0, count: 8)) ?? address
    }

    /// Reserves a place for the connection just accepted on `descriptor` from `peer`; false
    /// (nothing reserved) when either limit is reached.
    package mutating func reserve(descriptor: Int32, peer: IPAddress) -> Bool {
        if let stale = reserved.removeValue(forKey: descriptor) {
            release(stale)
        }
        guard total < limit else { return false }
        if !unlimitedPeers.contains(peer) {
            let network = Self.network(of: peer)
            guard perNetwork[network, default: 0] < perNetworkLimit else { return false }
            perNetwork[network, default: 0] += 1
        }
        total += 1
        reserved[descriptor] = peer
        return true
    }

    /// Turns the reservation of `descriptor` into an open connection; returns its peer, to
    /// pass to ``release(_:)`` when it closes (nil: no reservation, nothing to release).
    package mutating func claim(descriptor: Int32) -> IPAddress? {
        reserved.removeValue(forKey: descriptor)
    }

    /// Drops the reservation of `descriptor`, whose socket was closed before it was served.
    package mutating func cancel(descriptor: Int32) {
        if let peer = reserved.removeValue(forKey: descriptor) {
            release(peer)
        }
    }

    /// Frees the place of a closed connection from `peer`.
    package mutating func release(_ peer: IPAddress) {
        total -= 1
        guard !unlimitedPeers.contains(peer) else { return }
        let network = Self.network(of: peer)
        if let count = perNetwork[network], count > 1 {
            perNetwork[network] = count - 1
        } else {
            perNetwork[network] = nil
        }
    }
}
