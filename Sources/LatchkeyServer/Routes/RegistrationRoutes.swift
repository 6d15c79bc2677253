import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP

/// Sign-up, compatible with Directus: `POST /users/register` (`204` for every well-formed
/// request, whatever the address) and `POST`/`GET /users/register/verify-email` (the
/// confirmation link's token; the `GET` form with `?token=` is Directus's, for its SDKs —
/// Latchkey's mails never put a token in a query string: they link to the page `/verify-email`
/// (``WebPageRoutes``), which reads the token from the fragment and posts it). Errors carry
/// Latchkey's and Directus's shapes in one body, as the reset routes' do, so a refused password
/// says why.
struct RegistrationRoutes {
    let registration: RegistrationService

    var routes: [Route] {
        [
            Route(
                "POST", "/users/register", name: "register", body: .json, errorShape: .latchkeyAndDirectus, lane: .passwordHashing
            ) { request in
                let body = try request.decodeJSON(RegisterBody.self)
                try registration.register(
                    email: body.email, password: body.password, verificationURL: body.verificationURL, locale: body.locale,
                    acceptLanguage: request.headers["Accept-Language"], clientIP: request.clientIP)
                return HTTPResponse(status: 204)
            },
            Route("POST", "/users/register/verify-email", name: "verify_email", body: .json, errorShape: .latchkeyAndDirectus) { request in
                try registration.verify(token: try request.decodeJSON(LinkTokenBody.self).token, clientIP: request.clientIP)
                return HTTPResponse(status: 204)
            },
            Route("GET", "/users/register/verify-email", name: "verify_email_query", errorShape: .latchkeyAndDirectus) { request in
                let token = try FormParameters(query: request).secret("token", maxLength: TokenService.maximumOpaqueTokenLength)
                try registration.verify(token: token, clientIP: request.clientIP)
                return HTTPResponse(status: 204)
            },
        ]
    }
}

/// `{email, password, verification_url?, locale?}`; Directus's `first_name` and `last_name`
/// are accepted and not kept (an account has no name).
private struct RegisterBody: Decodable {
    let email: String
    let password: Redacted<String>
    let verificationURL: String?
    let locale: String?

    private enum CodingKeys: String, CodingKey {
        case email, password, verificationURL = "verification_url", locale
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        email = try fields.text(.email, maxBytes: 320)
        password = try fields.secret(.password, maxBytes: 4096)
        verificationURL = try fields.optionalText(.verificationURL, maxBytes: 2048)
        locale = try fields.optionalText(.locale, maxBytes: 35)
    }
}
