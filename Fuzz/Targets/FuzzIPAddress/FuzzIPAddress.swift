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
        let network = ConnectionAdmission.network(of: address)
        expect(network.bytes.count == address.bytes.count, "the network is of another family")
        expect(
            zip(network.bytes, address.bytes).prefix(8).allSatisfy { $0 == $1 }
                && (address.isIPv6 ? network.bytes.dropFirst(8).allSatisfy { $0 == 0 } : network == address),
            "the network does not hold its address")
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
    var admission = ConnectionAdmission(limit: 8, perNetworkLimit: 2, unlimitedPeers: [peer])
    var open: [IPAddress: Int] = [:]
    for (descriptor, line) in lines.enumerated() {
        guard let address = IPAddress(line) else { continue }
        if admission.reserve(descriptor: Int32(descriptor), peer: address) {
            _ = admission.claim(descriptor: Int32(descriptor))
            if line.utf8.count % 2 == 1 {
                admission.release(address)
            } else if address != peer {
                open[ConnectionAdmission.network(of: address), default: 0] += 1
            }
        }
    }
    expect(open.values.allSatisfy { $0 <= 2 }, "a network was admitted past its limit")
    return 0
}
