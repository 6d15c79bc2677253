import LatchkeyClient
import LatchkeyCore
import Testing

/// The SDK carries its own texts (it shares no code with the server), so its language list is
/// its own: a language added to the server and not to the SDK, or the other way round, fails here.
@Suite struct LanguageListTests {
    @Test("the SDK speaks exactly the server's languages, in the same order")
    func sdkSpeaksTheServersLanguages() {
        #expect(ClientLanguage.allCases.map(\.rawValue) == SupportedLanguage.allCases.map(\.rawValue))
    }
}
