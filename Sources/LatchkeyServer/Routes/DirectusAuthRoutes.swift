import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP

/// `POST /auth/login`, `/auth/refresh` and `/auth/logout`, compatible with Directus: success is
/// `{"data": {...}}` with `expires` in milliseconds, errors are Directus's `{"errors": [...]}`.
///
/// Directus's three modes (`mode` in the body):
/// - `json` (login's default): `data` holds `access_token`, `refresh_token` and `expires`.
/// - `cookie`: the refresh token travels in the `directus_refresh_token` cookie instead;
///   `data` holds `access_token` and `expires`.
/// - `session`: the access token travels in the `directus_session_token` cookie too; `data`
///   holds only `expires`.
///
/// Refresh and logout take the refresh token from the body, else — in `cookie` or `session`
/// mode, which is the default when the body has no token — from the cookie (logout in session
/// mode also from the session cookie); without one they answer 400 `INVALID_PAYLOAD`. Every
/// request in `cookie` or `session` mode must pass ``DirectusCookies/checkSameOrigin(_:)``.
///
/// Login also hands the device its device token (``RecognisedDevices``), which the client sends
/// back on its next login: in `json` mode the member `device_token` of the request and of the
/// answer's `data` (Directus's SDKs ignore it); in `cookie` and `session` mode the
/// ``DeviceCookie`` (a `device_token` in the body wins). A recognised device is never held by
/// the account-wide cap on failures. A `device_token` not shaped like ours counts as none.
///
/// Login answers one `INVALID_CREDENTIALS` for an unknown account, a wrong password and a
/// disabled account (see ``PasswordSignIn``), whether or not the account has a second factor;
/// only after a right password does an account with one answer `401 INVALID_OTP` for a missing
/// or wrong `otp` (see ``OneTimeCodeSignIn``); beyond the failure limit the answer is 429
/// `REQUESTS_EXCEEDED` with `Retry-After`. Refresh and logout accept only first-party
/// tokens (issued here, not to an OAuth client).
struct DirectusAuthRoutes {
    let login: FirstPartyLogin
    let tokens: TokenService
    /// The browser's device token, read and set in cookie and session mode.
    let deviceCookie: DeviceCookie
    let cookies: DirectusCookies

    var routes: [Route] {
        [
            Route("POST", "/auth/login", name: "directus_login", body: .json, errorShape: .directus, lane: .passwordHashing) { request in
                let body = try request.decodeJSON(LoginBody.self)
                if body.mode != .json { try cookies.checkSameOrigin(request) }
                let device = presentedDevice(body.deviceToken, mode: body.mode, request: request)
                let credential = SignInCredential.password(email: body.email, password: body.password, device: device)
                let started = try login.signIn(
                    credential, code: body.otp, device: device, clientIP: request.clientIP, userAgent: request.headers["User-Agent"])
                return reply(started, mode: body.mode)
            },
            Route("POST", "/auth/refresh", name: "directus_refresh", body: .jsonOrEmpty, errorShape: .directus) { request in
                let body = try request.decodeJSON(TokenBody.self, allowingEmpty: true)
                if body.mode != .json { try cookies.checkSameOrigin(request) }
                return reply(try tokens.refresh(try refreshToken(body, request), clientID: nil), mode: body.mode)
            },
            Route("POST", "/auth/logout", name: "directus_logout", body: .jsonOrEmpty, errorShape: .directus) { request in
                let body = try request.decodeJSON(TokenBody.self, allowingEmpty: true)
                if body.mode != .json { try cookies.checkSameOrigin(request) }
                let sessionToken = body.mode == .session ? cookies.sessionToken(in: request) : nil
                try tokens.revoke(try refreshToken(body, request, or: sessionToken), clientID: nil)
                var response = HTTPResponse(status: 204)
                if body.mode != .json { cookies.clear(from: request, on: &response) }
                return response
            },
        ]
    }

    /// The refresh token of a refresh or logout: the body's, else in cookie and session mode the
    /// cookie's, else `fallback`; `invalid_request` when there is none.
    private func refreshToken(_ body: TokenBody, _ request: HTTPRequest, or fallback: Redacted<String>? = nil) throws
        -> Redacted<String>
    {
        if let token = body.refreshToken { return token }
        if body.mode != .json, let token = cookies.refreshToken(in: request) ?? fallback { return token }
        throw LatchkeyError(.invalidRequest, "The refresh token is required in either the payload or the cookie.")
    }

