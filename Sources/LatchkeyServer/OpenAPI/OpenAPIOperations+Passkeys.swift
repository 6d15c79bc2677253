/// What the OpenAPI document says of the passkey routes (``PasskeyRoutes``); merged into
/// ``OpenAPIOperations/byRouteName``.
extension OpenAPIOperations {
    /// A W3C WebAuthn Level 3 JSON object, described by name rather than repeated here.
    private static func webAuthnJSON(_ name: String) -> JSONValue {
        .object([
            "type": .string("object"),
            "description": .string("The W3C WebAuthn Level 3 \(name) (camelCase members, unpadded base64url bytes)."),
        ])
    }

    /// `{"data": {"public_key": …}}`.
    private static func optionsSchema(_ name: String) -> JSONValue {
        .object([
            "type": .string("object"), "required": .strings(["data"]),
            "properties": .object([
                "data": .object([
                    "type": .string("object"), "required": .strings(["public_key"]),
                    "properties": .object(["public_key": webAuthnJSON(name)]),
                ])
            ]),
        ])
    }

    /// A passkey as the account's list shows it.
    private static let passkeySchema: JSONValue = .object([
        "type": .string("object"),
        "required": .strings(["id", "name", "created_at", "last_used_at", "synced", "transports"]),
        "properties": .object([
            "id": .object(["type": .string("string"), "description": .string("The credential ID, base64url.")]),
            "name": .object(["type": .string("string")]),
            "created_at": .object(["type": .string("string"), "format": .string("date-time")]),
            "last_used_at": .object(["type": .strings(["string", "null"]), "format": .string("date-time")]),
            "synced": .object(["type": .string("boolean"), "description": .string("Backed up (synced) rather than bound to one device.")]),
            "transports": .object(["type": .string("array"), "items": .object(["type": .string("string")])]),
        ]),
    ])

    private static let passkeyReply: JSONValue = .object([
        "type": .string("object"), "required": .strings(["data"]), "properties": .object(["data": passkeySchema]),
    ])

    /// `{current_password?, otp?}`.
    private static let reauthenticationBody: JSONValue = .object([
        "type": .string("object"),
        "properties": .object([
            "current_password": .object(["type": .string("string")]),
            "otp": .object(["type": .string("string"), "description": .string("The second factor's code, with current_password.")]),
        ]),
    ])

    /// The `{id}` of `/users/me/passkeys/{id}`.
    private static let passkeyID: JSONValue = .object([
        "name": .string("id"), "in": .string("path"), "required": .bool(true),
        "description": .string("A passkey's id, from GET /users/me/passkeys."),
        "schema": .object(["type": .string("string"), "pattern": .string("^[A-Za-z0-9_-]{1,1364}$")]),
    ])

    /// The errors of every route that acts for the signed-in account.
    private static let ownerErrors: [String: OpenAPIOperation.Response] = [
        "401": .error(
            "INVALID_CREDENTIALS: no valid access token (WWW-Authenticate: Bearer), or a wrong current_password; INVALID_OTP: a right current_password without the second factor's code."
        ),
        "403": .error(
            "REAUTHENTICATION_REQUIRED (where the route asks for it): the sign-in is older than 5 minutes (or, with a second factor enrolled, did not include it) and no current_password was sent; FORBIDDEN: a third-party client's token."
        ),
        "413": .error("The body exceeds the size limit."),
        "415": .error("The body is not application/json."),
        "429": .error("Too many requests or failed sign-ins from this client.", retryAfter: true),
        "503": .error("The server is busy, or the shared rate limiter (Redis) is unreachable and the server fails closed.", retryAfter: true),
    ]

