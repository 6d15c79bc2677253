import LatchkeyClient
import Testing

@Suite struct ClientSecretTests {
    @Test("a secret prints as <redacted> in every textual form")
    func redacted() {
        let secret = ClientSecret("hunter2-very-secret")
        #expect(secret.description == "<redacted>")
        #expect(secret.debugDescription == "<redacted>")
        #expect("\(secret)" == "<redacted>")
        #expect(String(reflecting: secret) == "<redacted>")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        #expect(Mirror(reflecting: secret).children.isEmpty)
        #expect(secret.exposed == "hunter2-very-secret")
    }
}
