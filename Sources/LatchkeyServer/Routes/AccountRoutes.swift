import Foundation
import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP

/// The signed-in person's own account, on Directus's user routes where Directus has them:
/// `GET`/`PATCH`/`DELETE /users/me`, and Latchkey's own `GET`/`DELETE /users/me/sessions` (the
/// signed-in devices) and `POST /users/email/confirm` and `/users/email/undo` (the links of an
/// address change). Each route decodes its body and makes one call to ``AccountSelfService`` or
/// ``EmailChangeService``, which hold every rule and limit.
///
/// The `/users/me…` routes take the access token from `Authorization: Bearer` only; a missing
/// or refused one is `401 INVALID_CREDENTIALS` with `WWW-Authenticate: Bearer`. The link routes
/// take no token (a link may be opened on another device). Errors carry Latchkey's and
/// Directus's shapes in one body (``ErrorShape/latchkeyAndDirectus``), so a Directus SDK reads
/// them and a refused password's reasons travel.
struct AccountRoutes {
    let account: AccountSelfService
    let emailChange: EmailChangeService

    var routes: [Route] {
        [
            Route("GET", "/users/me", name: "users_me", errorShape: .latchkeyAndDirectus) { request in
                .json(UserReply(try owner(request).account))
            },
            // Hashes the new password, or checks the current one.
            Route(
                "PATCH", "/users/me", name: "users_me_update", body: .json, errorShape: .latchkeyAndDirectus, lane: .passwordHashing
            ) { request in
                let owner = try owner(request)
                let body = try request.decodeJSON(UpdateBody.self)
                let language = request.headers["Accept-Language"]
                switch body.change {
                case .password(let password):
                    let changed = try account.changePassword(
                        owner, to: password, currentPassword: body.currentPassword, code: body.otp, clientIP: request.clientIP,
                        acceptLanguage: language)
                    return .json(UserReply(changed))
                case .email(let email):
                    let unchanged = try emailChange.requestChange(
                        owner, to: email, currentPassword: body.currentPassword, code: body.otp, clientIP: request.clientIP,
                        acceptLanguage: language)
                    return .json(UserReply(unchanged))
                }
            },
            Route(
                "DELETE", "/users/me", name: "users_me_delete", body: .jsonOrEmpty, errorShape: .latchkeyAndDirectus,
                lane: .passwordHashing
            ) { request in
                let owner = try owner(request)
                let body = try request.decodeJSON(ReauthenticationBody.self, allowingEmpty: true)
                try account.deleteAccount(
                    owner, currentPassword: body.currentPassword, code: body.otp, clientIP: request.clientIP,
                    acceptLanguage: request.headers["Accept-Language"])
                return HTTPResponse(status: 204)
            },
            Route("GET", "/users/me/sessions", name: "users_me_sessions", errorShape: .latchkeyAndDirectus) { request in
                let owner = try owner(request)
                return .json(SessionsReply(try account.logins(of: owner), current: owner.login.familyID))
            },
            Route("DELETE", "/users/me/sessions", name: "users_me_session_end", errorShape: .latchkeyAndDirectus) { request in
                let owner = try owner(request)
                try account.endLogin(try loginID(request), of: owner)
                return HTTPResponse(status: 204)
            },
            Route("POST", "/users/email/confirm", name: "users_email_confirm", body: .json, errorShape: .latchkeyAndDirectus) { request in
                let body = try request.decodeJSON(LinkTokenBody.self)
                try emailChange.confirm(token: body.token, clientIP: request.clientIP, acceptLanguage: request.headers["Accept-Language"])
                return HTTPResponse(status: 204)
            },
            Route("POST", "/users/email/undo", name: "users_email_undo", body: .json, errorShape: .latchkeyAndDirectus) { request in
                let body = try request.decodeJSON(LinkTokenBody.self)
                try emailChange.undo(token: body.token, clientIP: request.clientIP)
                return HTTPResponse(status: 204)
            },
        ]
    }

    /// The account owner the request's `Authorization: Bearer` token acts for.
    private func owner(_ request: HTTPRequest) throws -> AccountOwner {
        try account.owner(of: request)
    }