    /// The answer in `mode`: the tokens the body does not carry go into cookies.
    /// The device token a sign-in request presents: its `device_token` member, else (in cookie
    /// and session mode) the browser's device cookie; nil when neither is shaped like ours.
    func presentedDevice(_ member: Redacted<String>?, mode: DirectusMode, request: HTTPRequest) -> DeviceToken? {
        DeviceToken(presented: member) ?? (mode == .json ? nil : deviceCookie.token(in: request))
    }

    /// The answer to a completed sign-in (`/auth/login`, a passkey's): the tokens in `mode`,
    /// and the device token — in the body in `json` mode, as the device cookie otherwise.
    func reply(_ started: FirstPartyLogin.Started, mode: DirectusMode) -> HTTPResponse {
        var response = reply(started.tokens, mode: mode, device: mode == .json ? started.device : nil)
        if mode != .json { deviceCookie.set(started.device, on: &response) }
        return response
    }

    private func reply(_ issued: TokenService.IssuedTokens, mode: DirectusMode, device: DeviceToken? = nil) -> HTTPResponse {
        var response = HTTPResponse.json(DirectusTokens(issued, mode: mode, device: device))
        if mode != .json, let refreshToken = issued.refreshToken { cookies.setRefreshToken(refreshToken, on: &response) }
        if mode == .session { cookies.setSessionToken(issued.accessToken, on: &response) }
        return response
    }
}

/// Where Directus puts the tokens: `json`, `cookie` or `session`.
enum DirectusMode: String {
    case json, cookie, session

    /// The `mode` field; anything but the three names is `invalid_request`.
    init?(field: String?) throws {
        guard let field else { return nil }
        guard let mode = DirectusMode(rawValue: field) else {
            throw LatchkeyError(.invalidRequest, #"The mode must be "json", "cookie" or "session"."#)
        }
        self = mode
    }
}

/// `{email, password, otp?, mode?, device_token?}`; the mode defaults to `json`. `otp` is the
/// second factor's code (an authenticator code, or a recovery code) for an account that has
/// one; `device_token` the device token an earlier login handed back (at most 64 bytes).
private struct LoginBody: Decodable {
    let email: String
    let password: Redacted<String>
    let otp: Redacted<String>?
    let mode: DirectusMode
    let deviceToken: Redacted<String>?

    private enum CodingKeys: String, CodingKey {
        case email, password, otp, mode
        case deviceToken = "device_token"
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        email = try fields.text(.email, maxBytes: 320)
        password = try fields.secret(.password, maxBytes: 4096)
        otp = try fields.optionalText(.otp, maxBytes: 64).map(Redacted.init)
        mode = try DirectusMode(field: try fields.optionalText(.mode, maxBytes: 16)) ?? .json
        deviceToken = try fields.optionalText(.deviceToken, maxBytes: 64).map(Redacted.init)
    }
}

/// `{refresh_token?, mode?}` of a refresh or logout; without a mode, `json` when the body
/// has a token and `cookie` otherwise (Directus's rule).
private struct TokenBody: Decodable {
    let refreshToken: Redacted<String>?
    let mode: DirectusMode

    private enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token", mode
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        refreshToken = try fields.optionalText(.refreshToken, maxBytes: 512).map(Redacted.init)
        mode = try DirectusMode(field: try fields.optionalText(.mode, maxBytes: 16)) ?? (refreshToken == nil ? .cookie : .json)
    }
}

/// `{"data": {"access_token"?, "refresh_token"?, "expires"}}`, `expires` in milliseconds; a
/// token that travels in a cookie is left out.
struct DirectusTokens: CompactJSONObject {
    struct Data: Encodable {
        let access_token: String?
        let refresh_token: String?
        let expires: Int
        let device_token: String?
    }
    let data: Data

    init(_ issued: TokenService.IssuedTokens, mode: DirectusMode, device: DeviceToken? = nil) {
        data = Data(
            access_token: mode == .session ? nil : issued.accessToken.exposed,
            refresh_token: mode == .json ? issued.refreshToken?.exposed : nil,
            expires: Int(issued.expiresIn * 1000), device_token: device?.value.exposed)
    }

    func writeMembers(to object: inout CompactJSON.ObjectWriter) {
        object.member("data") { data in
            data.member("access_token", self.data.access_token)
            data.member("device_token", self.data.device_token)
            data.member("expires", self.data.expires)
            data.member("refresh_token", self.data.refresh_token)
        }
    }
}
