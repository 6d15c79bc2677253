@testable import LatchkeyCore
@testable import LatchkeyHTTP
import Testing

@Suite struct ClientIPResolverTests {
    private func clientIP(peer: String, trusting proxies: [String], forwardedFor: [String]) throws -> String {
        let peer = try #require(IPAddress(peer))
        return ClientIPResolver(trustedProxies: proxies).clientIP(peer: peer, forwardedFor: forwardedFor).description
    }

    @Test("an untrusted peer is the client whatever X-Forwarded-For claims")
    func untrustedPeer() throws {
        #expect(try clientIP(peer: "198.51.100.1", trusting: ["10.0.0.1"], forwardedFor: ["203.0.113.5"]) == "198.51.100.1")
    }

    @Test("the right-most hop that is not a trusted proxy is the client; forged hops left of it are ignored")
    func rightMostUntrusted() throws {
        let hops = ["6.6.6.6, 203.0.113.5, 10.0.0.2"]
        #expect(try clientIP(peer: "10.0.0.1", trusting: ["10.0.0.1", "10.0.0.2"], forwardedFor: hops) == "203.0.113.5")
    }

    @Test("when every hop is a trusted proxy the left-most hop is the client")
    func allTrusted() throws {
        #expect(try clientIP(peer: "10.0.0.1", trusting: ["10.0.0.1", "10.0.0.2"], forwardedFor: ["10.0.0.2"]) == "10.0.0.2")
        #expect(try clientIP(peer: "10.0.0.1", trusting: ["10.0.0.1"], forwardedFor: []) == "10.0.0.1")
    }

    @Test("a hop that is not an address stops the walk at the last trusted hop")
    func garbageHop() throws {
        #expect(try clientIP(peer: "10.0.0.1", trusting: ["10.0.0.1"], forwardedFor: ["203.0.113.5, unknown"]) == "10.0.0.1")
    }

    @Test("a client is limited as its IPv4 address or its IPv6 /64, whichever way the address is spelled")
    func rateLimitKeys() {
        #expect(IPAddress.rateLimitKey("203.0.113.7") == "203.0.113.7")
        #expect(IPAddress.rateLimitKey("::ffff:203.0.113.7") == "203.0.113.7")
        #expect(IPAddress.rateLimitKey("::FFFF:cb00:7107") == "203.0.113.7")
        #expect(IPAddress.rateLimitKey("2001:DB8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        #expect(IPAddress.rateLimitKey("2001:db8:1:2::9") == "2001:db8:1:2::/64")
        // Not an address (a leading zero, a port): kept as given, like any other text.
        #expect(IPAddress.rateLimitKey("203.0.113.07") == "203.0.113.07")
        #expect(IPAddress.rateLimitKey("203.0.113.7:80") == "203.0.113.7:80")
    }

    @Test("addresses compare in canonical form: IPv6 spellings and IPv4-mapped addresses")
    func canonicalForms() throws {
        #expect(try clientIP(peer: "::1", trusting: ["0:0:0:0:0:0:0:1"], forwardedFor: ["2001:DB8::0001"]) == "2001:db8::1")
        #expect(try clientIP(peer: "::ffff:10.0.0.1", trusting: ["10.0.0.1"], forwardedFor: [" 203.0.113.5 "]) == "203.0.113.5")
        #expect(IPAddress("::ffff:192.0.2.1")?.description == "192.0.2.1")
        #expect(IPAddress("example.com") == nil)
        #expect(IPAddress("192.0.2.1:80") == nil)
    }
}
