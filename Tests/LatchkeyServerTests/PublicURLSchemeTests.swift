import Foundation
import LatchkeyCore
import LatchkeyServer
import Testing

/// The public URL is the issuer and the base of every endpoint: plain http is accepted only
/// where nothing crosses a network, or when a development setting says so.
@Suite struct PublicURLSchemeTests {
    @Test("an http public URL for a host other than loopback stops start-up, naming the setting and the way out", arguments: [
        ["LATCHKEY_PUBLIC_URL": "http://auth.example.com"],
        ["LATCHKEY_PUBLIC_URL": "HTTP://192.168.1.20:8080"],
        ["LATCHKEY_PUBLIC_URL": "http://[2001:db8::1]:8080/id"],
        ["LATCHKEY_PUBLIC_URL": "http://localhost.example.com"],
        ["LATCHKEY_PUBLIC_URL": "http://128.0.0.1"],
        ["LATCHKEY_LISTEN": "0.0.0.0:8080"],
        ["LATCHKEY_LISTEN": "[::]:8080"],
    ])
    func httpForARemoteHostIsRefused(environment: [String: String]) {
        let error = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: environment) }
        #expect(error?.code == .invalidConfiguration)
        let message = error?.message ?? ""
        #expect(message.hasPrefix("LATCHKEY_PUBLIC_URL must be an https URL when its host is not loopback"), "\(message)")
        #expect(message.contains("LATCHKEY_ALLOW_HTTP_PUBLIC_URL=true for development only"))
        #expect(message.contains("derived from LATCHKEY_LISTEN") == (environment["LATCHKEY_PUBLIC_URL"] == nil))
    }

    @Test("http is accepted for loopback hosts (127.0.0.0/8, ::1, localhost) and https for any host", arguments: [
        "http://127.0.0.1:8080", "http://127.1.2.3", "http://[::1]:9000/auth", "http://localhost:8080", "http://LOCALHOST",
        "https://auth.example.com", "https://192.168.1.20/id",
    ])
    func loopbackAndHTTPSAreAccepted(url: String) throws {
        let configuration = try Configuration.load(environment: ["LATCHKEY_PUBLIC_URL": url])
        #expect(configuration.publicURL.absoluteString.lowercased() == url.lowercased())
        #expect(!configuration.productionAdvice.map(\.setting).contains("LATCHKEY_ALLOW_HTTP_PUBLIC_URL"))
    }

    @Test("LATCHKEY_ALLOW_HTTP_PUBLIC_URL=true accepts an http public URL and is reported as production advice")
    func developmentSettingAllowsHTTP() throws {
        let configuration = try Configuration.load(environment: [
            "LATCHKEY_PUBLIC_URL": "http://auth.example.test", "LATCHKEY_ALLOW_HTTP_PUBLIC_URL": "true",
        ])
        #expect(configuration.publicURL.absoluteString == "http://auth.example.test")
        let advice = try #require(configuration.productionAdvice.first { $0.setting == "LATCHKEY_ALLOW_HTTP_PUBLIC_URL" })
        #expect(advice.recommendation == "false, with an https LATCHKEY_PUBLIC_URL")
        let derived = try Configuration.load(environment: ["LATCHKEY_LISTEN": "0.0.0.0:0", "LATCHKEY_ALLOW_HTTP_PUBLIC_URL": "yes"])
        #expect(derived.listening(onPort: 4321).publicURL.absoluteString == "http://0.0.0.0:4321")
    }
}
