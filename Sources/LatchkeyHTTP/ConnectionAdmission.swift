package import LatchkeyCore

/// Which new connections the server lets in: at most `limit` open at once, and at most so
/// many from one client network, except from the trusted proxies.
///
/// A client network is an IPv4 address, or for IPv6 each of the peer's /64, /56 and /48 at
/// once: one subscriber usually holds a whole /64 (often a /56, sometimes a /48) and could
/// rotate through it, so each prefix has a limit of its own — by default the /56 four times
/// the /64's, the /48 sixteen times. A trusted proxy carries many clients' connections, so
/// its own address is not held to the per-network limits (nor counted against its
/// networks'); every other peer is, proxies configured or not. A connection is *reserved*
/// when it is accepted (keyed by its descriptor, which is unique while the socket is open),
/// *claimed* when the HTTP library starts serving it and *released* when it closes. A
/// reservation the library never claimed (it closed the socket on the way, e.g. out of
/// memory) is released when its descriptor number comes back from `accept`, which proves the
/// old socket is gone — so no slot leaks.
package struct ConnectionAdmission: Sendable {
    /// What ``reserve(descriptor:peer:)`` decided.
    package enum Outcome: Equatable, Sendable {
        /// A place is reserved.
        case admitted
        /// One of the peer's networks holds as many connections as it may.
        case networkFull
        /// The peer's networks have room, the server does not: a place may be made by closing
        /// another connection.
        case serverFull
    }

    /// A prefix of an address, counted as one client network.
    package struct Network: Hashable, Sendable {
        /// The address with every bit past ``prefixLength`` cleared.
        package let address: IPAddress
        /// 32 for an IPv4 address; 64, 56 or 48 for IPv6.
        package let prefixLength: Int
    }

    /// The most connections open at once.
    package let limit: Int
    /// The most connections open at once from one IPv4 address or IPv6 /64.
    package let perNetworkLimit: Int
    /// The most connections open at once from one IPv6 /56.
    package let perSlash56Limit: Int
    /// The most connections open at once from one IPv6 /48.
    package let perSlash48Limit: Int
    /// Peers held only to the total limit: the trusted proxies.
    private let unlimitedPeers: Set<IPAddress>
    /// Connections reserved or open.
    private var total = 0
    private var perNetwork: [Network: Int] = [:]
    /// Peers of accepted connections the library has not started serving, by descriptor.
    private var reserved: [Int32: IPAddress] = [:]

    /// Creates an admission with nothing open; connections from `unlimitedPeers` (the trusted
    /// proxies) count only against `limit`. The /56 and /48 limits default to 4 and 16 times
    /// `perNetworkLimit`.
    package init(
        limit: Int, perNetworkLimit: Int, perSlash56Limit: Int? = nil, perSlash48Limit: Int? = nil,
        unlimitedPeers: Set<IPAddress> = []
    ) {
        self.limit = limit
        self.perNetworkLimit = perNetworkLimit
        self.perSlash56Limit = perSlash56Limit ?? 4 * perNetworkLimit
        self.perSlash48Limit = perSlash48Limit ?? 16 * perNetworkLimit
        self.unlimitedPeers = unlimitedPeers
    }

    /// Every network `address` is counted in: the address itself for IPv4 (also when mapped
    /// into IPv6); its /64, /56 and /48 for IPv6.
    package static func networks(of address: IPAddress) -> [Network] {
        guard address.isIPv6 else { return [Network(address: address, prefixLength: 32)] }
        return [64, 56, 48].map { length in
            let kept = length / 8
            let prefix = Array(address.bytes.prefix(kept)) + Array(repeating: 0, count: 16 - kept)
            return Network(address: IPAddress(bytes: prefix) ?? address, prefixLength: length)
        }
    }

    /// Reserves a place for the connection just accepted on `descriptor` from `peer`, unless
    /// a limit is reached (then nothing is reserved).
    package mutating func reserve(descriptor: Int32, peer: IPAddress) -> Outcome {
        if let stale = reserved.removeValue(forKey: descriptor) {
            release(stale)
        }
        let networks = unlimitedPeers.contains(peer) ? [] : Self.networks(of: peer)
        for network in networks where perNetwork[network, default: 0] >= limit(of: network) {
            return .networkFull
        }
        guard total < limit else { return .serverFull }
        for network in networks {
            perNetwork[network, default: 0] += 1
        }
        total += 1
        reserved[descriptor] = peer
        return .admitted
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
        for network in Self.networks(of: peer) {
            if let count = perNetwork[network], count > 1 {
                perNetwork[network] = count - 1
            } else {
                perNetwork[network] = nil
            }
        }
    }

    private func limit(of network: Network) -> Int {
        switch network.prefixLength {
        case 56: perSlash56Limit
        case 48: perSlash48Limit
        default: perNetworkLimit
        }
    }
}
