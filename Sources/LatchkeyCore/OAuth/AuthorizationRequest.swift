package import Foundation

/// A validated `/oauth/authorize` request (RFC 6749 §4.1.1 with PKCE, RFC 7636, and the
/// OpenID Connect parameters Latchkey supports).
///
/// Validation happens in two stages, because an error may be sent back to the client only
/// once its redirect URI is known to be registered: problems with the client or redirect URI
/// are ``Validation/untrusted(_:)`` (an error page, never a redirect); every other problem
/// is ``Validation/redirect(_:)`` with an OAuth error code.
package struct AuthorizationRequest: Sendable {
    /// The client, registered.
    package let client: OAuthClient
    /// The redirect URI as requested; it matches one the client registered.
    package let redirectURI: String
    /// The S256 PKCE challenge.
    package let codeChallenge: String
    /// The client's `state`, echoed in the response.
    package let state: String?
    /// The scopes requested, each allowed for the client.
    package let scope: [String]
    /// The OpenID Connect nonce for the ID token.
    package let nonce: String?
    /// The `prompt` values (`none`, `login`, `consent`).
    package let prompt: Set<String>
    /// The OpenID Connect `max_age`: how many seconds ago the person may have signed in at most.
    package let maxAge: Int?
    /// An email address to prefill.
    package let loginHint: String?
    /// The `ui_locales` preference.
    package let uiLocales: String?

    /// The scopes every client may request besides its registered ones.
    package static let standardScopes = ["openid", "email"]
    /// The `prompt` values understood.
    package static let promptValues: Set<String> = ["none", "login", "consent"]

    /// What the client should be told when validation fails after its redirect URI is trusted.
    package struct RedirectError: Sendable {
        /// Where to send the error.
        package let redirectURI: String
        /// The client's `state`, if it sent a usable one.
        package let state: String?
        /// The OAuth error code, e.g. `invalid_request`.
        package let error: String
        /// A human-readable description.
        package let description: String
    }

    /// The outcome of validating the parameters.
    package enum Validation: Sendable {
        /// Everything is in order.
        case valid(AuthorizationRequest)
        /// The client or redirect URI cannot be trusted: show an error page, do not redirect.
        case untrusted(LatchkeyError)
        /// Tell the client through its redirect URI.
        case redirect(RedirectError)
    }

    /// Validates the authorization parameters `parameters` (from the query, or the hidden
    /// fields of the sign-in and consent forms) against the registered clients.
    package static func validate(_ readParameters: () throws -> FormParameters, clients: ClientRegistry) throws -> Validation {
        let parameters: FormParameters
        let clientID: String
        let redirectURI: String
        do {
            parameters = try readParameters()
            clientID = try parameters.required("client_id", maxLength: 64)
            redirectURI = try parameters.required("redirect_uri", maxLength: RedirectURI.maximumLength)
        } catch let error as LatchkeyError where error.isClientError {
            return .untrusted(error)
        }
        guard (try? ClientRegistry.checkID(clientID)) != nil, let client = try clients.client(id: clientID) else {
            return .untrusted(LatchkeyError(.invalidRequest, "The client is not registered.", cause: .unknownClient))
        }
        guard client.redirectURI(matching: redirectURI) != nil else {
            return .untrusted(LatchkeyError(.invalidRequest, "The redirect URI is not registered for this client.", cause: .unregisteredRedirectURI))
        }
        // From here on the redirect URI is trusted; a state too long to echo is dropped.
        let state = try? parameters.optional("state", maxLength: 1024)
        func failure(_ code: LatchkeyError.Code, _ description: String) -> Validation {
            .redirect(RedirectError(redirectURI: redirectURI, state: state, error: code.rawValue, description: description))
        }
        do {
            try parameters.checkNoneRepeated()
            _ = try parameters.optional("state", maxLength: 1024)
            guard let responseType = try parameters.optional("response_type", maxLength: 64) else {
                return failure(.invalidRequest, "response_type is required.")
            }
            guard responseType == "code" else {
                return failure(.unsupportedResponseType, "Only response_type=code is supported.")
            }
            // Ignoring these would act on parameters the client did not mean (OIDC Core §6) or
            // put the code where the client did not expect it.
            if parameters.contains("request") {
                return failure(.requestNotSupported, "Request objects are not supported.")
            }
            if parameters.contains("request_uri") {
                return failure(.requestURINotSupported, "request_uri is not supported.")
            }
            if let mode = try parameters.optional("response_mode", maxLength: 32), mode != "query" {
                return failure(.invalidRequest, "Only response_mode=query is supported.")
            }
            guard try parameters.optional("code_challenge_method", maxLength: 16) == "S256" else {
                return failure(.invalidRequest, "PKCE with code_challenge_method=S256 is required.")
            }
            guard let challenge = try parameters.optional("code_challenge", maxLength: 128), PKCEChallenge.isWellFormed(challenge)
            else {
                return failure(.invalidRequest, "code_challenge must be a base64url SHA-256 (43 characters).")
            }
            let scope = (try parameters.optional("scope", maxLength: 1024) ?? "").split(separator: " ").map(String.init)
            let allowed = Set(client.requestableScopes)
            guard scope.allSatisfy(allowed.contains) else {
                return failure(.invalidScope, "A requested scope is not allowed for this client.")
            }
            let prompt = Set((try parameters.optional("prompt", maxLength: 64) ?? "").split(separator: " ").map(String.init))
            guard prompt.isSubset(of: promptValues), !prompt.contains("none") || prompt.count == 1 else {
                return failure(.invalidRequest, "prompt must be none, or any of login and consent.")
            }
            let maxAge = try parameters.optional("max_age", maxLength: 10)
            guard maxAge?.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) ?? true else {
                return failure(.invalidRequest, "max_age must be a whole number of seconds.")
            }
            var seen = Set<String>()
            return .valid(AuthorizationRequest(
                client: client, redirectURI: redirectURI, codeChallenge: challenge, state: state,
                scope: scope.filter { seen.insert($0).inserted }, nonce: try parameters.optional("nonce", maxLength: 512),
                prompt: prompt, maxAge: maxAge.flatMap { Int($0) }, loginHint: try parameters.optional("login_hint", maxLength: 320),
                uiLocales: try parameters.optional("ui_locales", maxLength: 64)))
        } catch let error as LatchkeyError where error.isClientError {
            return failure(.invalidRequest, error.message)
        }
    }

    /// The parameters that recreate this request, carried as hidden fields by the forms
    /// (of `prompt` only `consent`: a submitted form has already asked for the password, but a
    /// first-party client that asked for consent must still get the consent page).
    package var formFields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [
            ("response_type", "code"), ("client_id", client.id), ("redirect_uri", redirectURI),
            ("code_challenge", codeChallenge), ("code_challenge_method", "S256"),
        ]
        if let state { fields.append(("state", state)) }
        if !scope.isEmpty { fields.append(("scope", scope.joined(separator: " "))) }
        if let nonce { fields.append(("nonce", nonce)) }
        if let uiLocales { fields.append(("ui_locales", uiLocales)) }
        if let maxAge { fields.append(("max_age", String(maxAge))) }
        if prompt.contains("consent") { fields.append(("prompt", "consent")) }
        return fields
    }

    /// Whether the person must approve the client: third-party clients always, and any
    /// client when `prompt=consent`.
    package var needsConsent: Bool {
        !client.isFirstParty || prompt.contains("consent")
    }

    /// Whether the client's identity is assured (RFC 8252 §8.6): it authenticates with a
    /// secret at the token endpoint, or its redirect URI is a claimed https URL. Any app can
    /// claim a private-use scheme or listen on loopback, so for those a browser that is
    /// already signed in still asks the person before a code is issued.
    package var clientIdentityIsProven: Bool {
        client.isConfidential || (try? RedirectURI(redirectURI))?.kind == .https
    }

    /// Whether a sign-in at `authTime` is recent enough for `max_age` at `now` (OpenID Connect
    /// Core §3.1.2.1: an older one must be repeated).
    package func acceptsSignIn(at authTime: Date, now: Date) -> Bool {
        guard let maxAge else { return true }
        return now.timeIntervalSince(authTime) <= TimeInterval(maxAge)
    }

    /// `redirectURI` with `parameters` added to its query, form-encoded.
    package static func redirectLocation(_ redirectURI: String, _ parameters: [(String, String)]) -> String {
        let query = parameters.map { "\(formEncoded($0.0))=\(formEncoded($0.1))" }.joined(separator: "&")
        return redirectURI + (redirectURI.contains("?") ? "&" : "?") + query
    }

    private static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
