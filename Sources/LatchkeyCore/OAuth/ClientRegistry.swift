package import Foundation
package import LatchkeyCrypto
package import LatchkeyJOSE

/// Registers, authenticates, lists and deletes OAuth clients.
package struct ClientRegistry: Sendable {
    /// The longest client secret ``authenticate(id:secret:)`` looks at; longer ones never match.
    package static let maximumSecretLength = 256

    private let store: any ClientStore

    /// Creates the registry over `store`.
    package init(store: any ClientStore) {
        self.store = store
    }

    /// Registers a client. A confidential client gets a new secret (32 CSPRNG bytes as
    /// base64url), returned here once and stored only as its SHA-256 digest; a public client
    /// gets none. Its ID tokens are signed with `idTokenAlgorithm` (RS256, the OpenID Connect
    /// default, unless given). Duplicate redirect URIs and scopes are kept once.
    ///
    /// Only a confidential client may be a resource server that introspects (`introspect`).
    ///
    /// The consent and sign-in pages show `displayName` instead of the id, and for each scope
    /// its entry in `scopeDescriptions` (what the scope lets the client do) instead of its id.
    ///
    /// `postLogoutRedirectURIs` are where `/oauth/logout` may send the browser after signing it
    /// out; each is checked as a redirect URI is.
    ///
    /// Throws `invalid_request` for a bad id, no redirect URI, a bad scope, a public client
    /// that would introspect, a display name or description that is empty, too long (60 and
    /// 200 characters) or holds control or direction-changing characters, or a description
    /// of a scope the client may not request,
    /// `invalid_redirect_uri` for a redirect or post-logout redirect URI of a form not accepted (see ``RedirectURI``),
    /// and `client_exists` when the id is taken.
    package func create(
        id: String, redirectURIs: [String], confidential: Bool, firstParty: Bool, scopes: [String], introspect: Bool = false,
        idTokenAlgorithm: JWSAlgorithm = .rs256, displayName: String? = nil, scopeDescriptions: [String: String] = [:],
        postLogoutRedirectURIs: [String] = [], now: Date
    ) throws -> (client: OAuthClient, secret: Redacted<String>?) {
        try Self.checkID(id)
        guard confidential || !introspect else {
            throw LatchkeyError(.invalidRequest, "Only a confidential client may introspect tokens.")
        }
        guard !redirectURIs.isEmpty else {
            throw LatchkeyError(.invalidRequest, "A client needs at least one redirect URI.")
        }
        for scope in scopes where !Self.isScopeToken(scope) {
            throw LatchkeyError(.invalidRequest, "A scope must be 1 to 128 printable ASCII characters without spaces, quotes or backslashes.")
        }
        if let displayName { try Self.checkShownText(displayName, what: "A display name", maximumLength: 60) }
        let requestable = Set(scopes + AuthorizationRequest.standardScopes)
        for (scope, description) in scopeDescriptions.sorted(by: { $0.key < $1.key }) {
            guard requestable.contains(scope) else {
                throw LatchkeyError(.invalidRequest, "A scope description names a scope the client may not request: \(scope)")
            }
            try Self.checkShownText(description, what: "A scope description", maximumLength: 200)
        }
        let secret = confidential ? SecureRandom.token() : nil
        let client = OAuthClient(
            id: id, redirectURIs: Self.unique(try redirectURIs.map(Self.redirectURI)), isConfidential: confidential,
            secretDigest: secret.map { Self.digest($0.exposed) }, isFirstParty: firstParty, scopes: Self.unique(scopes),
            mayIntrospect: introspect, createdAt: now, idTokenAlgorithm: idTokenAlgorithm, displayName: displayName,
            scopeDescriptions: scopeDescriptions,
            postLogoutRedirectURIs: Self.unique(try postLogoutRedirectURIs.map(Self.redirectURI)))
        try store.createClient(client)
        return (client, secret)
    }

    /// What ``update(id:changes:)`` changes: each field left nil stays as it is.
    package struct Changes: Sendable {
        /// The redirect URIs, replacing every registered one (at least one).
        package var redirectURIs: [String]?
        /// The scopes the client may request besides the standard ones, replacing the registered ones.
        package var scopes: [String]?
        /// The display name; `.some(nil)` removes it.
        package var displayName: String??
        /// Where `/oauth/logout` may send the browser afterwards, replacing the registered ones
        /// (empty: nowhere).
        package var postLogoutRedirectURIs: [String]?
        /// Whether a confidential client gets a new secret (the old one stops working at once).
        package var newSecret = false

        /// Changes nothing until fields are set.
        package init() {}
    }

    /// Changes the client `id` as `changes` says, with the checks of ``create``: takes effect
    /// at once on every instance (the next authorization request or token call reads it);
    /// tokens already issued stay valid. A new secret (confidential clients only) is returned
    /// here once and stored as its digest; the old one is refused from now on. A scope
    /// description of a scope the client may no longer request is dropped. Throws
    /// `client_not_found`, `invalid_request` (no change asked for, no redirect URI, a bad
    /// scope or name, a new secret for a public client) or `invalid_redirect_uri`.
    package func update(id: String, changes: Changes) throws -> (client: OAuthClient, secret: Redacted<String>?) {
        guard let current = try store.client(id: id) else {
            throw LatchkeyError(.clientNotFound, "No client has the id \(id).")
        }
        guard changes.redirectURIs != nil || changes.scopes != nil || changes.displayName != nil || changes.newSecret
            || changes.postLogoutRedirectURIs != nil
        else {
            throw LatchkeyError(.invalidRequest, "Say what to change: redirect URIs, scopes, the name, the secret or the post-logout redirect URIs.")
        }
        if let redirectURIs = changes.redirectURIs, redirectURIs.isEmpty {
            throw LatchkeyError(.invalidRequest, "A client needs at least one redirect URI.")
        }
        for scope in changes.scopes ?? [] where !Self.isScopeToken(scope) {
            throw LatchkeyError(.invalidRequest, "A scope must be 1 to 128 printable ASCII characters without spaces, quotes or backslashes.")
        }
        if case .some(.some(let name)) = changes.displayName { try Self.checkShownText(name, what: "A display name", maximumLength: 60) }
        guard !changes.newSecret || current.isConfidential else {
            throw LatchkeyError(.invalidRequest, "A public client has no secret; only a confidential client gets a new one.")
        }
        let scopes = changes.scopes.map(Self.unique) ?? current.scopes
        let requestable = Set(scopes + AuthorizationRequest.standardScopes)
        let secret = changes.newSecret ? SecureRandom.token() : nil
        let client = OAuthClient(
            id: id, redirectURIs: try changes.redirectURIs.map { Self.unique(try $0.map(Self.redirectURI)) } ?? current.redirectURIs,
            isConfidential: current.isConfidential, secretDigest: secret.map { Self.digest($0.exposed) } ?? current.secretDigest,
            isFirstParty: current.isFirstParty, scopes: scopes, mayIntrospect: current.mayIntrospect, createdAt: current.createdAt,
            idTokenAlgorithm: current.idTokenAlgorithm, displayName: changes.displayName ?? current.displayName,
            scopeDescriptions: current.scopeDescriptions.filter { requestable.contains($0.key) },
            postLogoutRedirectURIs: try changes.postLogoutRedirectURIs.map { Self.unique(try $0.map(Self.redirectURI)) }
                ?? current.postLogoutRedirectURIs)
        guard try store.updateClient(client) else { throw LatchkeyError(.clientNotFound, "No client has the id \(id).") }
        return (client, secret)
    }

    /// The confidential client with this id if `secret` is its secret, else nil (also for
    /// an unknown id or a public client). The digests are compared in constant time.
    package func authenticate(id: String, secret: Redacted<String>) throws -> OAuthClient? {
        guard (try? Self.checkID(id)) != nil, secret.exposed.utf8.count <= Self.maximumSecretLength,
            let client = try store.client(id: id), client.isConfidential, let stored = client.secretDigest
        else { return nil }
        return ConstantTime.equals(Data(stored.utf8), Data(Self.digest(secret.exposed).utf8)) ? client : nil
    }

    /// The client with this id, if any.
    package func client(id: String) throws -> OAuthClient? {
        try store.client(id: id)
    }

    /// Every client, oldest first.
    package func clients() throws -> [OAuthClient] {
        try store.allClients()
    }

    /// Deletes the client with this id. Throws `client_not_found` when there is none.
    package func delete(id: String) throws {
        guard try store.deleteClient(id: id) else {
            throw LatchkeyError(.clientNotFound, "No client has the id \(id).")
        }
    }

    /// `text` as a redirect URI; the error names the URI when it is short enough to quote.
    private static func redirectURI(_ text: String) throws -> RedirectURI {
        do {
            return try RedirectURI(text)
        } catch let error as LatchkeyError where text.utf8.count <= 200 {
            throw LatchkeyError(error.code, "\(error.message) Rejected: \(text)", reasons: error.reasons, detail: error.detail)
        }
    }

    /// Throws `invalid_request` unless `id` is 1–64 characters of `A–Z a–z 0–9 . _ -`.
    static func checkID(_ id: String) throws {
        let valid = (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
        guard valid else {
            throw LatchkeyError(.invalidRequest, "A client id must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' and '-'.")
        }
    }

    /// Throws `invalid_request` unless `text` is 1 to `maximumLength` characters, without
    /// surrounding spaces, control characters, line separators, or characters that change the
    /// direction of the text around them (which could make a page say something else).
    private static func checkShownText(_ text: String, what: String, maximumLength: Int) throws {
        let acceptable = (1...maximumLength).contains(text.count)
            && text == text.trimmingCharacters(in: .whitespaces)
            && !text.unicodeScalars.contains(where: \.isLayoutControl)
        guard acceptable else {
            throw LatchkeyError(
                .invalidRequest,
                "\(what) must be 1 to \(maximumLength) characters on one line, without control or text-direction characters.")
        }
    }

    /// Whether `scope` is an RFC 6749 §3.3 scope token of at most 128 characters.
    private static func isScopeToken(_ scope: String) -> Bool {
        (1...128).contains(scope.utf8.count)
            && scope.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }

    /// SHA-256 of `secret`'s UTF-8 bytes as lowercase hex, as stored in ``OAuthClient/secretDigest``.
    static func digest(_ secret: String) -> String {
        Hex.encode(SHA256.hash(utf8: secret))
    }

    private static func unique<Element: Hashable>(_ elements: [Element]) -> [Element] {
        var seen: Set<Element> = []
        return elements.filter { seen.insert($0).inserted }
    }
}
