import LatchkeyCore
import Testing

/// How long people are told to wait: a round figure at least as long as `Retry-After`, in
/// each language's words.
@Suite struct WaitTimeTests {
    @Test("a wait is the shortest step at least as long as asked", arguments: [
        (1, WaitTime.minutes(1)), (60, .minutes(1)), (61, .minutes(2)), (299, .minutes(5)), (301, .minutes(10)),
        (600, .minutes(10)), (2700, .minutes(45)), (2701, .hours(1)), (3600, .hours(1)), (3601, .hours(2)),
        (86_400, .hours(24)), (200_000, .hours(24)),
    ])
    func rounding(seconds: Int, expected: WaitTime) {
        #expect(WaitTime(atLeast: seconds) == expected)
    }

    @Test("every step is said in every language, with its own plural forms")
    func words() {
        let rateLimit = { (language: SupportedLanguage) in language.catalogue.rateLimit }
        #expect(rateLimit(.en).message(retryAfter: 90) == "Too many attempts. Please try again in 2 minutes.")
        #expect(rateLimit(.en).tryAgainIn(.minutes(1)) == "Please try again in 1 minute.")
        #expect(rateLimit(.en).tryAgainIn(.hours(1)) == "Please try again in 1 hour.")
        #expect(rateLimit(.pt).tryAgainIn(.minutes(5)) == "Tente novamente em 5 minutos.")
        #expect(rateLimit(.es).tryAgainIn(.hours(2)) == "Vuelve a intentarlo dentro de 2 horas.")
        #expect(rateLimit(.ar).tryAgainIn(.minutes(1)) == "يرجى المحاولة مرة أخرى بعد دقيقة واحدة.")
        #expect(rateLimit(.ar).tryAgainIn(.minutes(2)) == "يرجى المحاولة مرة أخرى بعد دقيقتين.")
        #expect(rateLimit(.ar).tryAgainIn(.hours(3)) == "يرجى المحاولة مرة أخرى بعد 3 ساعات.")
        #expect(rateLimit(.ar).tryAgainIn(.hours(12)) == "يرجى المحاولة مرة أخرى بعد 12 ساعة.")
        for language in SupportedLanguage.allCases {
            let sentences = WaitTime.steps.map(rateLimit(language).tryAgainIn)
            #expect(Set(sentences).count == WaitTime.steps.count, "\(language) says two waits alike")
        }
    }

    @Test("the JSON message of a rate limit says how long, in English")
    func errorMessage() {
        let error = LatchkeyError.rateLimited(retryAfter: 3600)
        #expect(error.code == .rateLimited && error.retryAfter == 3600)
        #expect(error.message == "Too many attempts. Please try again in 1 hour.")
    }
}
