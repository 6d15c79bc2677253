package import Foundation
package import LatchkeyJOSE

/// An application registered to sign people in through the OAuth endpoints.
///
/// A public client (an iOS app) has no secret and proves itself with PKCE; a confidential
/// client (a server) also authenticates with a secret, of which only the SHA-256 digest is kept.
package struct OAuthClient: Sendable, Equatable {
    /// The `client_id`: 1–64 characters of `A–Z a–z 0–9 . _ -`, chosen by the operator.
    package let id: String
    /// The redirect URIs an authorization request may name, in registration order.
    package let redirectURIs: [RedirectURI]
    /// Whether the client has a secret and must authenticate at the token endpoint.
    package let isConfidential: Bool
    /// SHA-256 of the secret's UTF-8 bytes as 64 lowercase hex characters; nil for a public client.
    package let secretDigest: String?
    /// Whether the client belongs to the operator, so no consent page is shown.
    package let isFirstParty: Bool
    /// The scopes the client was registered with (`--scope`).
    package let scopes: [String]
    /// Every scope the client may request: the standard ones every client may ask for
    /// (``AuthorizationRequest/standardScopes``), then its registered ones.
    package var requestableScopes: [String] {
        AuthorizationRequest.standardScopes + scopes.filter { !AuthorizationRequest.standardScopes.contains($0) }
    }
    /// Whether the client is a resource server that may introspect tokens (RFC 7662 §4):
    /// only confidential clients registered with `--introspect`.
    package let mayIntrospect: Bool
    /// When the client was registered.
    package let createdAt: Date
    /// The algorithm its ID tokens are signed with (OpenID Connect Registration's
    /// `id_token_signed_response_alg`): RS256 unless registered otherwise.
    package let idTokenAlgorithm: JWSAlgorithm
    /// The name people know the client by, shown on the sign-in and consent pages instead of
    /// its id; nil shows the id.
    package let displayName: String?
    /// What each scope lets the client do, in the operator's words ("Read your calendar"),
    /// shown on the consent page instead of the scope's id.
    package let scopeDescriptions: [String: String]
    /// Where the browser may be sent after signing out at `/oauth/logout` (OpenID Connect
    /// RP-Initiated Logout's `post_logout_redirect_uris`), in registration order; empty: the
    /// sign-out ends on Latchkey's own "signed out" page.
    package let postLogoutRedirectURIs: [RedirectURI]

    /// Creates a client value; ``ClientRegistry`` validates the id and scopes.
    package init(
        id: String, redirectURIs: [RedirectURI], isConfidential: Bool, secretDigest: String?, isFirstParty: Bool,
        scopes: [String], mayIntrospect: Bool = false, createdAt: Date, idTokenAlgorithm: JWSAlgorithm,
        displayName: String? = nil, scopeDescriptions: [String: String] = [:], postLogoutRedirectURIs: [RedirectURI] = []
    ) {
        self.id = id
        self.redirectURIs = redirectURIs
        self.isConfidential = isConfidential
        self.secretDigest = secretDigest
        self.isFirstParty = isFirstParty
        self.scopes = scopes
        self.mayIntrospect = mayIntrospect
        self.createdAt = createdAt
        self.idTokenAlgorithm = idTokenAlgorithm
        self.displayName = displayName
        self.scopeDescriptions = scopeDescriptions
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
    }

    /// What the pages call the client: its display name, else its id.
    package var shownName: String { displayName ?? id }

    /// The registered redirect URI that `requested` matches (see ``RedirectURI/matches(_:)``), if any.
    package func redirectURI(matching requested: String) -> RedirectURI? {
        redirectURIs.first { $0.matches(requested) }
    }

    /// The registered post-logout redirect URI that `requested` matches, as redirect URIs are
    /// matched (see ``RedirectURI/matches(_:)``), if any.
    package func postLogoutRedirectURI(matching requested: String) -> RedirectURI? {
        postLogoutRedirectURIs.first { $0.matches(requested) }
    }
}