    /// The `id` query parameter of `DELETE /users/me/sessions`: once, at most 64 bytes, no
    /// control character.
    private func loginID(_ request: HTTPRequest) throws -> String {
        let values = request.query.filter { $0.name == "id" }.map(\.value)
        guard values.count == 1, let id = values.first, !id.isEmpty else {
            throw LatchkeyError(.invalidRequest, "Name one login with the query parameter 'id'.")
        }
        guard id.utf8.count <= 64, !id.containsControlCharacter else {
            throw LatchkeyError(.invalidRequest, "The query parameter 'id' is not a login id.")
        }
        return id
    }
}

extension AccountSelfService {
    /// The account owner the request's `Authorization: Bearer` token acts for.
    func owner(of request: HTTPRequest) throws -> AccountOwner {
        let token: Redacted<String>?
        do {
            token = try request.bearerToken()
        } catch let error as LatchkeyError where error.code == .authenticationRequired {
            token = nil
        }
        return try owner(presenting: token)
    }
}

/// `PATCH /users/me`'s `{password?, email?, current_password?, otp?}`: exactly one of `password`
/// and `email` (else `invalid_request`); `otp` goes with `current_password` for an account with
/// a second factor.
private struct UpdateBody: Decodable {
    enum Change {
        case password(Redacted<String>)
        case email(String)
    }

    let change: Change
    let currentPassword: Redacted<String>?
    let otp: Redacted<String>?

    private enum CodingKeys: String, CodingKey {
        case password, email, currentPassword = "current_password", otp
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        let password = try fields.optionalText(.password, maxBytes: 4096).map(Redacted.init)
        let email = try fields.optionalText(.email, maxBytes: 320)
        currentPassword = try fields.optionalText(.currentPassword, maxBytes: 4096).map(Redacted.init)
        otp = try fields.optionalText(.otp, maxBytes: 64).map(Redacted.init)
        switch (password, email) {
        case (let password?, nil): change = .password(password)
        case (nil, let email?): change = .email(email)
        default: throw LatchkeyError(.invalidRequest, "Change either the password or the email address, one at a time.")
        }
    }
}

/// `{"data": {"id", "email", "email_verified", "status", "language"}}`, Directus's shape of a
/// user. `email_verified` is always true: an account's address was confirmed by its sign-up
/// link or vouched for by the operator who created it, and a new address counts only once
/// confirmed. `language` is the account's locale, null when it has none.
struct UserReply: Encodable {
    struct User: Encodable {
        let id: String
        let email: String
        let email_verified: Bool
        let status: String
        let language: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(email, forKey: .email)
            try container.encode(email_verified, forKey: .email_verified)
            try container.encode(id, forKey: .id)
            // Written as null when absent, as Directus writes every field of a user.
            try container.encode(language, forKey: .language)
            try container.encode(status, forKey: .status)
        }

        private enum CodingKeys: String, CodingKey {
            case id, email, email_verified, status, language
        }
    }

    let data: User

    init(_ account: Account) {
        data = User(id: account.id, email: account.email, email_verified: true, status: account.status.rawValue, language: account.locale)
    }
}

/// `{"data": [{"id", "client_id", "signed_in_at", "last_used_at", "ip", "user_agent", "current"}]}`:
/// the account's live logins, most recently used first; `current` marks the one the request's
/// token belongs to. Unknown values are null.
struct SessionsReply: Encodable {
    struct Login: Encodable {
        let id: String
        let client_id: String?
        let signed_in_at: String
        let last_used_at: String
        let ip: String?
        let user_agent: String?
        let current: Bool

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(client_id, forKey: .client_id)
            try container.encode(current, forKey: .current)
            try container.encode(id, forKey: .id)
            try container.encode(ip, forKey: .ip)
            try container.encode(last_used_at, forKey: .last_used_at)
            try container.encode(signed_in_at, forKey: .signed_in_at)
            try container.encode(user_agent, forKey: .user_agent)
        }

        private enum CodingKeys: String, CodingKey {
            case id, client_id, signed_in_at, last_used_at, ip, user_agent, current
        }
    }

    let data: [Login]

    init(_ logins: [LiveLogin], current: String) {
        data = logins.map { login in
            Login(
                id: login.id, client_id: login.clientID, signed_in_at: Timestamp.iso8601(login.signedInAt),
                last_used_at: Timestamp.iso8601(login.lastUsedAt), ip: login.origin.ip, user_agent: login.origin.userAgent,
                current: login.id == current)
        }
    }
}
