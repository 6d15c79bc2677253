import Foundation
import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP
import LatchkeyWebAuthn

/// Passkeys (docs/passkeys.md; the contract the SDK follows): registration for a signed-in
/// account (`/auth/passkeys/registration/options|verify`), sign-in with a discoverable
/// credential (`/auth/passkeys/authentication/options|verify`, answering as `/auth/login`
/// does), and the account's list, rename and delete (`/users/me/passkeys`). Each route
/// decodes its body and makes one call to ``PasskeyManagement``, ``PasskeySignIn`` or
/// ``FirstPartyLogin``, which hold every rule and limit.
///
/// `public_key` and `credential` are the W3C WebAuthn Level 3 JSON forms (camelCase, unpadded
/// base64url), so a browser's `parseCreationOptionsFromJSON()` and `toJSON()` work unchanged.
/// The sign-in routes answer errors in Directus's shape, as `/auth/login`: every failure of a
/// passkey is `401 INVALID_CREDENTIALS`. The others answer in Latchkey's and Directus's shapes
/// in one body, as the account routes; a failed check of a registration is `400
/// INVALID_PASSKEY` with the WebAuthn code in `extensions.reason`.
struct PasskeyRoutes {
    let account: AccountSelfService
    let management: PasskeyManagement
    let passkeys: PasskeySignIn
    let login: FirstPartyLogin
    let auth: DirectusAuthRoutes
    let cookies: DirectusCookies

    var routes: [Route] {
        [
            // Checks the password when one is sent.
            Route(
                "POST", "/auth/passkeys/registration/options", name: "passkey_registration_options", body: .jsonOrEmpty,
                errorShape: .latchkeyAndDirectus, lane: .passwordHashing
            ) { request in
                let owner = try account.owner(of: request)
                let body = try request.decodeJSON(ReauthenticationBody.self, allowingEmpty: true)
                let options = try management.registrationOptions(
                    owner, currentPassword: body.currentPassword, code: body.otp, clientIP: request.clientIP)
                return .json(OptionsReply(publicKey: CreationOptionsJSON(options)))
            },
            Route(
                "POST", "/auth/passkeys/registration/verify", name: "passkey_registration_verify", body: .json,
                errorShape: .latchkeyAndDirectus
            ) { request in
                let owner = try account.owner(of: request)
                let body = try request.decodeJSON(RegistrationBody.self)
                let response: RegistrationResponse
                switch body.credential {
                case .success(let decoded): response = decoded
                case .failure(let error):
                    throw LatchkeyError(.invalidPasskey, "The passkey could not be verified.", reasons: [error.code.rawValue])
                }
                return .json(PasskeyReply(try management.register(
                    owner, response: response, name: body.name, acceptLanguage: request.headers["Accept-Language"])), status: 201)
            },
            Route(
                "POST", "/auth/passkeys/authentication/options", name: "passkey_authentication_options", body: .jsonOrEmpty,
                errorShape: .directus
            ) { request in
                _ = try request.decodeJSON(EmptyBody.self, allowingEmpty: true)
                return .json(OptionsReply(publicKey: RequestOptionsJSON(try passkeys.options(clientIP: request.clientIP))))
            },
            Route(
                "POST", "/auth/passkeys/authentication/verify", name: "passkey_authentication_verify", body: .json,
                errorShape: .directus
            ) { request in
                let body = try request.decodeJSON(AuthenticationBody.self)
                if body.mode != .json { try cookies.checkSameOrigin(request) }
                // A credential that is not one is refused like any other failed passkey.
                guard case .success(let response) = body.credential else { throw SignInService.invalidCredentials }
                let device = auth.presentedDevice(body.deviceToken, mode: body.mode, request: request)
                let started = try login.signIn(
                    .passkey(response), device: device, clientIP: request.clientIP, userAgent: request.headers["User-Agent"])
                return auth.reply(started, mode: body.mode)
            },
            Route("GET", "/users/me/passkeys", name: "users_me_passkeys", errorShape: .latchkeyAndDirectus) { request in
                let owner = try account.owner(of: request)
                return .json(PasskeyListReply(try management.passkeys(of: owner)))
            },
            Route(
                "PATCH", "/users/me/passkeys" + Route.parameterPath, name: "users_me_passkey_rename", body: .json,
                errorShape: .latchkeyAndDirectus
            ) { request in
                let owner = try account.owner(of: request)
                let body = try request.decodeJSON(RenameBody.self)
                return .json(PasskeyReply(try management.rename(try credentialID(request), of: owner, to: body.name)))
            },
            // Checks the password when one is sent.
            Route(
                "DELETE", "/users/me/passkeys" + Route.parameterPath, name: "users_me_passkey_delete", body: .jsonOrEmpty,
                errorShape: .latchkeyAndDirectus, lane: .passwordHashing
            ) { request in
                let owner = try account.owner(of: request)
                let body = try request.decodeJSON(ReauthenticationBody.self, allowingEmpty: true)
                try management.delete(
                    try credentialID(request), of: owner, currentPassword: body.currentPassword, code: body.otp, clientIP: request.clientIP,
                    acceptLanguage: request.headers["Accept-Language"])
                return HTTPResponse(status: 204)
            },
        ]
    }

    /// The credential ID the path names (base64url); `passkey_not_found` when it names none.
    private func credentialID(_ request: HTTPRequest) throws -> Data {
        guard let id = Base64URL.decode(Route.pathParameter(of: request)), (1...1023).contains(id.count) else {
            throw LatchkeyError(.passkeyNotFound, "This account has no passkey with this id.")
        }
        return id
    }
}

