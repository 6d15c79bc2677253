import Foundation
import LatchkeyHTTP
import LatchkeyServer
import Testing

/// `LATCHKEY_LISTEN=127.0.0.1:0` ("port 0 picks one"): what the server gives out names the
/// port it actually bound.
@Suite struct ListenPortTests {
    @Test("with port 0 the default public URL, issuer and audience name the bound port; a set public URL stays")
    func derivedURLsFollowThePort() throws {
        let derived = try Configuration.load(environment: ["LATCHKEY_LISTEN": "127.0.0.1:0"]).listening(onPort: 4321)
        #expect(derived.publicURL.absoluteString == "http://127.0.0.1:4321")
        #expect(derived.accessTokenAudience == "http://127.0.0.1:4321")
        #expect(derived.defaultResetURL == "http://127.0.0.1:4321/reset-password")
        #expect(derived.listenPort == 4321)

        let ipv6 = try Configuration.load(environment: ["LATCHKEY_LISTEN": "[::1]:0"]).listening(onPort: 4321)
        #expect(ipv6.publicURL.absoluteString == "http://[::1]:4321")

        let set = try Configuration.load(environment: [
            "LATCHKEY_LISTEN": "127.0.0.1:0", "LATCHKEY_PUBLIC_URL": "https://auth.example.com",
            "LATCHKEY_ACCESS_TOKEN_AUDIENCE": "https://api.example.com",
        ]).listening(onPort: 4321)
        #expect(set.publicURL.absoluteString == "https://auth.example.com")
        #expect(set.accessTokenAudience == "https://api.example.com")
    }

    @Test("the running server's OAuth metadata and reset links name the port it bound")
    func metadataNamesTheBoundPort() throws {
        let app = try makeApplication()
        let port = app.boundPort
        #expect(port != 0)
        #expect(app.configuration.publicURL.absoluteString == "http://127.0.0.1:\(port)")
        let response = app.router.handle(HTTPRequest(method: "GET", path: "/.well-known/oauth-authorization-server"))
        let metadata = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(metadata["issuer"] as? String == "http://127.0.0.1:\(port)")
        #expect(metadata["token_endpoint"] as? String == "http://127.0.0.1:\(port)/oauth/token")
    }
}
