import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP

/// The second factor on Directus's routes (`/users/me/tfa/*`): generate a secret, enable it
/// with a code, disable it with a code, and Latchkey's own renewal of the recovery codes. Each
/// route decodes its body and makes one call to ``AuthenticatorEnrolment``, which holds every
/// rule; the access token is read as on the other `/users/me…` routes (``AccountRoutes``).
///
/// Shapes: `generate` answers `{"data": {"secret", "otpauth_url"}}` as Directus does; `enable`
/// answers `200 {"data": {"recovery_codes": […]}}` where Directus answers `204` (a Directus
/// client ignores the body); `disable` answers `204`; `recovery-codes` answers like `enable`.
/// Errors carry Latchkey's and Directus's shapes (`INVALID_OTP` for a wrong code).
struct SecondFactorRoutes {
    let account: AccountSelfService
    let enrolment: AuthenticatorEnrolment

    var routes: [Route] {
        [
            // Checks the password.
            Route(
                "POST", "/users/me/tfa/generate", name: "users_me_tfa_generate", body: .json, errorShape: .latchkeyAndDirectus,
                lane: .passwordHashing
            ) { request in
                let owner = try account.owner(of: request)
                let body = try request.decodeJSON(PasswordBody.self)
                let generated = try enrolment.generate(email: owner.account.email, password: body.password, clientIP: request.clientIP)
                // The address may have moved to another account since the token was issued.
                guard generated.account.id == owner.account.id else { throw SignInService.invalidCredentials }
                return .json(GeneratedReply(generated))
            },
            Route("POST", "/users/me/tfa/enable", name: "users_me_tfa_enable", body: .json, errorShape: .latchkeyAndDirectus) { request in
                let owner = try account.owner(of: request)
                let body = try request.decodeJSON(EnableBody.self)
                let codes = try enrolment.enable(
                    .byLogin(owner.login), account: owner.account, secret: body.secret, code: body.otp, clientIP: request.clientIP,
                    acceptLanguage: request.headers["Accept-Language"])
                return .json(RecoveryCodesReply(codes))
            },
            Route("POST", "/users/me/tfa/disable", name: "users_me_tfa_disable", body: .json, errorShape: .latchkeyAndDirectus) { request in
                let owner = try account.owner(of: request)
                let body = try request.decodeJSON(CodeBody.self)
                try enrolment.disable(
                    owner, code: body.otp, clientIP: request.clientIP, acceptLanguage: request.headers["Accept-Language"])
                return HTTPResponse(status: 204)
            },
            Route(
                "POST", "/users/me/tfa/recovery-codes", name: "users_me_tfa_recovery_codes", body: .json, errorShape: .latchkeyAndDirectus
            ) { request in
                let owner = try account.owner(of: request)
                let body = try request.decodeJSON(CodeBody.self)
                return .json(RecoveryCodesReply(try enrolment.renewRecoveryCodes(owner, code: body.otp, clientIP: request.clientIP)))
            },
        ]
    }
}

/// `{password}`.
private struct PasswordBody: Decodable {
    let password: Redacted<String>

    private enum CodingKeys: String, CodingKey { case password }

    init(from decoder: any Decoder) throws {
        password = try decoder.container(keyedBy: CodingKeys.self).secret(.password, maxBytes: 4096)
    }
}

/// `{secret?, otp}`: the generated secret as Directus's clients send it back (base32), and the
/// code that confirms it.
private struct EnableBody: Decodable {
    let secret: String?
    let otp: Redacted<String>

    private enum CodingKeys: String, CodingKey { case secret, otp }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        secret = try fields.optionalText(.secret, maxBytes: 128)
        otp = try fields.secret(.otp, maxBytes: 64)
    }
}

/// `{otp}`: an authenticator code or a recovery code.
private struct CodeBody: Decodable {
    let otp: Redacted<String>

    private enum CodingKeys: String, CodingKey { case otp }

    init(from decoder: any Decoder) throws {
        otp = try decoder.container(keyedBy: CodingKeys.self).secret(.otp, maxBytes: 64)
    }
}

/// `{"data": {"secret", "otpauth_url"}}`, Directus's answer to `generate`.
private struct GeneratedReply: Encodable {
    struct Generated: Encodable {
        let secret: String
        let otpauth_url: String
    }
    let data: Generated

    init(_ generated: AuthenticatorEnrolment.Generated) {
        data = Generated(secret: generated.secret.exposed, otpauth_url: generated.provisioningURL.exposed)
    }
}

/// `{"data": {"recovery_codes": […]}}`: the new recovery codes, shown once.
private struct RecoveryCodesReply: Encodable {
    struct Codes: Encodable {
        let recovery_codes: [String]
    }
    let data: Codes

    init(_ codes: [Redacted<String>]) {
        data = Codes(recovery_codes: codes.map(\.exposed))
    }
}
