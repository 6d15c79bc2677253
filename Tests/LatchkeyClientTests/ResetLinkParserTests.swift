import Foundation
import LatchkeyClient
import Testing

@Suite struct ResetLinkParserTests {
    static let token = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde"
    let parser = ResetLinkParser(universalLinkHosts: ["auth.example.com"], customSchemes: ["exampleapp"])

    @Test("universal and custom-scheme links give the token from the fragment or the query", arguments: [
        "https://auth.example.com/reset-password#token=\(token)",
        "https://AUTH.example.com/reset-password?token=\(token)",
        "https://auth.example.com/reset-password/#token=\(token)",
        "https://auth.example.com/reset-password?lang=pt#token=\(token)&x=1",
        "https://auth.example.com/reset-password?token=\(token)#token=\(token)",
        "exampleapp://reset-password#token=\(token)",
        "ExampleApp://reset-password?token=\(token)",
        "exampleapp:/reset-password#token=\(token)",
        "exampleapp:///reset-password#token=\(token)",
    ])
    func accepts(link: String) throws {
        let parsed = try parser.parse(try #require(URL(string: link)))
        #expect(parsed.token.exposed == Self.token)
    }

    @Test("any plausible token length is accepted: 16 to 512 base64url characters, dots too (Directus's JWTs)", arguments: [
        String(token.prefix(16)), String(token.dropLast()), token + "A", String(repeating: "x", count: 512),
        "eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6ImphbmVAZXhhbXBsZS5jb20ifQ.c2lnbmF0dXJl",
    ])
    func plausibleLengths(token: String) throws {
        let parsed = try parser.parse(try #require(URL(string: "https://auth.example.com/reset-password#token=\(token)")))
        #expect(parsed.token.exposed == token)
    }

    @Test("links that are not this app's reset links are rejected with the reason", arguments: [
        ("http://auth.example.com/reset-password#token=\(token)", "insecure_scheme"),
        ("ftp://auth.example.com/reset-password#token=\(token)", "wrong_scheme"),
        ("otherapp://reset-password#token=\(token)", "wrong_scheme"),
        ("https://evil.example.net/reset-password#token=\(token)", "wrong_host"),
        ("https://auth.example.com.evil.net/reset-password#token=\(token)", "wrong_host"),
        ("https://user@auth.example.com/reset-password#token=\(token)", "user_info"),
        ("https://auth.example.com/reset#token=\(token)", "wrong_path"),
        ("https://auth.example.com/reset-password/extra#token=\(token)", "wrong_path"),
        ("https://auth.example.com/#token=\(token)", "wrong_path"),
        ("exampleapp://other#token=\(token)", "wrong_path"),
        ("https://auth.example.com/reset-password", "missing_token"),
        ("https://auth.example.com/reset-password#code=\(token)", "missing_token"),
        ("https://auth.example.com/reset-password#token=", "malformed_token"),
        ("https://auth.example.com/reset-password#token", "malformed_token"),
        ("https://auth.example.com/reset-password#token=\(token.prefix(15))", "malformed_token"),
        ("https://auth.example.com/reset-password#token=\(String(repeating: "a", count: 513))", "malformed_token"),
        ("https://auth.example.com/reset-password#token=\(token.dropLast())%20", "malformed_token"),
        ("https://auth.example.com/reset-password#token=\(token.dropLast())%2B", "malformed_token"),
        ("https://auth.example.com/reset-password#token=\(token.dropLast())+", "malformed_token"),
        ("https://auth.example.com/reset-password#token=\(token)&token=\(token)", "conflicting_tokens"),
        ("https://auth.example.com/reset-password?token=\(token.dropLast())A#token=\(token)", "conflicting_tokens"),
    ])
    func rejects(link: String, reason: String) throws {
        let url = try #require(URL(string: link))
        #expect(throws: LatchkeyClientError(.invalidLink, reasons: [reason])) { try parser.parse(url) }
    }

    @Test("http links are accepted only when allowed and only on a configured loopback host")
    func insecureLoopback() throws {
        let local = ResetLinkParser(universalLinkHosts: ["127.0.0.1", "auth.example.com"], customSchemes: [], allowsInsecureLoopback: true)
        #expect(try local.parse(URL(string: "http://127.0.0.1:8080/reset-password#token=\(Self.token)")!).token.exposed == Self.token)
        #expect(throws: LatchkeyClientError(.invalidLink, reasons: ["insecure_scheme"])) {
            try local.parse(URL(string: "http://auth.example.com/reset-password#token=\(Self.token)")!)
        }
        #expect(throws: LatchkeyClientError(.invalidLink, reasons: ["insecure_scheme"])) {
            try ResetLinkParser(universalLinkHosts: ["127.0.0.1"], customSchemes: [])
                .parse(URL(string: "http://127.0.0.1:8080/reset-password#token=\(Self.token)")!)
        }
    }

    @Test("a custom path and several hosts are honoured")
    func customConfiguration() throws {
        let parser = ResetLinkParser(
            universalLinkHosts: ["a.example.com", "b.example.com"], path: "app/reset", customSchemes: [])
        let link = try parser.parse(try #require(URL(string: "https://b.example.com/app/reset#token=\(Self.token)")))
        #expect(link.token.exposed == Self.token)
        #expect(throws: LatchkeyClientError(.invalidLink, reasons: ["wrong_path"])) {
            try parser.parse(try #require(URL(string: "https://a.example.com/reset-password#token=\(Self.token)")))
        }
        #expect(throws: LatchkeyClientError(.invalidLink, reasons: ["wrong_scheme"])) {
            try parser.parse(try #require(URL(string: "exampleapp://app/reset#token=\(Self.token)")))
        }
    }

    @Test("a reset link's description, debug description and dump never show the token")
    func descriptionRedacted() throws {
        let link = try parser.parse(try #require(URL(string: "exampleapp://reset-password#token=\(Self.token)")))
        #expect(link.description == "ResetLink(token: <redacted>)")
        #expect(!String(reflecting: link).contains(Self.token))
        #expect(!"\(link)".contains(Self.token))
        var dumped = ""
        dump(link, to: &dumped)
        #expect(!dumped.contains(Self.token))
    }

    @Test("the rejection error never shows the link")
    func errorRedacted() throws {
        let url = try #require(URL(string: "https://evil.example.net/reset-password#token=\(Self.token)"))
        do {
            _ = try parser.parse(url)
            Issue.record("expected a rejection")
        } catch let error as LatchkeyClientError {
            #expect(error.code == .invalidLink)
            #expect(!String(describing: error).contains(Self.token))
            #expect(!error.message(for: .en).contains(Self.token))
        }
    }
}
