import LatchkeyCore
import Testing

/// IP address literals as the parser reads them: found by the FuzzIPAddress target.
@Suite struct IPAddressParsingTests {
    @Test("text with a NUL is no address, though inet_pton would read the C string before it")
    func embeddedNUL() {
        #expect(IPAddress("10.0.0.1\u{0}") == nil)
        #expect(IPAddress("10.0.0.1\u{0}\u{0}1") == nil)
        #expect(IPAddress("2001:db8::1\u{0}ff") == nil)
        #expect(IPAddress("10.0.0.1") != nil)
    }
}
