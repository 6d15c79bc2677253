import LatchkeyCore
import Testing

@Suite struct RedirectURITests {
    @Test(
        "https, reverse-DNS private-use schemes and loopback IP literals are accepted",
        arguments: [
            ("https://app.example.com/oauth/callback", RedirectURI.Kind.https),
            ("https://app.example.com:8443/cb?mode=app", .https),
            ("https://[2001:db8::1]/cb", .https),
            ("com.example.app:/oauth", .privateUseScheme),
            ("com.googleusercontent.apps.123-abc:/oauth2redirect", .privateUseScheme),
            ("http://127.0.0.1/callback", .loopback),
            ("http://127.0.0.1:51004/callback", .loopback),
            ("http://[::1]/callback", .loopback),
            ("http://[::1]:8080/cb?x=1", .loopback),
        ])
    func accepted(text: String, kind: RedirectURI.Kind) throws {
        let uri = try RedirectURI(text)
        #expect(uri.kind == kind)
        #expect(uri.value == text)
        #expect(uri.matches(text))
    }

    @Test(
        "unsafe or ambiguous redirect URIs are rejected with a message naming the problem",
        arguments: [
            ("http://app.example.com/cb", "loopback"),
            ("http://localhost/cb", "localhost"),
            ("http://localhost:8080/cb", "localhost"),
            ("https://app.example.com/cb#frag", "fragment"),
            ("com.example.app:/oauth#x", "fragment"),
            ("https://user:pass@app.example.com/cb", "user info"),
            ("https://evil.example@app.example.com/cb", "user info"),
            ("https://*.example.com/cb", "wildcard"),
            ("javascript:alert(1)", "reverse-DNS"),
            ("data:text/html,hi", "reverse-DNS"),
            ("file:/etc/passwd", "reverse-DNS"),
            ("myapp:/oauth", "reverse-DNS"),
            ("com..example:/oauth", "reverse-DNS"),
            ("com.example.app://oauth", "one slash"),
            ("com.example.app:oauth", "one slash"),
            ("HTTPS://app.example.com/cb", "lowercase scheme"),
            ("https:/app.example.com/cb", "//"),
            ("https:///cb", "no host"),
            ("https://app.example.com:99999/cb", "port"),
            ("https://app.example.com:/cb", "port"),
            ("http://127.0.0.1:abc/cb", "port"),
            ("https://app example.com/cb", "printable ASCII"),
            ("https://app.example.com/c\u{e9}", "printable ASCII"),
            ("/relative/path", "scheme"),
            ("", "1 to 2048"),
        ])
    func rejected(text: String, problem: String) {
        let error = #expect(throws: LatchkeyError.self) { try RedirectURI(text) }
        #expect(error?.code == .invalidRedirectURI)
        #expect(error?.message.contains(problem) == true, "\(error?.message ?? "")")
    }

    @Test("a redirect URI longer than 2048 bytes is rejected")
    func tooLong() {
        let error = #expect(throws: LatchkeyError.self) {
            try RedirectURI("https://app.example.com/" + String(repeating: "a", count: 2048))
        }
        #expect(error?.code == .invalidRedirectURI)
    }

    @Test("a loopback redirect URI matches any port, and nothing else")
    func loopbackPorts() throws {
        let registered = try RedirectURI("http://127.0.0.1/callback")
        #expect(registered.matches("http://127.0.0.1:51004/callback"))
        #expect(registered.matches("http://127.0.0.1:1/callback"))
        #expect(try RedirectURI("http://127.0.0.1:9000/callback").matches("http://127.0.0.1/callback"))
        #expect(!registered.matches("http://127.0.0.1:51004/callback2"))
        #expect(!registered.matches("http://127.0.0.1:51004/callback?x=1"))
        #expect(!registered.matches("http://[::1]:51004/callback"))
        #expect(!registered.matches("http://localhost:51004/callback"))
        #expect(!registered.matches("https://127.0.0.1:51004/callback"))
        #expect(!registered.matches("http://127.0.0.1:99999/callback"))
        #expect(!registered.matches("http://127.0.0.1:51004/callback#x"))
        #expect(try RedirectURI("http://[::1]/cb").matches("http://[::1]:8080/cb"))
    }

    @Test("https and private-use redirect URIs match only exactly, port and case included")
    func exactMatch() throws {
        let https = try RedirectURI("https://app.example.com/cb")
        #expect(!https.matches("https://app.example.com:443/cb"))
        #expect(!https.matches("https://app.example.com/cb/"))
        #expect(!https.matches("https://APP.example.com/cb"))
        #expect(!https.matches("https://app.example.com/cb?x=1"))
        let app = try RedirectURI("com.example.app:/oauth")
        #expect(!app.matches("com.example.app:/oauth/"))
        #expect(!app.matches("com.example.evil:/oauth"))
        #expect(!(try RedirectURI("https://app.example.com/K")).matches("https://app.example.com/\u{212A}"))
    }
}
