import LatchkeyCore

/// What the OpenAPI document says of each route, by the route's name. The route table gives
/// each operation its method, path and error shape; a route without an entry here is what
/// ``OpenAPIDocument/undocumented(_:)`` reports (a test checks there is none).
enum OpenAPIOperations {
    /// The language codes the server speaks, as ``SupportedLanguage`` lists them.
    private static let languageCodes = SupportedLanguage.allCases.map(\.rawValue)
    /// The codes in a sentence: "en, pt, es or ar".
    private static let languageSentence =
        languageCodes.dropLast().joined(separator: ", ") + (languageCodes.count > 1 ? " or " : "") + (languageCodes.last ?? "")

    /// A page's `lang` query parameter.
    private static let languageParameter: JSONValue = .object([
        "name": .string("lang"),
        "in": .string("query"),
        "required": .bool(false),
        "description": .string(languageSentence + "; any other value is ignored (the page follows Accept-Language)."),
        "schema": .object(["type": .string("string")]),
    ])

    /// The errors every reset route may answer.
    private static let resetErrors: [String: OpenAPIOperation.Response] = [
        "400": .error("Malformed input; see error.code (errors[0].extensions.code for Directus clients)."),
        "413": .error("The body exceeds the size limit."),
        "415": .error("The body is not application/json."),
        "429": .error("Too many requests from this client (REQUESTS_EXCEEDED for Directus clients).", retryAfter: true),
        "503": .error("The shared rate limiter (Redis) is unreachable and the server fails closed.", retryAfter: true),
    ]

    /// The parameters of a logout request (RP-Initiated Logout 1.0 §2), with the most bytes
    /// each may have.
    private static let logoutParameters: [(name: String, maxLength: Int)] = [
        ("id_token_hint", LogoutRequest.maximumHintLength), ("client_id", 64),
        ("post_logout_redirect_uri", RedirectURI.maximumLength), ("state", 1024), ("ui_locales", 64), ("logout_hint", 320),
    ]

    /// The schema of the logout parameter that may have `maxLength` bytes. In a query the limit
    /// is only described: together the limits exceed the request line the server reads (`414`).
    private static func logoutParameterSchema(maxLength: Int, inQuery: Bool) -> JSONValue {
        inQuery
            ? .object(["type": .string("string"), "description": .string("At most \(maxLength) bytes.")])
            : .object(["type": .string("string"), "maxLength": .integer(maxLength)])
    }

    /// The errors every route of the signed-in account (`/users/me…`) may answer.
    private static let accountErrors: [String: OpenAPIOperation.Response] = [
        "401": .error(
            "INVALID_CREDENTIALS: no access token in the Authorization header, or one not valid now (WWW-Authenticate: Bearer)."
        ),
        "403": .error("FORBIDDEN: the access token was issued to a client that is not first-party."),
        "503": .error("The shared rate limiter (Redis) is unreachable and the server fails closed.", retryAfter: true),
    ]

    /// The errors of the routes that change the account with a re-authentication.
    private static let reauthenticationErrors: [String: OpenAPIOperation.Response] = [
        "401": .error(
            "INVALID_CREDENTIALS: no valid access token (WWW-Authenticate: Bearer), or a wrong current_password (counted as a failed sign-in); INVALID_OTP: the current_password was right, and the account's second factor was missing from otp or wrong."
        ),
        "403": .error(
            "REAUTHENTICATION_REQUIRED: the login signed in more than 5 minutes ago (or, for an account with a second factor, without it) and no current_password was sent; FORBIDDEN: the access token is a third-party client's."
        ),
        "413": .error("The body exceeds the size limit."),
        "415": .error("The body is not application/json."),
        "429": .error("Too many failed sign-ins (the current password's checks count as sign-ins) or requests.", retryAfter: true),
        "503": .error("The server is busy, or the shared rate limiter (Redis) is unreachable and the server fails closed.", retryAfter: true),
    ]

    /// The errors of the address change links' routes.
    private static let linkErrors: [String: OpenAPIOperation.Response] = [
        "400": .error("INVALID_TOKEN (invalid_token) for every cause: unknown, expired, used, superseded, or the address taken meanwhile; INVALID_PAYLOAD for malformed input."),
        "413": .error("The body exceeds the size limit."),
        "415": .error("The body is not application/json."),
        "429": .error("Too many uses of links from this client (REQUESTS_EXCEEDED).", retryAfter: true),
        "503": .error("The shared rate limiter (Redis) is unreachable and the server fails closed.", retryAfter: true),
    ]

    /// `{"data": user}`, Directus's shape of the signed-in user.
    private static let userSchema: JSONValue = .object([
        "type": .string("object"),
        "required": .strings(["data"]),
        "properties": .object([
            "data": .object([
                "type": .string("object"),
                "required": .strings(["id", "email", "email_verified", "status", "language"]),
                "properties": .object([
                    "id": .object(["type": .string("string")]),
                    "email": .object(["type": .string("string"), "format": .string("email")]),
                    "email_verified": .object([
                        "type": .string("boolean"),
                        "description": .string("Always true: every account's address was confirmed by a link or vouched for by the operator."),
                    ]),
                    "status": .object(["type": .string("string"), "enum": .strings(["active", "disabled"])]),
                    "language": .object(["type": .strings(["string", "null"])]),
                ]),
            ]),
        ]),
    ])

