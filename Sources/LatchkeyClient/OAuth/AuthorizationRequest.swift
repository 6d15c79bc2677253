public import Foundation

/// One OAuth authorization request (authorization code flow with PKCE S256, RFC 7636,
/// plus `state` and an OpenID Connect `nonce`): the URL to open in a browser and the
/// single-use values needed to check and redeem its answer.
///
/// Keep it until the callback arrives; its description shows no secret (the PKCE
/// verifier is a ``ClientSecret``).
public struct AuthorizationRequest: Sendable {
    /// The URL to open: the authorization endpoint with `response_type=code`,
    /// `client_id`, `redirect_uri`, `scope`, `state`, `nonce`, `code_challenge` and
    /// `code_challenge_method=S256`.
    public let url: URL
    /// Where the server sends the browser back to.
    public let redirectURI: URL
    /// The `state` the callback must carry back unchanged.
    public let state: String
    /// The `nonce` the ID token must carry.
    public let nonce: String
    /// The PKCE pair; the verifier goes only to the token endpoint.
    public let pkce: PKCE
    /// The scopes requested.
    public let scopes: [String]
    /// The server this request is for.
    public let metadata: AuthorizationServerMetadata
    /// Whether a callback has yielded this request's code: shared by every copy of the
    /// request, so that its `state` is good for one answer (RFC 9700 §4.2.4).
    private let answer = AnswerLedger()

    /// A request to `metadata`'s authorization endpoint for `clientID`, with fresh
    /// `state`, `nonce` and PKCE values.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` if the redirect URI is
    ///   not absolute or has a fragment (RFC 6749 §3.1.2).
    public init(
        metadata: AuthorizationServerMetadata, clientID: String, redirectURI: URL, scopes: [String],
        state: String = AuthorizationRequestValues.makeState(), nonce: String = AuthorizationRequestValues.makeNonce(),
        pkce: PKCE? = nil
    ) throws {
        guard redirectURI.scheme != nil, redirectURI.fragment == nil, !clientID.isEmpty else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["invalid_redirect_uri"])
        }
        let pkce = try pkce ?? PKCE()
        var fields: [(name: String, value: String)] = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI.absoluteString),
        ]
        if !scopes.isEmpty { fields.append(("scope", scopes.joined(separator: " "))) }
        fields += [
            ("state", state), ("nonce", nonce), ("code_challenge", pkce.challenge),
            ("code_challenge_method", PKCE.challengeMethod),
        ]
        guard var components = URLComponents(url: metadata.authorizationEndpoint, resolvingAgainstBaseURL: false) else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["invalid_authorization_endpoint"])
        }
        let query = FormEncoding.encode(fields)
        components.percentEncodedQuery = components.percentEncodedQuery.map { $0 + "&" + query } ?? query
        guard let url = components.url else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["invalid_authorization_endpoint"])
        }
        self.url = url
        self.redirectURI = redirectURI
        self.state = state
        self.nonce = nonce
        self.pkce = pkce
        self.scopes = scopes
        self.metadata = metadata
    }

    /// The authorization code in `callback`, the URL the browser was sent back to, after
    /// every check an attacker-controlled callback must pass:
    /// 1. it is this request's redirect URI (scheme, host, path; the port too unless
    ///    the redirect URI is a loopback one without a port) — `redirect_mismatch`;
    /// 2. no parameter appears twice — `duplicate_parameter`;
    /// 3. `state` is this request's — `state_mismatch`;
    /// 4. `iss` (RFC 9207) names the issuer — `issuer_mismatch`; absent while the
    ///    server promises it — `issuer_missing`; present while the server does not promise
    ///    it — `issuer_not_announced` (§2.4: such a response is discarded);
    /// 5. no `error` — the error code itself (`access_denied`, …) as the reason;
    /// 6. a `code` is present — `missing_code`;
    /// 7. no callback has yielded this request's code before — `state_used`.
    ///
    /// Parameters other than `code`, `state`, `iss` and `error` are ignored (RFC 6749 §4.1.2).
    ///
    /// - Throws: ``LatchkeyClientError`` `authorization_failed` with the reason above.
    public func authorizationCode(from callback: URL) throws -> ClientSecret {
        guard Self.sameEndpoint(callback, redirectURI),
            let components = URLComponents(url: callback, resolvingAgainstBaseURL: false)
        else { throw Self.failed("redirect_mismatch") }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard parameters[item.name] == nil else { throw Self.failed("duplicate_parameter") }
            parameters[item.name] = item.value ?? ""
        }
        guard let returnedState = parameters["state"], Self.constantTimeEquals(returnedState, state) else {
            throw Self.failed("state_mismatch")
        }
        if let iss = parameters["iss"] {
            guard metadata.authorizationResponseIssParameterSupported else { throw Self.failed("issuer_not_announced") }
            guard metadata.isIssuer(iss) else { throw Self.failed("issuer_mismatch") }
        } else if metadata.authorizationResponseIssParameterSupported {
            throw Self.failed("issuer_missing")
        }
        if let error = parameters["error"] {
            let known = error.utf8.count <= 64 && error.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x61...0x7A).contains($0) }
            throw Self.failed(known ? error : "server_error")
        }
        guard let code = parameters["code"], !code.isEmpty, code.utf8.count <= 2048 else { throw Self.failed("missing_code") }
        guard answer.claim() else { throw Self.failed("state_used") }
        return ClientSecret(code)
    }

    /// Whether `callback` answers this request: it is sent to the redirect URI (as in
    /// check 1 of ``authorizationCode(from:)``) and carries this request's `state`, once.
    /// A receiver that can be reached by others (a loopback listener) uses it to ignore
    /// stray or forged callbacks and keep waiting, instead of failing the sign-in; the
    /// callback it accepts still goes through every check of ``authorizationCode(from:)``.
    public func isAnswer(_ callback: URL) -> Bool {
        guard Self.sameEndpoint(callback, redirectURI),
            let components = URLComponents(url: callback, resolvingAgainstBaseURL: false)
        else { return false }
        let states = (components.queryItems ?? []).filter { $0.name == "state" }
        return states.count == 1 && Self.constantTimeEquals(states[0].value ?? "", state)
    }

    private static func sameEndpoint(_ callback: URL, _ expected: URL) -> Bool {
        guard callback.scheme?.lowercased() == expected.scheme?.lowercased(),
            callback.host?.lowercased() == expected.host?.lowercased(),
            callback.user == nil, callback.password == nil
        else { return false }
        let expectedPath = expected.path.isEmpty ? "/" : expected.path
        let callbackPath = callback.path.isEmpty ? "/" : callback.path
        guard callbackPath == expectedPath else { return false }
        // RFC 8252 §7.3: a loopback redirect URI registered without a port matches any port.
        let loopback = ["127.0.0.1", "::1", "[::1]", "localhost"].contains(expected.host?.lowercased() ?? "")
        return (loopback && expected.port == nil) || callback.port == expected.port
    }

    private static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func failed(_ reason: String) -> LatchkeyClientError {
        LatchkeyClientError(.authorizationFailed, reasons: [reason])
    }
}

/// Whether an ``AuthorizationRequest`` has been answered: claimed once, by the first callback
/// that passes every check. `Mutex` would need iOS 18, so an `NSLock` guards the flag.
private final class AnswerLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var answered = false

    /// True the first time, false ever after.
    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !answered else { return false }
        answered = true
        return true
    }
}
