/// A validated `/oauth/logout` request (OpenID Connect RP-Initiated Logout 1.0 §2–§4): which
/// client asks, where the browser goes afterwards, and whom the app says is signing out.
///
/// Promises: the client is the audience of a verified `id_token_hint`, else the one `client_id`
/// names, and both must agree when both are given; a `post_logout_redirect_uri` is kept only
/// when it matches one the client registered (as redirect URIs are matched), and needs a
/// client to be checked against. Each of these problems, and a malformed, oversized or repeated
/// parameter, is an `invalid_request` for an error page: a logout request is never answered
/// with a redirect that was not checked. A hint that does not verify is not used (the person
/// is asked instead, as without one), never an error: an app's sign-out must still work when
/// the key that signed its ID token has been retired since.
package struct LogoutRequest: Sendable {
    /// The client the request comes from, when it is known.
    package let client: OAuthClient?
    /// Where to send the browser after signing out: registered for ``client``.
    package let postLogoutRedirectURI: String?
    /// The client's `state`, echoed with the redirect.
    package let state: String?
    /// The `ui_locales` preference.
    package let uiLocales: String?
    /// The verified `id_token_hint`: whom the app says is signing out.
    package let hint: TokenService.IDTokenHint?
    /// Whether an `id_token_hint` was given but did not verify (so ``hint`` is nil), for the logs.
    package let hintRejected: Bool

    /// The longest `id_token_hint` looked at.
    package static let maximumHintLength = 16 * 1024

    /// Validates the logout parameters `parameters` (from the query, a form-encoded body, or the
    /// confirmation form's hidden fields) against the registered clients, verifying the hint
    /// with `tokens`. Throws `invalid_request` for what must be an error page.
    package static func validate(_ parameters: FormParameters, clients: ClientRegistry, tokens: TokenService) throws -> LogoutRequest {
        try parameters.checkNoneRepeated()
        let hintText = try parameters.optionalSecret("id_token_hint", maxLength: maximumHintLength)
        let clientID = try parameters.optional("client_id", maxLength: 64)
        let requestedRedirect = try parameters.optional("post_logout_redirect_uri", maxLength: RedirectURI.maximumLength)
        let state = try parameters.optional("state", maxLength: 1024)
        let uiLocales = try parameters.optional("ui_locales", maxLength: 64)
        _ = try parameters.optional("logout_hint", maxLength: 320)

        // A hint counts only when this server issued it to a client that still exists.
        var hint: TokenService.IDTokenHint?
        var hintClient: OAuthClient?
        if let hintText, let verified = tokens.idTokenHint(hintText), let client = try clients.client(id: verified.clientID) {
            hint = verified
            hintClient = client
        }
        var client = hintClient
        if let clientID {
            if let hint {
                guard hint.clientID == clientID else {
                    throw LatchkeyError(.invalidRequest, "client_id is not the client the id_token_hint was issued to.")
                }
            } else {
                guard (try? ClientRegistry.checkID(clientID)) != nil, let named = try clients.client(id: clientID) else {
                    throw LatchkeyError(.invalidRequest, "The client is not registered.", cause: .unknownClient)
                }
                client = named
            }
        }
        if let requestedRedirect {
            guard let client else {
                throw LatchkeyError(.invalidRequest, "post_logout_redirect_uri needs an id_token_hint or a client_id.")
            }
            guard client.postLogoutRedirectURI(matching: requestedRedirect) != nil else {
                throw LatchkeyError(
                    .invalidRequest, "The post-logout redirect URI is not registered for this client.", cause: .unregisteredRedirectURI)
            }
        }
        return LogoutRequest(
            client: client, postLogoutRedirectURI: requestedRedirect, state: state, uiLocales: uiLocales, hint: hint,
            hintRejected: hintText != nil && hint == nil)
    }

    /// The parameters the confirmation form carries to recreate this request: the client by its
    /// id (already checked), never the hint.
    package var formFields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        if let client { fields.append(("client_id", client.id)) }
        if let postLogoutRedirectURI { fields.append(("post_logout_redirect_uri", postLogoutRedirectURI)) }
        if let state { fields.append(("state", state)) }
        if let uiLocales { fields.append(("ui_locales", uiLocales)) }
        return fields
    }

    /// Where to send the browser once it is signed out: the post-logout redirect URI with
    /// `state`, or nil for Latchkey's own "signed out" page.
    package var redirectLocation: String? {
        postLogoutRedirectURI.map { uri in
            state.map { AuthorizationRequest.redirectLocation(uri, [("state", $0)]) } ?? uri
        }
    }
}