    static let passkeyOperations: [String: OpenAPIOperation] = [
        "passkey_registration_options": OpenAPIOperation(
            summary: "The options to add a passkey to the signed-in account (navigator.credentials.create).",
            description: "Needs a recent sign-in (5 minutes; with the second factor when one is enrolled, or a passkey), or current_password (and otp). The challenge is good for one registration of this account within 5 minutes.",
            requestBody: .init("application/json", required: false, schema: reauthenticationBody),
            bearer: true,
            responses: [
                "200": .answer("PublicKeyCredentialCreationOptionsJSON.", mediaType: "application/json", schema: optionsSchema("PublicKeyCredentialCreationOptionsJSON")),
                "400": .error("Malformed input."),
                "409": .error("PASSKEY_LIMIT_REACHED: the account has 20 passkeys."),
            ].merging(ownerErrors) { own, _ in own }
        ),
        "passkey_registration_verify": OpenAPIOperation(
            summary: "Add the passkey the authenticator made; the owner is mailed.",
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"), "required": .strings(["credential"]),
                    "properties": .object([
                        "credential": webAuthnJSON("RegistrationResponseJSON"),
                        "name": .object(["type": .string("string"), "minLength": .integer(1), "maxLength": .integer(64)]),
                    ]),
                ])),
            bearer: true,
            responses: [
                "201": .answer("The passkey.", mediaType: "application/json", schema: passkeyReply),
                "400": .error("INVALID_PASSKEY, with the failed check in errors[0].extensions.reason (challenge_not_found, origin_not_allowed, user_not_verified, …); INVALID_PAYLOAD: malformed input."),
                "409": .error("PASSKEY_EXISTS: the credential is registered already (to any account); PASSKEY_LIMIT_REACHED."),
            ].merging(ownerErrors) { own, _ in own }
        ),
        "passkey_authentication_options": OpenAPIOperation(
            summary: "The options to sign in with a passkey, no address typed (navigator.credentials.get).",
            requestBody: .init("application/json", required: false, schema: .object(["type": .string("object")])),
            responses: [
                "200": .answer("PublicKeyCredentialRequestOptionsJSON.", mediaType: "application/json", schema: optionsSchema("PublicKeyCredentialRequestOptionsJSON")),
                "400": .error("Malformed input."),
                "429": .error("REQUESTS_EXCEEDED: too many options asked for from this client.", retryAfter: true),
                "503": .error("SERVICE_UNAVAILABLE: the shared rate limiter (Redis) is unreachable and the server fails closed.", retryAfter: true),
            ]
        ),
        "passkey_authentication_verify": OpenAPIOperation(
            summary: "Sign in with a passkey; answers as POST /auth/login (json, cookie or session mode), amr hwk and user.",
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"), "required": .strings(["credential"]),
                    "properties": .object([
                        "credential": webAuthnJSON("AuthenticationResponseJSON"),
                        "mode": .reference("DirectusMode"),
                    ]),
                ])),
            responses: [
                "200": .answer("Signed in.", mediaType: "application/json", schema: .reference("DirectusTokens")),
                "400": .error("Malformed input."),
                "401": .error("INVALID_CREDENTIALS, the same for every failure: an unknown credential, a used or expired challenge, any failed check."),
                "403": .error("FORBIDDEN: cookie or session mode from another origin."),
                "429": .error("Too many failed sign-ins from this client or for this account.", retryAfter: true),
                "503": .error("SERVICE_UNAVAILABLE: the shared rate limiter (Redis) is unreachable and the server fails closed.", retryAfter: true),
            ]
        ),
        "users_me_passkeys": OpenAPIOperation(
            summary: "The account's passkeys, newest first.",
            bearer: true,
            responses: [
                "200": .answer(
                    "The passkeys.", mediaType: "application/json",
                    schema: .object([
                        "type": .string("object"), "required": .strings(["data"]),
                        "properties": .object(["data": .object(["type": .string("array"), "items": passkeySchema])]),
                    ])),
            ].merging(ownerErrors) { own, _ in own }
        ),
        "users_me_passkey_rename": OpenAPIOperation(
            summary: "Rename one of the account's passkeys.",
            parameters: [passkeyID],
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"), "required": .strings(["name"]),
                    "properties": .object(["name": .object(["type": .string("string"), "minLength": .integer(1), "maxLength": .integer(64)])]),
                ])),
            bearer: true,
            responses: [
                "200": .answer("The passkey.", mediaType: "application/json", schema: passkeyReply),
                "400": .error("INVALID_PAYLOAD: no name, or not 1 to 64 characters without control characters."),
                "404": .error("NOT_FOUND (passkey_not_found): the account has no passkey with this id."),
            ].merging(ownerErrors) { own, _ in own }
        ),
        "users_me_passkey_delete": OpenAPIOperation(
            summary: "Delete one of the account's passkeys (re-authentication as for the password); the owner is mailed.",
            parameters: [passkeyID],
            requestBody: .init("application/json", required: false, schema: reauthenticationBody),
            bearer: true,
            responses: [
                "204": .answer("Deleted."),
                "400": .error("Malformed input."),
                "404": .error("NOT_FOUND (passkey_not_found): the account has no passkey with this id."),
                "409": .error("LAST_SIGN_IN_METHOD: the account has no password and this is its only passkey."),
            ].merging(ownerErrors) { own, _ in own }
        ),
    ]
}