/// `{credential, name?}`: a registration's response (W3C JSON) and the name to give the passkey.
private struct RegistrationBody: Decodable {
    let credential: Result<RegistrationResponse, WebAuthnError>
    let name: String?

    private enum CodingKeys: String, CodingKey { case credential, name }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        name = try fields.optionalText(.name, maxBytes: 256)
        do {
            credential = .success(try fields.decode(RegistrationResponse.self, forKey: .credential))
        } catch let error as WebAuthnError {
            credential = .failure(error)
        }
    }
}

/// `{credential, mode?, device_token?}`: an assertion (W3C JSON), and Directus's `mode` and the
/// device token as `/auth/login`'s.
private struct AuthenticationBody: Decodable {
    let credential: Result<AuthenticationResponse, WebAuthnError>
    let mode: DirectusMode
    let deviceToken: Redacted<String>?

    private enum CodingKeys: String, CodingKey {
        case credential, mode
        case deviceToken = "device_token"
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        mode = try DirectusMode(field: try fields.optionalText(.mode, maxBytes: 16)) ?? .json
        deviceToken = try fields.optionalText(.deviceToken, maxBytes: 64).map(Redacted.init)
        do {
            credential = .success(try fields.decode(AuthenticationResponse.self, forKey: .credential))
        } catch let error as WebAuthnError {
            credential = .failure(error)
        }
    }
}

/// `{}`: a JSON object, whatever members it has (none are read).
private struct EmptyBody: Decodable {
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self)
    }
}

/// `{name}`.
private struct RenameBody: Decodable {
    let name: String

    private enum CodingKeys: String, CodingKey { case name }

    init(from decoder: any Decoder) throws {
        name = try decoder.container(keyedBy: CodingKeys.self).text(.name, maxBytes: 256)
    }
}

/// `{"data": {"public_key": …}}`.
private struct OptionsReply<Options: Encodable>: Encodable {
    struct Data: Encodable {
        let public_key: Options
    }
    let data: Data

    init(publicKey: Options) {
        data = Data(public_key: publicKey)
    }
}

/// `{type, id, transports?}`: a credential named in options.
private struct CredentialDescriptorJSON: Encodable {
    let type = "public-key"
    let id: String
    let transports: [String]?
}

/// `PublicKeyCredentialCreationOptionsJSON` (W3C WebAuthn Level 3 §5.1.7).
private struct CreationOptionsJSON: Encodable {
    struct RelyingParty: Encodable {
        let id: String
        let name: String
    }
    struct User: Encodable {
        let id: String
        let name: String
        let displayName: String
    }
    struct Parameter: Encodable {
        let type = "public-key"
        let alg: Int64
    }
    struct Selection: Encodable {
        let residentKey = "required"
        let requireResidentKey = true
        let userVerification = "required"
    }

    let rp: RelyingParty
    let user: User
    let challenge: String
    let pubKeyCredParams: [Parameter]
    let timeout: Int
    let excludeCredentials: [CredentialDescriptorJSON]
    let authenticatorSelection = Selection()
    let attestation = "none"

    init(_ options: PasskeyRegistrationOptions) {
        rp = RelyingParty(id: options.relyingPartyID, name: options.relyingPartyName)
        user = User(id: Base64URL.encode(options.userHandle), name: options.userName, displayName: options.userName)
        challenge = Base64URL.encode(options.challenge)
        pubKeyCredParams = options.algorithms.map { Parameter(alg: $0.rawValue) }
        timeout = Int(options.timeout * 1000)
        excludeCredentials = options.excluded.map {
            CredentialDescriptorJSON(id: Base64URL.encode($0.id), transports: $0.transports.isEmpty ? nil : $0.transports)
        }
    }
}

/// `PublicKeyCredentialRequestOptionsJSON` (W3C WebAuthn Level 3 §5.1.8), for a discoverable credential.
private struct RequestOptionsJSON: Encodable {
    let challenge: String
    let rpId: String
    let timeout: Int
    let userVerification = "required"
    let allowCredentials: [CredentialDescriptorJSON] = []

    init(_ options: PasskeyAuthenticationOptions) {
        challenge = Base64URL.encode(options.challenge)
        rpId = options.relyingPartyID
        timeout = Int(options.timeout * 1000)
    }
}

/// A passkey as the account's list shows it: `{id, name, created_at, last_used_at, synced,
/// transports}`; `synced` is the BS flag (backed up), `last_used_at` null when never used.
struct PasskeyJSON: Encodable {
    let id: String
    let name: String
    let created_at: String
    let last_used_at: String?
    let synced: Bool
    let transports: [String]

    init(_ passkey: Passkey) {
        id = Base64URL.encode(passkey.credential.id)
        name = passkey.name
        created_at = Timestamp.iso8601(passkey.createdAt)
        last_used_at = passkey.lastUsedAt.map(Timestamp.iso8601)
        synced = passkey.credential.backupState
        transports = passkey.credential.transports
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(created_at, forKey: .created_at)
        // Written as null when never used.
        try container.encode(last_used_at, forKey: .last_used_at)
        try container.encode(synced, forKey: .synced)
        try container.encode(transports, forKey: .transports)
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, created_at, last_used_at, synced, transports
    }
}

/// `{"data": Passkey}`.
private struct PasskeyReply: Encodable {
    let data: PasskeyJSON

    init(_ passkey: Passkey) {
        data = PasskeyJSON(passkey)
    }
}

/// `{"data": [Passkey]}`, newest first.
private struct PasskeyListReply: Encodable {
    let data: [PasskeyJSON]

    init(_ passkeys: [Passkey]) {
        data = passkeys.map(PasskeyJSON.init)
    }
}
