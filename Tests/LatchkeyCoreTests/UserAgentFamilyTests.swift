import LatchkeyCore
import Testing

/// What the list of signed-in devices keeps of a `User-Agent` header: a browser or app and an
/// operating system, never the header.
@Suite struct UserAgentFamilyTests {
    @Test("browsers and systems are named by the tokens each sends, the most specific first", arguments: [
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
         "Safari on iOS"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
         "Safari on macOS"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0",
         "Edge on Windows"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
         "Chrome on Windows"),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
         "Chrome on Android"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0 Mobile/15E148 Safari/604.1",
         "Chrome on iOS"),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "Firefox on Linux"),
        ("Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
         "Chrome on ChromeOS"),
        ("Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
         "Samsung Internet on Android"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/109.0.0.0",
         "Opera on Windows"),
    ])
    func browsers(header: String, family: String) {
        #expect(UserAgentFamily.describe(header) == family)
    }

    @Test("another client is named by its first product token, if that is a plain name", arguments: [
        ("MyApp/3 CFNetwork/1490.0.4 Darwin/23.2.0", "MyApp"),
        ("python-requests/2.32.3", "python-requests"),
        ("curl/8.5.0", "curl"),
        ("Mozilla/5.0 (X11; Linux x86_64)", "Linux"),
    ])
    func otherClients(header: String, family: String) {
        #expect(UserAgentFamily.describe(header) == family)
    }

    @Test("nothing recognisable is nil: no header, an empty one, junk, a name too long", arguments: [
        nil, "", "   ", "<script>/1", "Mozilla/5.0", String(repeating: "a", count: 33) + "/1", "ümlaut/1",
    ] as [String?])
    func unknown(header: String?) {
        #expect(UserAgentFamily.describe(header) == nil)
    }

    @Test("a login's origin keeps the address truncated as the logs do, and no address for what is none")
    func origin() {
        #expect(LoginOrigin(clientIP: "203.0.113.7", userAgentHeader: "curl/8.5.0") == LoginOrigin(ip: "203.0.113.0", userAgent: "curl"))
        #expect(LoginOrigin(clientIP: "2001:db8:1:2:3:4:5:6", userAgentHeader: nil).ip == "2001:db8:1::")
        #expect(LoginOrigin(clientIP: "not an address", userAgentHeader: nil) == LoginOrigin(ip: nil, userAgent: nil))
    }
}
