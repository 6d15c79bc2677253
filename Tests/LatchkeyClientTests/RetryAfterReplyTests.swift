import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// e2e/retry_after_server.py: replies Latchkey never sends (a `Retry-After` date, a
/// lower-case field name, an oversized error body), read through the SDK's HTTP client.
@Suite(.enabled(if: PythonHelper.python != nil, "LATCHKEY_TEST_PYTHON names a Python (make test sets it)"))
struct RetryAfterReplyTests {
    static func base(_ server: PythonHelper, _ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(server.port)/\(path)")!
    }

    @Test("a 503 whose Retry-After is a date two hours ahead says to try again in 2 hours")
    func dateAhead() async throws {
        let server = try PythonHelper(script: "retry_after_server.py")
        let login = FirstPartyLogin(baseURL: Self.base(server, "503/date-7200/directus"))
        let started = Date()
        let error = await #expect(throws: LatchkeyClientError.self) {
            try await login.signIn(email: "jane@example.com", password: ClientSecret("correct horse battery staple"))
        }
        let elapsed = Int(Date().timeIntervalSince(started).rounded(.up))
        #expect(error?.code == .serverUnavailable)
        #expect(error?.serverCode == "SERVICE_UNAVAILABLE")
        // The date has whole seconds (up to one less than asked), and the wait is counted
        // from when the reply came: at most the whole call later than the server wrote it.
        let wait = try #require(error?.retryAfter)
        #expect(wait >= .seconds(7199 - elapsed) && wait <= .seconds(7200))
        #expect(error?.message(for: .en) == "The service is not available right now. Please try again in 2 hours.")
    }

    @Test("an error reply over the size limit is still judged by its status and Retry-After")
    func oversizedError() async throws {
        let server = try PythonHelper(script: "retry_after_server.py")
        let limited = await #expect(throws: LatchkeyClientError.self) {
            try await PasswordRecovery(baseURL: Self.base(server, "429/30/huge")).requestReset(email: "jane@example.com")
        }
        #expect(limited?.code == .rateLimited)
        #expect(limited?.retryAfter == .seconds(30))
        #expect(limited?.message(for: .es) == "Demasiados intentos. Vuelve a intentarlo dentro de 30 segundos.")

        // A success that large is no answer the SDK reads.
        let success = await #expect(throws: LatchkeyClientError.self) {
            try await PasswordRecovery(baseURL: Self.base(server, "200/none/huge")).requestReset(email: "jane@example.com")
        }
        #expect(success?.code == .unexpectedResponse)
        #expect(success?.reasons == ["reply_too_large"])
    }
}
