import LatchkeyCrypto
import Testing

@Suite struct RedactedTests {
    @Test("a redacted secret prints as <redacted> in every textual form")
    func neverPrints() {
        let secret = Redacted("hunter2-token")
        #expect("\(secret)" == "<redacted>")
        #expect(String(describing: secret) == "<redacted>")
        #expect(String(reflecting: secret) == "<redacted>")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        #expect(secret.exposed == "hunter2-token")
    }
}