    /// `{token}` of an address change's link.
    private static let linkTokenBody: JSONValue = .object([
        "type": .string("object"),
        "required": .strings(["token"]),
        "properties": .object(["token": .object(["type": .string("string")])]),
    ])

    /// `otp`: an authenticator app's 6-digit code, or one of the account's recovery codes.
    private static let otpProperty: JSONValue = .object([
        "type": .string("string"), "maxLength": .integer(64),
        "description": .string("A 6-digit code from the authenticator app, or a recovery code (XXXX-XXXX-XXXX; case, spaces and hyphens ignored)."),
    ])

    /// `{"data": {"recovery_codes": […]}}`.
    private static let recoveryCodesSchema: JSONValue = .object([
        "type": .string("object"),
        "required": .strings(["data"]),
        "properties": .object([
            "data": .object([
                "type": .string("object"),
                "required": .strings(["recovery_codes"]),
                "properties": .object([
                    "recovery_codes": .object([
                        "type": .string("array"), "minItems": .integer(10), "maxItems": .integer(10),
                        "items": .object(["type": .string("string"), "pattern": .string("^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$")]),
                    ])
                ]),
            ])
        ]),
    ])

    /// `{otp}`.
    private static let otpBody: JSONValue = .object([
        "type": .string("object"), "required": .strings(["otp"]), "properties": .object(["otp": otpProperty]),
    ])

    /// The errors of the second factor's routes besides their own.
    private static let secondFactorErrors: [String: OpenAPIOperation.Response] = [
        "401": .error("INVALID_CREDENTIALS: no valid access token (WWW-Authenticate: Bearer); INVALID_OTP: the code is wrong, used already or spent, or the account has no second factor."),
        "403": .error("FORBIDDEN: the access token is a third-party client's."),
        "413": .error("The body exceeds the size limit."),
        "415": .error("The body is not application/json."),
        "429": .error("Too many wrong codes for this account (5 in 15 minutes).", retryAfter: true),
        "503": .error("The server is busy, or the shared rate limiter (Redis) is unreachable and the server fails closed.", retryAfter: true),
    ]

