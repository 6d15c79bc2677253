import LatchkeyCore
import LatchkeyFuzzSupport
import LatchkeyHTTP

// IP address literals (IPAddress, over inet_pton), X-Forwarded-For (ClientIPResolver) and
// the client networks connections are counted in (ConnectionAdmission). The input's first
// line is the peer, every later line an X-Forwarded-For value. Properties: an address
// prints in a form that parses back to itself; the rate-limit key of a literal is that of
// its printed form; the resolved client is the peer or a hop that parsed, with only trusted
// proxies right of it; a network holds its address; no network is admitted more
// connections than its limit.

private let proxies = ["10.0.0.1", "10.0.0.2", "2001:db8::1"]
private let resolver = ClientIPResolver(trustedProxies: proxies)
private let trusted = Set(proxies.compactMap { IPAddress($0) })

/// `hop` without the spaces and tabs around it, as the resolver trims it.
private func trimmed(_ hop: Substring) -> Substring {
    let isContent: (Character) -> Bool = { $0 != " " && $0 != "\t" }
    guard let first = hop.firstIndex(where: isContent), let last = hop.lastIndex(where: isContent) else { return "" }
    return hop[first...last]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIPAddress(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let lines = FuzzInput(data, size).lines()
    let first = lines[0]

    if let address = IPAddress(first) {
        expect(address.bytes.count == 4 || address.bytes.count == 16, "an address of \(address.bytes.count) bytes")
        let printed = address.description
        expect(IPAddress(printed) == address, "the printed form does not parse back to the address")
        expect(IPAddress.rateLimitKey(first) == IPAddress.rateLimitKey(printed), "two forms of one address have two keys")
        // An IPv4 address is its own network; an IPv6 one is in its /64, /56 and /48.
        let networks = ConnectionAdmission.networks(of: address)
        expect(networks.map(\.prefixLength) == (address.isIPv6 ? [64, 56, 48] : [32]), "the wrong networks")
        for network in networks {
            let kept = network.prefixLength / 8
            expect(network.address.bytes.count == address.bytes.count, "the network is of another family")
            expect(
                network.address.bytes.prefix(kept).elementsEqual(address.bytes.prefix(kept))
                    && network.address.bytes.dropFirst(kept).allSatisfy { $0 == 0 },
                "the network does not hold its address")
        }
        expect(IPAddress.truncatedForLogs(first) != "invalid", "a parsed address truncates as invalid")
    } else {
        expect(IPAddress.rateLimitKey(first) == first, "a non-address got a derived key")
    }

    // X-Forwarded-For behind a trusted proxy.
    let peer = IPAddress(proxies[Int(first.utf8.count % proxies.count)])!
    let forwardedFor = Array(lines.dropFirst())
    let client = resolver.clientIP(peer: peer, forwardedFor: forwardedFor)
    if client != peer {
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
            .map { IPAddress(trimmed($0)) }
        guard let position = hops.lastIndex(where: { $0 == client }) else {
            expect(false, "the client is neither the peer nor a hop")
            return 0
        }
        expect(
            hops[(position + 1)...].allSatisfy { $0.map(trusted.contains) ?? false },
            "a hop right of the client is not a trusted proxy")
    }

    // Admission: every parsed line is a connection; closed ones are the lines of odd length.
    // Per network: 2 for an IPv4 address or IPv6 /64, 4 × that per /56, 16 × per /48.
    var admission = ConnectionAdmission(limit: 8, perNetworkLimit: 2, unlimitedPeers: [peer])
    var open: [ConnectionAdmission.Network: Int] = [:]
    for (descriptor, line) in lines.enumerated() {
        guard let address = IPAddress(line) else { continue }
        if admission.reserve(descriptor: Int32(descriptor), peer: address) == .admitted {
            _ = admission.claim(descriptor: Int32(descriptor))
            if line.utf8.count % 2 == 1 {
                admission.release(address)
            } else if address != peer {
                for network in ConnectionAdmission.networks(of: address) { open[network, default: 0] += 1 }
            }
        }
    }
    let limits = [32: 2, 64: 2, 56: 8, 48: 32]
    expect(open.allSatisfy { $0.value <= limits[$0.key.prefixLength, default: 0] }, "a network was admitted past its limit")
    return 0
}
