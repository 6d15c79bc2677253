package import LatchkeyCore

/// Which new connections the server lets in: at most `limit` open at once, and at most
/// `perNetworkLimit` from one client network.
///
/// A client network is an IPv4 address or an IPv6 /64 (one subscriber usually holds a whole
/// /64 and could rotate through it). A connection is *reserved* when it is accepted (keyed by
/// its descriptor, which is unique while the socket is open), *claimed* when the HTTP library
/// starts serving it and *released* when it closes. A reservation the library never claimed
/// (it closed the socket on the way, e.g. out of memory) is released when its descriptor
/// number comes back from `accept`, which proves the old socket is gone — so no slot leaks.
package struct ConnectionAdmission: Sendable {
    /// The most connections open at once.
    package let limit: Int
    /// The most connections open at once from one client network; nil counts none
    /// (behind trusted proxies every connection comes from a proxy).
    package let perNetworkLimit: Int?
    /// Connections reserved or open.
    package private(set) var total = 0
    private var perNetwork: [IPAddress: Int] = [:]
    /// Peers of accepted connections the library has not started serving, by descriptor.
    private var reserved: [Int32: IPAddress] = [:]

    /// Creates an admission with nothing open.
    package init(limit: Int, perNetworkLimit: Int?) {
        self.limit = limit
        self.perNetworkLimit = perNetworkLimit
    }

    /// The network `address` is counted in: the address itself for IPv4 (also when mapped
    /// into IPv6), its /64 for IPv6.
    package static func network(of address: IPAddress) -> IPAddress {
        guard address.isIPv6 else { return address }
        return IPAddress(bytes: Array(address.bytes.prefix(8)) + Array(repeating: 0, count: 8)) ?? address
    }

    /// Connections reserved or open from `address`'s network.
    package func count(from address: IPAddress) -> Int {
        perNetwork[Self.network(of: address)] ?? 0
    }

    /// Reserves a place for the connection just accepted on `descriptor` from `peer`; false
    /// (nothing reserved) when either limit is reached.
    package mutating func reserve(descriptor: Int32, peer: IPAddress) -> Bool {
        if let stale = reserved.removeValue(forKey: descriptor) {
            release(stale)
        }
        let network = Self.network(of: peer)
        guard total < limit, perNetworkLimit.map({ perNetwork[network, default: 0] < $0 }) ?? true else { return false }
        total += 1
        perNetwork[network, default: 0] += 1
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
        let network = Self.network(of: peer)
        total -= 1
        if let count = perNetwork[network], count > 1 {
            perNetwork[network] = count - 1
        } else {
            perNetwork[network] = nil
        }
    }
}
