import Foundation
import LatchkeyClient

/// What `latchkey login` remembers next to the tokens (`client.json`, mode 0600, in the
/// token store's directory) so that `latchkey token` and `logout` can refresh and revoke
/// without asking again: the issuer and either the OAuth client and its endpoints or
/// the first-party routes. Holds no secret.
struct ClientProfile: Codable, Equatable {
    static let fileName = "client.json"

    var issuer: String
    /// Nil for a first-party (`/auth/login`) session.
    var clientID: String?
    var authorizationEndpoint: String?
    var tokenEndpoint: String?
    var revocationEndpoint: String?

    private enum CodingKeys: String, CodingKey {
        case issuer
        case clientID = "client_id"
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
    }

    /// A profile for an OAuth session with `metadata`.
    init(clientID: String, metadata: AuthorizationServerMetadata) {
        issuer = metadata.issuer.absoluteString
        self.clientID = clientID
        authorizationEndpoint = metadata.authorizationEndpoint.absoluteString
        tokenEndpoint = metadata.tokenEndpoint.absoluteString
        revocationEndpoint = metadata.revocationEndpoint?.absoluteString
    }

    /// A profile for a first-party session with the server at `issuer`.
    init(firstPartyIssuer issuer: URL) {
        self.issuer = issuer.absoluteString
    }

    /// How the session renews and ends its tokens.
    func refresher() throws -> SessionRefresher {
        guard let issuerURL = URL(string: issuer) else { throw CommandFailure.failure("the saved sign-in is damaged; run `latchkey login` again") }
        guard let clientID else { return .firstParty(FirstPartyLogin(baseURL: issuerURL)) }
        guard let authorization = authorizationEndpoint.flatMap(URL.init(string:)),
            let token = tokenEndpoint.flatMap(URL.init(string:))
        else { throw CommandFailure.failure("the saved sign-in is damaged; run `latchkey login` again") }
        let metadata = try AuthorizationServerMetadata(
            issuer: issuerURL, authorizationEndpoint: authorization, tokenEndpoint: token,
            revocationEndpoint: revocationEndpoint.flatMap(URL.init(string:)))
        return .oauth(OAuthClient(issuer: issuerURL, clientID: clientID), metadata: metadata)
    }

    static func url(in store: FileTokenStore) -> URL { store.directory.appendingPathComponent(fileName) }

    /// The saved profile, or nil when none is saved.
    static func load(from store: FileTokenStore) throws -> ClientProfile? {
        guard let data = try? Data(contentsOf: url(in: store)) else { return nil }
        guard let profile = try? JSONDecoder().decode(ClientProfile.self, from: data) else {
            throw CommandFailure.failure("the saved sign-in is damaged; run `latchkey login` again")
        }
        return profile
    }

    /// Saves the profile atomically with mode 0600 (the directory exists once tokens are saved).
    func save(in store: FileTokenStore) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let url = Self.url(in: store)
        try encoder.encode(self).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    static func remove(from store: FileTokenStore) {
        try? FileManager.default.removeItem(at: url(in: store))
    }
}
