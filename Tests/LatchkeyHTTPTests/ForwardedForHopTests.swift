import LatchkeyCore
import LatchkeyHTTP
import Testing

/// X-Forwarded-For hops the parser must refuse: found by the FuzzIPAddress target.
@Suite struct ForwardedForHopTests {
    @Test("a hop holding a NUL is not an address: the walk stops at the last trusted hop")
    func hopWithNUL() throws {
        let resolver = ClientIPResolver(trustedProxies: ["10.0.0.1"])
        let peer = try #require(IPAddress("10.0.0.1"))
        #expect(resolver.clientIP(peer: peer, forwardedFor: ["203.0.113.5\u{0}\u{0}1"]).description == "10.0.0.1")
        #expect(resolver.clientIP(peer: peer, forwardedFor: ["203.0.113.5"]).description == "203.0.113.5")
    }
}
