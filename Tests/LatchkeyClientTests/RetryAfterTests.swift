import Foundation
@testable import LatchkeyClient
import Testing

/// `Retry-After` (RFC 9110 §10.2.3) read from a reply, and the messages that say how long.
@Suite struct RetryAfterTests {
    /// RFC 9110's example instant, `Sun, 06 Nov 1994 08:49:37 GMT`.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test("delta-seconds are read as whole seconds, up to a day", arguments: [
        ("120", 120), (" 120\t", 120), ("0", 0), ("007", 7), ("86400", 86_400), ("86401", 86_400),
        ("99999999999999999999999999", 86_400), ("000000000000000000000000060", 60),
    ])
    func deltaSeconds(value: String, seconds: Int) {
        #expect(RetryAfterField.delay(value, now: Self.example) == .seconds(seconds))
    }

    @Test("a value that is neither delta-seconds nor an HTTP-date is ignored", arguments: [
        "", " ", "soon", "-5", "+5", "1.5", "12 s", "0x10", "1e3", "１２", "120\u{0}", "120,60",
        String(repeating: "1", count: 65),
        "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:37 GMT",
        "sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov -994 08:49:37 GMT",
        "Sun, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37",
        "Sun Nov 06 08:49:37 94", "Sun Nov  6 08:49:37 1994 GMT", "1994-11-06T08:49:37Z",
    ])
    func junk(value: String) {
        #expect(RetryAfterField.delay(value, now: Self.example) == nil)
    }

    @Test("an HTTP-date in each of its three formats is counted from now", arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "Sun Nov 06 08:49:37 1994",
    ])
    func httpDate(value: String) {
        #expect(RetryAfterField.delay(value, now: Self.example.addingTimeInterval(-180)) == .seconds(180))
        #expect(HTTPDate.parse(value, now: Self.example) == Self.example)
    }

    @Test("a date is rounded up to whole seconds; one in the past is no wait; one years ahead is a day")
    func dateBounds() {
        let value = "Sun, 06 Nov 1994 08:49:37 GMT"
        #expect(RetryAfterField.delay(value, now: Self.example.addingTimeInterval(-0.25)) == .seconds(1))
        #expect(RetryAfterField.delay(value, now: Self.example) == .zero)
        #expect(RetryAfterField.delay(value, now: Self.example.addingTimeInterval(3600)) == .zero)
        #expect(RetryAfterField.delay("Fri, 31 Dec 9999 23:59:59 GMT", now: Self.example) == .seconds(86_400))
    }

    @Test("leap days exist only in leap years")
    func leapDays() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT", now: Self.example) == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 12:00:00 GMT", now: Self.example) == Date(timeIntervalSince1970: 951_825_600))
        #expect(HTTPDate.parse("Wed, 29 Feb 2023 00:00:00 GMT", now: Self.example) == nil)
        #expect(HTTPDate.parse("Thu, 29 Feb 1900 00:00:00 GMT", now: Self.example) == nil)
    }

    @Test("a two-digit year more than 50 years ahead is in the century before")
    func twoDigitYears() throws {
        let in2030 = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01
        let near = try #require(HTTPDate.parse("Sunday, 01-Jan-79 00:00:00 GMT", now: in2030))
        let far = try #require(HTTPDate.parse("Thursday, 01-Jan-81 00:00:00 GMT", now: in2030))
        #expect(near == Date(timeIntervalSince1970: 3_439_756_800))  // 2079-01-01
        #expect(far == Date(timeIntervalSince1970: 347_155_200))  // 1981-01-01
    }

    @Test("a 429 or 503 reply keeps its Retry-After; other statuses ignore it", arguments: [
        (429, #"{"error":{"code":"rate_limited","message":"Too many attempts. Please try again in 10 minutes."}}"#,
         LatchkeyClientError.Code.rateLimited, Duration?.some(.seconds(600))),
        (429, #"{"errors":[{"message":"Too many requests.","extensions":{"code":"REQUESTS_EXCEEDED"}}]}"#, .rateLimited, .seconds(600)),
        (429, "", .rateLimited, .seconds(600)),
        (503, #"{"error":{"code":"server_busy","message":"The server is busy."}}"#, .serverUnavailable, .seconds(600)),
        (503, "<html>down</html>", .serverUnavailable, .seconds(600)),
        (500, "", .serverUnavailable, nil), (502, "", .serverUnavailable, nil),
        (400, #"{"error":{"code":"invalid_token","message":"x"}}"#, .invalidToken, nil), (301, "", .unexpectedResponse, nil),
    ])
    func statuses(status: Int, body: String, code: LatchkeyClientError.Code, wait: Duration?) {
        let error = LatchkeyClientError.from(status: status, body: Data(body.utf8), retryAfter: "600", now: Self.example)
        #expect(error.code == code)
        #expect(error.retryAfter == wait)
        #expect(error.status == status)
        #expect(LatchkeyClientError.from(status: status, body: Data(body.utf8)).retryAfter == nil)
    }

    @Test("a date in Retry-After is counted from when the reply came")
    func replyWithDate() {
        let error = LatchkeyClientError.from(
            status: 503, body: Data(), retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT", now: Self.example.addingTimeInterval(-90))
        #expect(error.retryAfter == .seconds(90))
        #expect(error.message(for: .en) == "The service is not available right now. Please try again in 2 minutes.")
        #expect(error.description.contains("retry after 90 s"))
    }

    @Test("without a usable Retry-After the message asks for a moment, as before", arguments: [nil, "soon", "0"])
    func noWait(value: String?) {
        let error = LatchkeyClientError.from(status: 429, body: Data(), retryAfter: value, now: Self.example)
        #expect(error.message(for: .en) == "Too many attempts. Please wait a moment and try again.")
        #expect(error.message(for: .pt) == "Muitas tentativas. Aguarde um momento e tente de novo.")
    }

    @Test("a wait is rounded up to the next step a person can act on", arguments: [
        (Duration.milliseconds(1), 5, RetryWait.Unit.seconds), (.seconds(1), 5, .seconds), (.seconds(5), 5, .seconds),
        (.seconds(6), 10, .seconds), (.seconds(45), 45, .seconds), (.seconds(46), 1, .minutes), (.seconds(60), 1, .minutes),
        (.seconds(61), 2, .minutes), (.seconds(180), 3, .minutes), (.seconds(181), 4, .minutes),
        (.milliseconds(180_001), 4, .minutes), (.seconds(599), 10, .minutes), (.seconds(2700), 45, .minutes),
        (.seconds(2701), 1, .hours), (.seconds(3601), 2, .hours), (.seconds(86_400), 24, .hours), (.seconds(999_999), 24, .hours),
    ])
    func rounding(wait: Duration, count: Int, unit: RetryWait.Unit) {
        #expect(RetryWait(atLeast: wait) == RetryWait(count: count, unit: unit))
    }

    @Test("no wait, or a negative one, is not said")
    func nothingToSay() {
        #expect(RetryWait(atLeast: .zero) == nil)
        #expect(RetryWait(atLeast: .seconds(-5)) == nil)
        #expect(LatchkeyClientError(.rateLimited, retryAfter: .seconds(-5)).message(for: .es)
            == "Demasiados intentos. Espera un momento y vuelve a intentarlo.")
    }

    @Test("a rate limit says how long to wait, in every language", arguments: [
        (ClientLanguage.en, "Too many attempts. Please try again in 3 minutes."),
        (.pt, "Muitas tentativas. Tente de novo em 3 minutos."),
        (.es, "Demasiados intentos. Vuelve a intentarlo dentro de 3 minutos."),
        (.ar, "محاولات كثيرة جدًا. يُرجى المحاولة مرة أخرى بعد 3 دقائق."),
    ])
    func rateLimitedMessage(language: ClientLanguage, expected: String) {
        let error = LatchkeyClientError.from(status: 429, body: Data(), retryAfter: "150", now: Self.example)
        #expect(error.message(for: language) == expected)
    }

    @Test("an unavailable service says how long to wait, in every language", arguments: [
        (ClientLanguage.en, "The service is not available right now. Please try again in 1 hour."),
        (.pt, "O serviço não está disponível agora. Tente de novo em 1 hora."),
        (.es, "El servicio no está disponible ahora. Vuelve a intentarlo dentro de 1 hora."),
        (.ar, "الخدمة غير متاحة الآن. يُرجى المحاولة مرة أخرى بعد ساعة واحدة."),
    ])
    func serverUnavailableMessage(language: ClientLanguage, expected: String) {
        #expect(LatchkeyClientError(.serverUnavailable, status: 503, retryAfter: .seconds(3600)).message(for: language) == expected)
    }

    @Test("each unit is worded with the language's plural forms", arguments: [
        (ClientLanguage.en, 5, RetryWait.Unit.seconds, "5 seconds"), (.en, 1, .minutes, "1 minute"), (.en, 45, .minutes, "45 minutes"),
        (.en, 1, .hours, "1 hour"), (.en, 24, .hours, "24 hours"),
        (.pt, 30, .seconds, "30 segundos"), (.pt, 1, .minutes, "1 minuto"), (.pt, 1, .hours, "1 hora"), (.pt, 6, .hours, "6 horas"),
        (.es, 10, .seconds, "10 segundos"), (.es, 1, .minutes, "1 minuto"), (.es, 20, .minutes, "20 minutos"), (.es, 2, .hours, "2 horas"),
        (.ar, 5, .seconds, "5 ثوانٍ"), (.ar, 15, .seconds, "15 ثانية"), (.ar, 1, .minutes, "دقيقة واحدة"), (.ar, 2, .minutes, "دقيقتين"),
        (.ar, 10, .minutes, "10 دقائق"), (.ar, 45, .minutes, "45 دقيقة"), (.ar, 1, .hours, "ساعة واحدة"), (.ar, 2, .hours, "ساعتين"),
        (.ar, 3, .hours, "3 ساعات"), (.ar, 12, .hours, "12 ساعة"),
    ])
    func amounts(language: ClientLanguage, count: Int, unit: RetryWait.Unit, expected: String) {
        #expect(ClientErrorText.amount(RetryWait(count: count, unit: unit), language) == expected)
    }

    @Test("every step is worded differently in every language, and every wait message in every language")
    func everyStepWorded() {
        for language in ClientLanguage.allCases {
            let sentences = RetryWait.steps.map { ClientErrorText.tryAgain(in: $0, language) }
            #expect(Set(sentences).count == RetryWait.steps.count, "\(language) words two steps alike")
        }
        for code in [LatchkeyClientError.Code.rateLimited, .serverUnavailable] {
            for language in ClientLanguage.allCases {
                let waiting = ClientErrorText.message(for: code, waiting: RetryWait(count: 5, unit: .minutes), in: language)
                #expect(waiting != nil && waiting != ClientErrorText.message(for: code, in: language), "\(code) in \(language)")
            }
        }
        // Only the codes a Retry-After comes with have wait messages; others keep theirs.
        #expect(Set(ClientErrorText.waitOpenings.keys) == ["rate_limited", "server_unavailable"])
        #expect(LatchkeyClientError(.invalidToken, retryAfter: .seconds(60)).message(for: .en)
            == "This link is no longer valid. Please request a new one.")
    }
}