    /// The operations, by route name.
    static let byRouteName: [String: OpenAPIOperation] = [
        "users_me": OpenAPIOperation(
            summary: "The signed-in account (Directus's GET /users/me): id, email, email_verified, status, language.",
            description: "Needs an access token valid now, in the Authorization header only, from a first-party login (/auth/login, or an OAuth client registered first-party).",
            bearer: true,
            responses: [
                "200": .answer("The account.", mediaType: "application/json", schema: userSchema),
            ].merging(accountErrors) { own, _ in own }
        ),
        "users_me_update": OpenAPIOperation(
            summary: "Change the password (Directus's PATCH /users/me {password}) or ask to change the address ({email}).",
            description: "Exactly one of password and email. Both need a sign-in within the last 5 minutes or current_password. A new password ends every other login and every browser session and keeps this login: its refresh token goes on, but its access token stops (refresh it). A new address changes only once it confirms the link mailed to it; the answer is the same whether or not the address has an account.",
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"),
                    "properties": .object([
                        "password": .object(["type": .string("string"), "minLength": .integer(8), "maxLength": .integer(128)]),
                        "email": .object(["type": .string("string"), "format": .string("email"), "maxLength": .integer(254)]),
                        "current_password": .object(["type": .string("string")]),
                        "otp": otpProperty,
                    ]),
                ])
            ),
            bearer: true,
            responses: [
                "200": .answer(
                    "password: changed, the password-changed mail is on its way. email: the new address was sent a confirmation "
                        + "link (valid 24 hours); the account's address is unchanged until it is confirmed.",
                    mediaType: "application/json", schema: userSchema),
                "400": .error(
                    "INVALID_PAYLOAD: not exactly one of password and email, or malformed input; FAILED_VALIDATION (field password, with error.reasons; field email) for a refused password or address."
                ),
            ].merging(reauthenticationErrors) { own, _ in own }
        ),
        "users_me_delete": OpenAPIOperation(
            summary: "Delete the signed-in account (Directus's DELETE /users/me): every token and session ends at once.",
            description: "Needs a sign-in within the last 5 minutes or current_password. The account's rows go; a confirmation mail is sent; the address can register again.",
            requestBody: .init(
                "application/json",
                required: false,
                schema: .object([
                    "type": .string("object"),
                    "properties": .object(["current_password": .object(["type": .string("string")]), "otp": otpProperty]),
                ])
            ),
            bearer: true,
            responses: [
                "204": .answer("Deleted."),
                "400": .error("INVALID_PAYLOAD: malformed input."),
            ].merging(reauthenticationErrors) { own, _ in own }
        ),
        "users_me_sessions": OpenAPIOperation(
            summary: "The account's signed-in devices: its live logins, most recently used first.",
            bearer: true,
            responses: [
                "200": .answer(
                    "Live logins; ip is truncated as in the logs, user_agent a family such as \"Safari on iOS\"; unknown values are null.",
                    mediaType: "application/json",
                    schema: .object([
                        "type": .string("object"),
                        "required": .strings(["data"]),
                        "properties": .object([
                            "data": .object([
                                "type": .string("array"),
                                "items": .object([
                                    "type": .string("object"),
                                    "required": .strings(["id", "client_id", "signed_in_at", "last_used_at", "ip", "user_agent", "current"]),
                                    "properties": .object([
                                        "id": .object(["type": .string("string")]),
                                        "client_id": .object([
                                            "type": .strings(["string", "null"]),
                                            "description": .string("The OAuth client; null for a first-party login (/auth/login)."),
                                        ]),
                                        "signed_in_at": .object(["type": .string("string"), "format": .string("date-time")]),
                                        "last_used_at": .object(["type": .string("string"), "format": .string("date-time")]),
                                        "ip": .object(["type": .strings(["string", "null"])]),
                                        "user_agent": .object(["type": .strings(["string", "null"])]),
                                        "current": .object([
                                            "type": .string("boolean"),
                                            "description": .string("The login the request's access token belongs to."),
                                        ]),
                                    ]),
                                ]),
                            ]),
                        ]),
                    ])
                ),
            ].merging(accountErrors) { own, _ in own }
        ),
        "users_me_session_end": OpenAPIOperation(
            summary: "End one live login of the account (sign a device out).",
            parameters: [
                .object([
                    "name": .string("id"),
                    "in": .string("query"),
                    "required": .bool(true),
                    "description": .string("A login's id, from GET /users/me/sessions."),
                    "schema": .object(["type": .string("string"), "minLength": .integer(1), "maxLength": .integer(64)]),
                ]),
            ],
            bearer: true,
            responses: [
                "204": .answer("The login ended."),
                "400": .error("INVALID_PAYLOAD: no id, or more than one."),
                "404": .error("INVALID_QUERY (login_not_found): the id is not a live login of this account."),
            ].merging(accountErrors) { own, _ in own }
        ),
        "users_email_confirm": OpenAPIOperation(
            summary: "Confirm a new address with the token of the link mailed to it: the address changes.",
            description: "No access token needed: the link may be opened on another device. The old address is mailed a link that undoes the change (valid 7 days).",
            requestBody: .init("application/json", schema: linkTokenBody),
            responses: [
                "204": .answer("The address changed."),
            ].merging(linkErrors) { own, _ in own }
        ),
        "users_email_undo": OpenAPIOperation(
            summary: "Undo an address change with the token of the link mailed to the old address.",
            description: "Gives the account its old address back (if no other account took it), ends every login and browser session and supersedes reset links; then choose a new password.",
            requestBody: .init("application/json", schema: linkTokenBody),
            responses: [
                "204": .answer("The old address is back; every device is signed out."),
            ].merging(linkErrors) { own, _ in own }
        ),
        "password_request": OpenAPIOperation(
            summary: "Send a password reset link to an address, if it has an account.",
            description: "Every well-formed request gets the same 200 body whether or not the account exists.",
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"),
                    "required": .strings(["email"]),
                    "properties": .object([
                        "email": .object([
                            "type": .string("string"),
                            "format": .string("email"),
                            "maxLength": .integer(254),
                        ]),
                        "reset_url": .object([
                            "type": .strings(["string", "null"]),
                            "description": .string("A link base from LATCHKEY_RESET_URL_ALLOW_LIST; null or absent: the server's reset page."),
                        ]),
                        "locale": .object([
                            "type": .strings(["string", "null"]),
                            "enum": .array(languageCodes.map(JSONValue.string) + [.null]),
                            "description": .string("The mail's language; null or absent: the account's, else Accept-Language."),
                        ]),
                    ]),
                ])
            ),
            responses: [
                "200": .answer(
                    "Accepted (always the same body).",
                    mediaType: "application/json",
                    schema: .object([
                        "type": .string("object"),
                        "properties": .object(["message": .object(["type": .string("string")])]),
                    ])
                ),
            ].merging(resetErrors) { own, _ in own }
        ),
        "password_validate": OpenAPIOperation(
            summary: "Check a reset token without using it.",
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"),
                    "required": .strings(["token"]),
                    "properties": .object(["token": .object(["type": .string("string")])]),
                ])
            ),
            responses: [
                "200": .answer(
                    "The token can be used.",
                    mediaType: "application/json",
                    schema: .object([
                        "type": .string("object"),
                        "required": .strings(["valid", "email_hint", "expires_at"]),
                        "properties": .object([
                            "valid": .object(["type": .string("boolean")]),
                            "email_hint": .object(["type": .string("string")]),
                            "expires_at": .object(["type": .string("string"), "format": .string("date-time")]),
                        ]),
                    ])
                ),
            ].merging(resetErrors) { own, _ in own }
        ),
        "password_reset": OpenAPIOperation(
            summary: "Set a new password with a reset token (single use).",
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"),
                    "required": .strings(["token", "password"]),
                    "properties": .object([
                        "token": .object(["type": .string("string")]),
                        "password": .object([
                            "type": .string("string"),
                            "minLength": .integer(8),
                            "maxLength": .integer(128),
                        ]),
                        "locale": .object([
                            "type": .string("string"),
                            "enum": .strings(languageCodes),
                            "description": .string("The language of the password-changed mail; else the account's, else Accept-Language."),
                        ]),
                    ]),
                ])
            ),
            responses: [
                "200": .answer(
                    "The password was changed; every session of the account was ended.",
                    mediaType: "application/json",
                    schema: .object([
                        "type": .string("object"),
                        "properties": .object(["message": .object(["type": .string("string")])]),
                    ])
                ),
            ].merging(resetErrors) { own, _ in own }
        ),
        "register": OpenAPIOperation(
            summary: "Sign up (Directus-compatible): a mail confirms the address, and the account exists once its link is used.",
            description: "Every well-formed request gets the same empty 204 whether or not the address has an account (an address "
                + "with one is mailed a note saying so). Off unless LATCHKEY_REGISTRATION=open (403).",
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"),
                    "required": .strings(["email", "password"]),
                    "properties": .object([
                        "email": .object(["type": .string("string"), "format": .string("email"), "maxLength": .integer(254)]),
                        "password": .object(["type": .string("string"), "minLength": .integer(8), "maxLength": .integer(128)]),
                        "verification_url": .object([
                            "type": .strings(["string", "null"]),
                            "description": .string("A link base from LATCHKEY_RESET_URL_ALLOW_LIST; null or absent: the server's /verify-email page."),
                        ]),
                        "locale": .object([
                            "type": .strings(["string", "null"]),
                            "enum": .array(languageCodes.map(JSONValue.string) + [.null]),
                            "description": .string("The mail's language; null or absent: Accept-Language."),
                        ]),
                        "first_name": .object(["type": .string("string"), "description": .string("Accepted for Directus clients; not kept.")]),
                        "last_name": .object(["type": .string("string"), "description": .string("Accepted for Directus clients; not kept.")]),
                    ]),
                ])
            ),
            responses: [
                "204": .answer("Accepted (always the same answer)."),
                "403": .error("FORBIDDEN: sign-up is closed on this server."),
            ].merging(resetErrors) { own, _ in own }
        ),
        "verify_email": OpenAPIOperation(
            summary: "Confirm a sign-up's address with the token of its mailed link (single use, 24 h): the account is created.",
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"),
                    "required": .strings(["token"]),
                    "properties": .object(["token": .object(["type": .string("string")])]),
                ])
            ),
            responses: [
                "204": .answer("The address is confirmed and the account exists."),
            ].merging(resetErrors) { own, _ in own }
        ),
        "verify_email_query": OpenAPIOperation(
            summary: "The same confirmation, as Directus's SDKs send it (GET with the token in the query).",
            description: "Latchkey's own mails never put the token in a query string: their link opens /verify-email, "
                + "which posts it.",
            parameters: [
                .object([
                    "name": .string("token"),
                    "in": .string("query"),
                    "required": .bool(true),
                    "schema": .object(["type": .string("string")]),
                ]),
            ],
            responses: [
                "204": .answer("The address is confirmed and the account exists."),
                "400": .error("invalid_token (one answer for every cause), or a malformed or repeated parameter."),
                "429": .error("Too many requests from this client (REQUESTS_EXCEEDED for Directus clients).", retryAfter: true),
                "503": .error("The shared rate limiter (Redis) is unreachable and the server fails closed.", retryAfter: true),
            ]
        ),
        "directus_login": OpenAPIOperation(
            summary: "Sign in with email and password (Directus-compatible: json, cookie or session mode).",
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"),
                    "required": .strings(["email", "password"]),
                    "properties": .object([
                        "email": .object(["type": .string("string")]),
                        "password": .object(["type": .string("string")]),
                        "otp": otpProperty,
                        "mode": .reference("DirectusMode"),
                    ]),
                ])
            ),
            responses: [
                "200": .answer(
                    "Signed in; in cookie and session mode the tokens left out of the body are set as cookies.",
                    mediaType: "application/json",
                    schema: .reference("DirectusTokens"),
                    headers: .object([
                        "Set-Cookie": .object([
                            "schema": .object(["type": .string("string")]),
                            "description": .string("directus_refresh_token (cookie, session) and directus_session_token (session)."),
                        ]),
                    ])
                ),
                "400": .error("Malformed input."),
                "401": .error(
                    "INVALID_CREDENTIALS, the same for every cause, whether or not the account has a second factor; INVALID_OTP only after a right password, for an account with a second factor whose otp is missing, wrong, used already or spent."
                ),
                "403": .error("FORBIDDEN: cookie or session mode from another origin."),
                "429": .error("Too many failed logins from this client or for this account, or too many wrong codes for this account.", retryAfter: true),
                "503": .error("SERVICE_UNAVAILABLE: the shared rate limiter (Redis) is unreachable and the server fails closed.", retryAfter: true),
            ]
        ),
        "directus_refresh": OpenAPIOperation(
            summary: "Exchange a refresh token (body or cookie) for a new pair; a reused refresh token ends the whole login.",
            requestBody: .init("application/json", required: false, schema: .reference("DirectusTokenRequest")),
            responses: [
                "200": .answer(
                    "A new access and refresh token, placed as the mode says.",
                    mediaType: "application/json",
                    schema: .reference("DirectusTokens"),
                    headers: .object([
                        "Set-Cookie": .object([
                            "schema": .object(["type": .string("string")]),
                            "description": .string("The new directus_refresh_token (cookie, session) and directus_session_token (session)."),
                        ]),
                    ])
                ),
                "400": .error("Malformed input, or no refresh token in the body or the cookie (INVALID_PAYLOAD)."),
                "401": .error("INVALID_TOKEN."),
                "403": .error("FORBIDDEN: cookie or session mode from another origin."),
            ]
        ),
        "directus_logout": OpenAPIOperation(
            summary: "End the login a refresh token (body or cookie; in session mode also the session cookie) belongs to.",
            requestBody: .init("application/json", required: false, schema: .reference("DirectusTokenRequest")),
            responses: [
                "204": .answer(
                    "Signed out (also for an unknown token); in cookie and session mode the cookies are cleared."
                ),
                "400": .error("Malformed input, or no token in the body or the cookies."),
                "403": .error("FORBIDDEN: cookie or session mode from another origin."),
            ]
        ),
        "oauth_authorize": OpenAPIOperation(
            summary: "Start the authorization code flow (RFC 6749 §4.1, PKCE S256 required, RFC 9207 iss).",
            description: "Shows the sign-in page (or the consent page for clients that are not first-party), or redirects (303) to the redirect URI with code, state and iss. An unknown client or unregistered redirect URI gets an HTML error page, never a redirect.",
            parameters: [
                .object([
                    "name": .string("response_type"),
                    "in": .string("query"),
                    "required": .bool(true),
                    "schema": .object(["type": .string("string"), "enum": .strings(["code"])]),
                ]),
                .object([
                    "name": .string("client_id"),
                    "in": .string("query"),
                    "required": .bool(true),
                    "schema": .object(["type": .string("string"), "minLength": .integer(1)]),
                ]),
                .object([
                    "name": .string("redirect_uri"),
                    "in": .string("query"),
                    "required": .bool(true),
                    "schema": .object(["type": .string("string"), "minLength": .integer(1)]),
                ]),
                .object([
                    "name": .string("code_challenge"),
                    "in": .string("query"),
                    "required": .bool(true),
                    "schema": .object(["type": .string("string"), "minLength": .integer(43), "maxLength": .integer(43)]),
                ]),
                .object([
                    "name": .string("code_challenge_method"),
                    "in": .string("query"),
                    "required": .bool(true),
                    "schema": .object(["type": .string("string"), "enum": .strings(["S256"])]),
                ]),
                .object([
                    "name": .string("state"),
                    "in": .string("query"),
                    "required": .bool(false),
                    "schema": .object(["type": .string("string")]),
                ]),
                .object([
                    "name": .string("scope"),
                    "in": .string("query"),
                    "required": .bool(false),
                    "schema": .object(["type": .string("string")]),
                ]),
                .object([
                    "name": .string("nonce"),
                    "in": .string("query"),
                    "required": .bool(false),
                    "schema": .object(["type": .string("string")]),
                ]),
                .object([
                    "name": .string("prompt"),
                    "in": .string("query"),
                    "required": .bool(false),
                    "schema": .object(["type": .string("string"), "enum": .strings(["none", "login", "consent"])]),
                ]),
                .object([
                    "name": .string("login_hint"),
                    "in": .string("query"),
                    "required": .bool(false),
                    "schema": .object(["type": .string("string")]),
                ]),
                .object([
                    "name": .string("ui_locales"),
                    "in": .string("query"),
                    "required": .bool(false),
                    "schema": .object(["type": .string("string")]),
                ]),
            ],
            responses: [
                "200": .answer("Sign-in or consent page.", mediaType: "text/html"),
                "303": .answer("Back to the client with code (or error), state and iss."),
                "400": .error("Error page: unknown client, unregistered redirect URI or malformed request."),
            ]
        ),
        "oauth_authorize_form": OpenAPIOperation(
            summary: "Submit the sign-in or consent form (needs the csrf_token bound to the latchkey_csrf cookie).",
            requestBody: .init(
                "application/x-www-form-urlencoded",
                schema: .object([
                    "type": .string("object"),
                    "required": .strings(["csrf_token", "step"]),
                    "properties": .object([
                        "csrf_token": .object(["type": .string("string")]),
                        "step": .object(["type": .string("string"), "enum": .strings(["sign_in", "second_factor", "passkey", "consent"])]),
                        "email": .object(["type": .string("string")]),
                        "password": .object(["type": .string("string")]),
                        "challenge": .object(["type": .string("string")]),
                        "code": .object(["type": .string("string"), "maxLength": .integer(64)]),
                        "credential": .object([
                            "type": .string("string"),
                            "description": .string(
                                "step=passkey: the assertion's W3C JSON form (PublicKeyCredential.toJSON()), as text of at most 32 KiB."),
                        ]),
                        "decision": .object(["type": .string("string"), "enum": .strings(["allow", "deny"])]),
                    ]),
                ])
            ),
            responses: [
                "200": .answer(
                    "Consent page; or, after a right password for an account with a second factor, the code step (its challenge lives 5 minutes and is used once). A passkey needs no code step.",
                    mediaType: "text/html"),
                "303": .answer("Back to the client with code (or access_denied), state and iss."),
                "400": .error("Error page: the body is not form-encoded, or a parameter is malformed or repeated."),
                "401": .error(
                    "Sign-in page again: wrong credentials (one message for every cause), a passkey not accepted (one message for every cause), or a code step whose challenge expired or was used; the code step again: a wrong, used or spent code."
                ),
                "403": .error("The form token is missing or does not match the browser."),
                "413": .error("Error page: the body exceeds the size limit."),
                "429": .error("Too many failed sign-ins.", retryAfter: true),
            ]
        ),
        "oauth_logout": OpenAPIOperation(
            summary: "Sign the browser out (OpenID Connect RP-Initiated Logout 1.0; the metadata's end_session_endpoint).",
            description: "With an id_token_hint this server issued (expired ones too) for the signed-in account, the browser's session ends at once; otherwise a page asks \"Sign out?\" first. Once signed out: 303 to post_logout_redirect_uri (registered for the client) with state, else a \"You are signed out\" page. An unknown client or unregistered post_logout_redirect_uri gets an HTML error page, never a redirect.",
            parameters: logoutParameters.map { name, maxLength in
                .object([
                    "name": .string(name), "in": .string("query"), "required": .bool(false),
                    "schema": logoutParameterSchema(maxLength: maxLength, inQuery: true),
                ])
            },
            responses: [
                "200": .answer("The \"Sign out?\" page, or the \"You are signed out\" page.", mediaType: "text/html"),
                "303": .answer("Signed out: to the post-logout redirect URI with state."),
                "400": .error("Error page: unknown client, unregistered post-logout redirect URI, or a malformed or repeated parameter."),
                "414": .answer("The request line is longer than the server reads (about 11 KB with the headers): send such a request as a form POST."),
            ]
        ),
        "oauth_logout_form": OpenAPIOperation(
            summary: "The logout request as a form post, or the \"Sign out?\" page's form (step=sign_out with the csrf_token bound to the latchkey_csrf cookie).",
            description: "Without step, the same request as GET /oauth/logout; a post that brings no session cookie (another site's form post carries none) is asked \"Sign out?\". With step=sign_out and a valid csrf_token, the browser's session ends.",
            requestBody: .init(
                "application/x-www-form-urlencoded",
                schema: .object([
                    "type": .string("object"),
                    "properties": .object(Dictionary(uniqueKeysWithValues: logoutParameters.map { name, maxLength in
                        (name, logoutParameterSchema(maxLength: maxLength, inQuery: false))
                    } + [
                        ("csrf_token", .object(["type": .string("string"), "maxLength": .integer(128)])),
                        ("step", .object(["type": .string("string"), "enum": .strings(["sign_out"])])),
                    ])),
                ])
            ),
            responses: [
                "200": .answer("The \"Sign out?\" page, or the \"You are signed out\" page.", mediaType: "text/html"),
                "303": .answer("Signed out: to the post-logout redirect URI with state."),
                "400": .error("Error page: the body is not form-encoded, an unknown client, an unregistered post-logout redirect URI, or a malformed or repeated parameter."),
                "403": .error("The form token is missing or does not match the browser."),
            ]
        ),
        "oauth_token": OpenAPIOperation(
            summary: "Exchange an authorization code or a refresh token (RFC 6749 §4.1.3, §6).",
            requestBody: .init("application/x-www-form-urlencoded", schema: .reference("TokenRequest")),
            responses: [
                "200": .answer(
                    "Tokens (Cache-Control: no-store).",
                    mediaType: "application/json",
                    schema: .reference("OAuthTokens")
                ),
                "400": .error("OAuth error."),
                "401": .error("invalid_client."),
            ]
        ),
        "oauth_revoke": OpenAPIOperation(
            summary: "Revoke a refresh or access token and its whole login (RFC 7009).",
            requestBody: .init("application/x-www-form-urlencoded", schema: .reference("TokenParameter")),
            responses: [
                "200": .answer("Revoked, or the token was unknown."),
                "400": .error("OAuth error."),
                "401": .error("invalid_client."),
            ]
        ),
        "oauth_introspect": OpenAPIOperation(
            summary: "Whether a token is valid now (RFC 7662); confidential clients only.",
            requestBody: .init("application/x-www-form-urlencoded", schema: .reference("TokenParameter")),
            responses: [
                "200": .answer(
                    "{\"active\": false} for any token not valid now; else active, token_type, sub, scope, client_id, iss, exp, iat (and aud, jti for access tokens).",
                    mediaType: "application/json"
                ),
                "400": .error("OAuth error: the body is not form-encoded, or a parameter is missing, malformed or repeated."),
                "401": .error("invalid_client."),
                "403": .error("unauthorized_client: the client was not registered with --introspect."),
            ]
        ),
        "userinfo": OpenAPIOperation(
            summary: "The signed-in account (OpenID Connect): sub, and email with the email scope.",
            bearer: true,
            responses: [
                "200": .answer("Claims.", mediaType: "application/json"),
                "401": .answer(
                    "invalid_token: WWW-Authenticate: Bearer error=... and a JSON body {error, error_description}; without any token a bare WWW-Authenticate: Bearer and no body (RFC 6750 3.1)."
                ),
                "403": .answer("insufficient_scope: the token lacks openid.", mediaType: "application/json"),
            ]
        ),
        "userinfo_post": OpenAPIOperation(
            summary: "The same as GET (OpenID Connect Core 5.3.1); the access token in the Authorization header or as access_token in a form body (RFC 6750 2.2), never both, never in the query string.",
            requestBody: .init(
                "application/x-www-form-urlencoded",
                required: false,
                schema: .object([
                    "type": .string("object"),
                    "properties": .object(["access_token": .object(["type": .string("string")])]),
                ])
            ),
            bearer: true,
            responses: [
                "200": .answer("Claims.", mediaType: "application/json"),
                "400": .answer(
                    "invalid_request: the token in both places, or a malformed body (WWW-Authenticate: Bearer).",
                    mediaType: "application/json"
                ),
                "401": .answer(
                    "invalid_token: WWW-Authenticate: Bearer error=... and a JSON body {error, error_description}; without any token a bare WWW-Authenticate: Bearer and no body (RFC 6750 3.1)."
                ),
                "403": .answer("insufficient_scope: the token lacks openid.", mediaType: "application/json"),
                "413": .answer(
                    "invalid_request: the body is larger than LATCHKEY_MAX_BODY_BYTES (no WWW-Authenticate).",
                    mediaType: "application/json"
                ),
            ]
        ),
        "oauth_metadata": OpenAPIOperation(
            summary: "Authorization server metadata (RFC 8414).",
            responses: [
                "200": .answer("Metadata.", mediaType: "application/json"),
            ]
        ),
        "oauth_metadata_issuer_path": OpenAPIOperation(
            summary: "Authorization server metadata (RFC 8414 §3) for an issuer with a path: the well-known path between the host and the issuer's path (served only when LATCHKEY_PUBLIC_URL has a path).",
            responses: [
                "200": .answer("Metadata.", mediaType: "application/json"),
            ]
        ),
        "openid_configuration": OpenAPIOperation(
            summary: "The same metadata for OpenID Connect clients.",
            responses: [
                "200": .answer("Metadata.", mediaType: "application/json"),
            ]
        ),
        "reset_page": OpenAPIOperation(
            summary: "The web page for setting a new password (token in the URL fragment).",
            parameters: [languageParameter],
            responses: [
                "200": .answer("HTML page.", mediaType: "text/html"),
            ]
        ),
        "confirm_email_page": OpenAPIOperation(
            summary: "The page a new address's confirmation link opens (token in the URL fragment; one click posts it to /users/email/confirm).",
            parameters: [languageParameter],
            responses: [
                "200": .answer("HTML page.", mediaType: "text/html"),
            ]
        ),
        "undo_email_change_page": OpenAPIOperation(
            summary: "The page the old address's undo link opens (token in the URL fragment; one click posts it to /users/email/undo).",
            parameters: [languageParameter],
            responses: [
                "200": .answer("HTML page.", mediaType: "text/html"),
            ]
        ),
        "verify_email_page": OpenAPIOperation(
            summary: "The page a sign-up's confirmation link opens (token in the URL fragment; one click posts it to /users/register/verify-email).",
            parameters: [languageParameter],
            responses: [
                "200": .answer("HTML page.", mediaType: "text/html"),
            ]
        ),
        "email_link_script": OpenAPIOperation(
            summary: "Script of the pages mailed links open.",
            responses: [
                "200": .answer("JavaScript.", mediaType: "text/javascript"),
            ]
        ),
        "passkey_sign_in_script": OpenAPIOperation(
            summary: "Script of the sign-in page: \"Sign in with a passkey\" and passkeys offered in the email field's autofill.",
            responses: [
                "200": .answer("JavaScript.", mediaType: "text/javascript"),
            ]
        ),
        "reset_script": OpenAPIOperation(
            summary: "Script of the reset page.",
            responses: [
                "200": .answer("JavaScript.", mediaType: "text/javascript"),
            ]
        ),
        "reset_token_script": OpenAPIOperation(
            summary: "Script for reset pages on any origin (also Directus-style pages): LatchkeyResetToken.read() gives the token from #token= or ?token= and removes it from the address bar.",
            responses: [
                "200": .answer(
                    "JavaScript (Cross-Origin-Resource-Policy: cross-origin).",
                    mediaType: "text/javascript"
                ),
            ]
        ),
        "stylesheet": OpenAPIOperation(
            summary: "Style of the web pages.",
            responses: [
                "200": .answer("CSS.", mediaType: "text/css"),
            ]
        ),
        "favicon": OpenAPIOperation(
            summary: "The site icon (a keyhole), cacheable for a day.",
            responses: [
                "200": .answer("ICO file.", mediaType: "image/x-icon"),
            ]
        ),
        "apple_app_site_association": OpenAPIOperation(
            summary: "Universal links for the configured iOS apps.",
            responses: [
                "200": .answer("AASA document.", mediaType: "application/json"),
            ]
        ),
        "assetlinks": OpenAPIOperation(
            summary: "Android app links for the configured apps.",
            responses: [
                "200": .answer("Digital Asset Links statements.", mediaType: "application/json"),
            ]
        ),
        "jwks": OpenAPIOperation(
            summary: "Public keys (JWK Set) that verify the server's tokens.",
            responses: [
                "200": .answer("JWK Set.", mediaType: "application/jwk-set+json"),
            ]
        ),
        "healthz": OpenAPIOperation(
            summary: "The process is up.",
            responses: [
                "200": .answer("OK.", mediaType: "application/json"),
            ]
        ),
        "readyz": OpenAPIOperation(
            summary: "The database answers.",
            responses: [
                "200": .answer("Ready.", mediaType: "application/json"),
                "503": .answer("Not ready.", mediaType: "application/json"),
            ]
        ),
        "metrics": OpenAPIOperation(
            summary: "Prometheus metrics.",
            responses: [
                "200": .answer("Text exposition format.", mediaType: "text/plain"),
            ]
        ),
        "openapi": OpenAPIOperation(
            summary: "This document.",
            responses: [
                "200": .answer("OpenAPI 3.1.", mediaType: "application/json"),
            ]
        ),
        // The second factor (docs/accounts.md, "Second factor").
        "two_step_sign_in_page": OpenAPIOperation(
            summary: "The enrolment page: turn two-step sign-in on from a browser (lang=en|pt|es|ar, else Accept-Language).",
            responses: ["200": .answer("The address and password form; sets the CSRF cookie.", mediaType: "text/html")]
        ),
        "two_step_sign_in_form": OpenAPIOperation(
            summary: "Submit the enrolment page's forms (needs the csrf_token bound to the latchkey_csrf cookie).",
            description: "step=start {email, password}: checked as a sign-in; answers the QR code (inline SVG), the otpauth:// link and the key, with a challenge (10 minutes, used once). step=confirm {challenge, code}: enrols the secret and shows the recovery codes once.",
            requestBody: .init(
                "application/x-www-form-urlencoded",
                schema: .object([
                    "type": .string("object"),
                    "required": .strings(["csrf_token", "step"]),
                    "properties": .object([
                        "csrf_token": .object(["type": .string("string")]),
                        "step": .object(["type": .string("string"), "enum": .strings(["start", "confirm"])]),
                        "lang": .object(["type": .string("string")]),
                        "email": .object(["type": .string("string")]),
                        "password": .object(["type": .string("string")]),
                        "challenge": .object(["type": .string("string")]),
                        "code": .object(["type": .string("string"), "maxLength": .integer(64)]),
                    ]),
                ])
            ),
            responses: [
                "200": .answer("The QR code page, or the recovery codes.", mediaType: "text/html"),
                "400": .error("The form is incomplete or malformed, or the account has two-step sign-in already."),
                "401": .error("Wrong credentials; a wrong code; or the challenge expired or was used."),
                "403": .error("The form token is missing or does not match the browser."),
                "429": .error("Too many failed sign-ins or wrong codes.", retryAfter: true),
            ]
        ),
        "users_me_tfa_generate": OpenAPIOperation(
            summary: "Generate an authenticator secret (Directus's POST /users/me/tfa/generate): not yet enrolled.",
            description: "Needs the account's password (checked and limited as a sign-in). The secret (160 random bits) is kept server-side, sealed and bound to the account, for 10 minutes, and shown only in this answer: base32 in secret, and the otpauth://totp/ URL for a QR code or a link that opens the authenticator app.",
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"), "required": .strings(["password"]),
                    "properties": .object(["password": .object(["type": .string("string")])]),
                ])
            ),
            bearer: true,
            responses: [
                "200": .answer(
                    "The secret, not yet enrolled.", mediaType: "application/json",
                    schema: .object([
                        "type": .string("object"),
                        "required": .strings(["data"]),
                        "properties": .object([
                            "data": .object([
                                "type": .string("object"),
                                "required": .strings(["secret", "otpauth_url"]),
                                "properties": .object([
                                    "secret": .object(["type": .string("string"), "pattern": .string("^[A-Z2-7]{32}$")]),
                                    "otpauth_url": .object(["type": .string("string"), "format": .string("uri")]),
                                ]),
                            ])
                        ]),
                    ])),
                "400": .error("INVALID_PAYLOAD: malformed input, or the account has a second factor already."),
                "401": .error("INVALID_CREDENTIALS: no valid access token (WWW-Authenticate: Bearer), or a wrong password (counted as a failed sign-in)."),
            ].merging(secondFactorErrors) { own, _ in own }
        ),
        "users_me_tfa_enable": OpenAPIOperation(
            summary: "Enrol the generated secret with a code from the app (Directus's POST /users/me/tfa/enable).",
            description: "secret, when sent (Directus's clients send it back), must be the one generated for this account; the code's step is spent, so it cannot sign in again. Answers 200 with the 10 recovery codes, shown only now (Directus answers 204; its clients ignore a body). The owner is mailed.",
            requestBody: .init(
                "application/json",
                schema: .object([
                    "type": .string("object"), "required": .strings(["otp"]),
                    "properties": .object(["secret": .object(["type": .string("string")]), "otp": otpProperty]),
                ])
            ),
            bearer: true,
            responses: [
                "200": .answer("Enrolled; the recovery codes.", mediaType: "application/json", schema: recoveryCodesSchema),
                "400": .error("INVALID_PAYLOAD: malformed input, no generated secret (or it expired), another secret, or a second factor already."),
            ].merging(secondFactorErrors) { own, _ in own }
        ),
        "users_me_tfa_disable": OpenAPIOperation(
            summary: "Turn the second factor off with a code (Directus's POST /users/me/tfa/disable).",
            description: "otp: a code from the app or a recovery code. The secret and every recovery code go; the owner is mailed.",
            requestBody: .init("application/json", schema: otpBody),
            bearer: true,
            responses: [
                "204": .answer("Turned off."),
                "400": .error("INVALID_PAYLOAD: malformed input."),
            ].merging(secondFactorErrors) { own, _ in own }
        ),
        "users_me_tfa_recovery_codes": OpenAPIOperation(
            summary: "Replace every recovery code with 10 new ones, with a code from the authenticator app.",
            description: "otp must be a code from the app (not a recovery code). The old codes stop working at once.",
            requestBody: .init("application/json", schema: otpBody),
            bearer: true,
            responses: [
                "200": .answer("The new recovery codes, shown only now.", mediaType: "application/json", schema: recoveryCodesSchema),
                "400": .error("INVALID_PAYLOAD: malformed input."),
            ].merging(secondFactorErrors) { own, _ in own }
        ),
    ].merging(passkeyOperations) { own, _ in own }
}
