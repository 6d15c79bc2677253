import Foundation
@testable import LatchkeyClient
import Testing

@Suite struct LatchkeyClientErrorTests {
    static func body(_ json: String) -> Data { Data(json.utf8) }

    @Test("Latchkey error bodies map to the SDK's codes and kinds", arguments: [
        (400, #"{"error":{"code":"invalid_token","message":"The link is invalid."}}"#,
         LatchkeyClientError.Code.invalidToken, LatchkeyClientError.Kind.needsUserAction),
        (400, #"{"error":{"code":"invalid_email","message":"Enter an email address."}}"#, .invalidEmail, .needsUserAction),
        (429, #"{"error":{"code":"rate_limited","message":"Too many attempts."}}"#, .rateLimited, .retryable),
        (500, #"{"error":{"code":"internal_error","message":"Something went wrong."}}"#, .serverUnavailable, .retryable),
        (400, #"{"error":{"code":"reset_url_not_allowed","message":"Not allowed."}}"#, .requestRejected, .fatal),
        (401, #"{"error":{"code":"invalid_credentials","message":"No."}}"#, .invalidCredentials, .needsUserAction),
        (403, #"{"error":{"code":"reauthentication_required","message":"Sign in again."}}"#, .reauthenticationRequired, .needsUserAction),
        (403, #"{"error":{"code":"forbidden","message":"Not for you."}}"#, .requestRejected, .fatal),
        (413, #"{"error":{"code":"payload_too_large","message":"Too large."}}"#, .requestRejected, .fatal),
    ])
    func latchkeyShape(status: Int, json: String, code: LatchkeyClientError.Code, kind: LatchkeyClientError.Kind) {
        let error = LatchkeyClientError.from(status: status, body: Self.body(json))
        #expect(error.code == code)
        #expect(error.kind == kind)
        #expect(error.status == status)
    }

    @Test("as a LocalizedError, an error describes itself with its message in the person's language")
    func localizedError() {
        let error = LatchkeyClientError(.weakPassword, reasons: ["too_short"])
        let expected = error.message(for: ClientLanguage(preferredLanguages: Locale.preferredLanguages))
        #expect(error.errorDescription == expected)
        #expect((error as any Error).localizedDescription == expected)
    }

    @Test("a Latchkey weak_password reply keeps the rule codes and names them in the message")
    func weakPasswordReasons() {
        let error = LatchkeyClientError.from(status: 400, body: Self.body(
            #"{"error":{"code":"weak_password","message":"Use at least 8 characters.","reasons":["too_short","contains_email"]}}"#))
        #expect(error.code == .weakPassword)
        #expect(error.kind == .needsUserAction)
        #expect(error.reasons == ["too_short", "contains_email"])
        #expect(error.serverCode == "weak_password")
        #expect(error.message(for: .en)
            == "Please choose a different password. Use at least 8 characters. Do not use your email address in your password.")
        #expect(error.message(for: .es).hasPrefix("Elige otra contraseña"))
    }

    @Test("Directus error bodies map to the SDK's codes and kinds", arguments: [
        (401, #"{"errors":[{"message":"Invalid token.","extensions":{"code":"INVALID_TOKEN"}}]}"#,
         LatchkeyClientError.Code.invalidToken, LatchkeyClientError.Kind.needsUserAction),
        (401, #"{"errors":[{"message":"Token expired.","extensions":{"code":"TOKEN_EXPIRED"}}]}"#, .invalidToken, .needsUserAction),
        (401, #"{"errors":[{"message":"Invalid user credentials.","extensions":{"code":"INVALID_CREDENTIALS"}}]}"#,
         .invalidCredentials, .needsUserAction),
        (429, #"{"errors":[{"message":"Too many requests.","extensions":{"code":"REQUESTS_EXCEEDED"}}]}"#, .rateLimited, .retryable),
        (503, #"{"errors":[{"message":"Under pressure.","extensions":{"code":"SERVICE_UNAVAILABLE"}}]}"#, .serverUnavailable, .retryable),
        (400, #"{"errors":[{"message":"Validation failed.","extensions":{"code":"FAILED_VALIDATION","field":"password"}}]}"#,
         .weakPassword, .needsUserAction),
        (400, #"{"errors":[{"message":"Validation failed.","extensions":{"code":"FAILED_VALIDATION","field":"email"}}]}"#,
         .invalidEmail, .needsUserAction),
        (400, #"{"errors":[{"message":"Validation failed.","extensions":{"code":"FAILED_VALIDATION","field":"role"}}]}"#,
         .requestRejected, .fatal),
        (400, #"{"errors":[{"message":"Invalid payload.","extensions":{"code":"INVALID_PAYLOAD"}}]}"#, .requestRejected, .fatal),
        (403, #"{"errors":[{"message":"Forbidden.","extensions":{"code":"FORBIDDEN"}}]}"#, .requestRejected, .fatal),
        (403, #"{"errors":[{"message":"Sign in again.","extensions":{"code":"REAUTHENTICATION_REQUIRED"}}]}"#,
         .reauthenticationRequired, .needsUserAction),
    ])
    func directusShape(status: Int, json: String, code: LatchkeyClientError.Code, kind: LatchkeyClientError.Kind) {
        let error = LatchkeyClientError.from(status: status, body: Self.body(json))
        #expect(error.code == code)
        #expect(error.kind == kind)
    }

    @Test("without a known server code the status decides", arguments: [
        (429, LatchkeyClientError.Code.rateLimited), (500, .serverUnavailable), (502, .serverUnavailable),
        (503, .serverUnavailable), (504, .serverUnavailable), (408, .serverUnavailable),
        (400, .requestRejected), (404, .requestRejected), (401, .requestRejected),
        (200, .unexpectedResponse), (302, .unexpectedResponse),
    ])
    func statusFallback(status: Int, code: LatchkeyClientError.Code) {
        for body in ["", "<html>Bad Gateway</html>", #"{"error":"nope"}"#, #"{"errors":[]}"#,
                     #"{"error":{"code":"something_new","message":"x"}}"#] {
            #expect(LatchkeyClientError.from(status: status, body: Self.body(body)).code == code)
        }
    }

    @Test("an oversized error body is judged by its status alone")
    func oversizedBody() {
        let padding = String(repeating: " ", count: LatchkeyClientError.maximumErrorBodySize)
        let error = LatchkeyClientError.from(
            status: 400, body: Self.body(#"{"error":{"code":"invalid_token","message":"x"}}"# + padding))
        #expect(error.code == .requestRejected)
        #expect(error.serverCode == nil)
    }

    @Test("the server's message is never copied into the error")
    func serverMessageNotCopied() {
        let error = LatchkeyClientError.from(status: 400, body: Self.body(
            #"{"errors":[{"message":"SQL error near users.password_hash","extensions":{"code":"INVALID_PAYLOAD"}}]}"#))
        #expect(!error.description.contains("SQL"))
        #expect(!error.message(for: .en).contains("SQL"))
        #expect(error.description.contains("INVALID_PAYLOAD"))
    }

    @Test("every code has a distinct, non-empty message in every language")
    func messagesExist() {
        for code in LatchkeyClientError.Code.all {
            var seen = Set<String>()
            for language in ClientLanguage.allCases {
                let message = ClientErrorText.message(for: code, in: language)
                #expect(message?.isEmpty == false, "\(code) has no \(language) message")
                if let message { seen.insert(message) }
            }
            #expect(seen.count == ClientLanguage.allCases.count, "\(code) repeats a message across languages")
        }
        #expect(Set(LatchkeyClientError.Code.all.map(\.rawValue)) == Set(ClientErrorText.messages.keys))
    }

    @Test("every password rule code has a sentence in every language")
    func reasonsExist() {
        for reason in ["too_short", "too_long", "too_weak", "contains_email"] {
            for language in ClientLanguage.allCases {
                #expect(ClientErrorText.reason(reason, in: language)?.isEmpty == false, "\(reason) in \(language)")
            }
        }
    }

    @Test("the message language follows the preferred languages, else English", arguments: [
        (["pt-BR", "en"], ClientLanguage.pt), (["fr-FR", "es_MX"], .es), (["AR"], .ar), (["de", "fr"], .en), ([], .en),
    ])
    func languageChoice(preferred: [String], expected: ClientLanguage) {
        #expect(ClientLanguage(preferredLanguages: preferred) == expected)
    }
}
