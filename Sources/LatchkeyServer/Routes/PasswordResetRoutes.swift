import Foundation
import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP

/// `POST /auth/password/request`, `/validate` and `/reset`: the JSON API of the reset flow.
/// Each route decodes its body and makes one call to ``PasswordRecoveryService``, which holds
/// every limit (the client's budget, the address's). Errors carry Latchkey's and Directus's
/// shapes in one body (``ErrorShape/latchkeyAndDirectus``), so a Directus SDK reads them too.
struct PasswordResetRoutes {
    let service: PasswordRecoveryService

    /// The one body every well-formed reset request gets, known account or not.
    static let acceptedBody = Data(#"{"message":"If an account exists for this address, we have sent a link to reset its password."}"#.utf8)

    var routes: [Route] {
        [
            // The same answer for every address: its wire form is built once (Route.answersAlike).
            Route(
                "POST", "/auth/password/request", name: "password_request", body: .json, errorShape: .latchkeyAndDirectus,
                answersAlike: true
            ) { request in
                let body = try request.decodeJSON(ResetRequestBody.self)
                let receipt = try service.requestReset(
                    email: body.email, resetURL: body.resetURL, locale: body.locale,
                    acceptLanguage: request.headers["Accept-Language"], clientIP: request.clientIP)
                var response = HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Self.acceptedBody)
                // Sent once the request is stored: its insert is a deferred write, committed
                // with others without holding this worker (HTTPResponse.deferredWrite).
                response.deferredWrite = receipt.write
                // The account work waits until the answer has been sent (see PasswordRecoveryService).
                response.onCompletion = { [service] in service.release(receipt) }
                return response
            },
            Route("POST", "/auth/password/validate", name: "password_validate", body: .json, errorShape: .latchkeyAndDirectus) { request in
                let body = try request.decodeJSON(LinkTokenBody.self)
                let status = try service.validate(token: body.token, clientIP: request.clientIP)
                return .json(TokenStatusReply(valid: true, email_hint: status.emailHint, expires_at: Timestamp.iso8601(status.expiresAt)))
            },
            Route(
                "POST", "/auth/password/reset", name: "password_reset", body: .json, errorShape: .latchkeyAndDirectus,
                lane: .passwordHashing
            ) { request in
                let body = try request.decodeJSON(NewPasswordBody.self)
                try service.resetPassword(
                    token: body.token, newPassword: body.password, locale: body.locale,
                    acceptLanguage: request.headers["Accept-Language"], clientIP: request.clientIP)
                return .json(MessageReply(message: "Your password has been changed."))
            },
        ]
    }
}

/// `{email, reset_url?, locale?}`.
private struct ResetRequestBody: Decodable {
    let email: String
    let resetURL: String?
    let locale: String?

    private enum CodingKeys: String, CodingKey {
        case email, resetURL = "reset_url", locale
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        email = try fields.text(.email, maxBytes: 320)
        resetURL = try fields.optionalText(.resetURL, maxBytes: 2048)
        locale = try fields.optionalText(.locale, maxBytes: 35)
    }
}

/// `{token, password, locale?}`; `locale` chooses the language of the "password changed" mail.
private struct NewPasswordBody: Decodable {
    let token: Redacted<String>
    let password: Redacted<String>
    let locale: String?

    private enum CodingKeys: String, CodingKey { case token, password, locale }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        token = try fields.secret(.token, maxBytes: 512)
        password = try fields.secret(.password, maxBytes: 4096)
        locale = try fields.optionalText(.locale, maxBytes: 35)
    }
}

/// `{valid, email_hint, expires_at}`.
struct TokenStatusReply: CompactJSONObject {
    let valid: Bool
    let email_hint: String
    let expires_at: String

    func writeMembers(to object: inout CompactJSON.ObjectWriter) {
        object.member("email_hint", email_hint)
        object.member("expires_at", expires_at)
        object.member("valid", valid)
    }
}

/// `{message}`.
private struct MessageReply: Encodable {
    let message: String
}
