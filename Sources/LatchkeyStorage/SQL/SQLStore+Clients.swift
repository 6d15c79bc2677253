import LatchkeyCore
import LatchkeyJOSE
import Foundation

extension SQLStore {
    package func createClient(_ client: OAuthClient) throws {
        let redirectURIs = String(decoding: try JSONEncoder().encode(client.redirectURIs.map(\.value)), as: UTF8.self)
        let postLogoutRedirectURIs = String(
            decoding: try JSONEncoder().encode(client.postLogoutRedirectURIs.map(\.value)), as: UTF8.self)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let scopeDescriptions = String(decoding: try encoder.encode(client.scopeDescriptions), as: UTF8.self)
        let inserted = try database.transaction { connection in
            // ON CONFLICT makes the check and the insert one step, so racing servers cannot both take the id.
            try connection.execute(
                """
                INSERT INTO oauth_clients (id, redirect_uris, confidential, secret_digest, first_party, scopes, may_introspect,
                                           created_at, id_token_alg, display_name, scope_descriptions, post_logout_redirect_uris)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """,
                [
                    .text(client.id), .text(redirectURIs), .integer(client.isConfidential ? 1 : 0),
                    .text(client.secretDigest), .integer(client.isFirstParty ? 1 : 0),
                    .text(client.scopes.joined(separator: " ")), .integer(client.mayIntrospect ? 1 : 0),
                    .integer(StorageEncoding.milliseconds(client.createdAt)), .text(client.idTokenAlgorithm.rawValue),
                    .text(client.displayName), .text(scopeDescriptions), .text(postLogoutRedirectURIs),
                ])
        }
        guard inserted == 1 else {
            throw LatchkeyError(.clientExists, "A client with the id \(client.id) already exists.")
        }
    }

    package func client(id: String) throws -> OAuthClient? {
        try clients(where: "id = ?", [.text(id)]).first
    }

    package func allClients() throws -> [OAuthClient] {
        try clients(where: "TRUE", [])
    }

    package func updateClient(_ client: OAuthClient) throws -> Bool {
        let redirectURIs = String(decoding: try JSONEncoder().encode(client.redirectURIs.map(\.value)), as: UTF8.self)
        let postLogoutRedirectURIs = String(
            decoding: try JSONEncoder().encode(client.postLogoutRedirectURIs.map(\.value)), as: UTF8.self)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let scopeDescriptions = String(decoding: try encoder.encode(client.scopeDescriptions), as: UTF8.self)
        return try database.transaction { connection in
            try connection.execute(
                """
                UPDATE oauth_clients SET redirect_uris = ?, secret_digest = ?, scopes = ?, display_name = ?, scope_descriptions = ?,
                                         post_logout_redirect_uris = ?
                WHERE id = ?
                """,
                [
                    .text(redirectURIs), .text(client.secretDigest), .text(client.scopes.joined(separator: " ")),
                    .text(client.displayName), .text(scopeDescriptions), .text(postLogoutRedirectURIs), .text(client.id),
                ])
        } > 0
    }

    package func deleteClient(id: String) throws -> Bool {
        try database.transaction { connection in
            try connection.execute("DELETE FROM oauth_clients WHERE id = ?", [.text(id)])
        } > 0
    }

    /// The clients matching `condition`, oldest first (ids compared byte by byte).
    private func clients(where condition: String, _ values: [SQLValue]) throws -> [OAuthClient] {
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT id, redirect_uris, confidential, secret_digest, first_party, scopes, may_introspect, created_at,
                       id_token_alg, display_name, scope_descriptions, post_logout_redirect_uris
                FROM oauth_clients WHERE \(condition) ORDER BY created_at, id \(database.dialect.byteOrder)
                """, values)
        }
        return try rows.map(Self.client(from:))
    }

    /// The client in a row of `oauth_clients`.
    private static func client(from row: any SQLRow) throws -> OAuthClient {
        let columns = try clientColumnMemo.columns(
            redirectURIs: try row.text("redirect_uris"), scopeDescriptions: try row.text("scope_descriptions"),
            postLogoutRedirectURIs: try row.text("post_logout_redirect_uris"), decode: decodeClientColumns)
        let scopes = try row.text("scopes")
        guard let idTokenAlgorithm = JWSAlgorithm(rawValue: try row.text("id_token_alg")) else {
            throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "client id_token_alg")
        }
        return OAuthClient(
            id: try row.text("id"),
            redirectURIs: columns.redirectURIs,
            isConfidential: try row.integer("confidential") == 1,
            secretDigest: try row.optionalText("secret_digest"),
            isFirstParty: try row.integer("first_party") == 1,
            scopes: scopes.split(separator: " ").map(String.init),
            mayIntrospect: try row.integer("may_introspect") == 1,
            createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")), idTokenAlgorithm: idTokenAlgorithm,
            displayName: try row.optionalText("display_name"), scopeDescriptions: columns.scopeDescriptions,
            postLogoutRedirectURIs: columns.postLogoutRedirectURIs)
    }

    /// The JSON columns of a client row, decoded: the redirect URIs and post-logout redirect
    /// URIs (each checked again as when it was registered) and the scope descriptions.
    private static func decodeClientColumns(
        redirectURIs: String, scopeDescriptions: String, postLogoutRedirectURIs: String
    ) throws -> ClientColumnMemo.Columns {
        do {
            return ClientColumnMemo.Columns(
                redirectURIs: try JSONDecoder().decode([String].self, from: Data(redirectURIs.utf8)).map(RedirectURI.init),
                scopeDescriptions: try JSONDecoder().decode([String: String].self, from: Data(scopeDescriptions.utf8)),
                postLogoutRedirectURIs: try JSONDecoder().decode([String].self, from: Data(postLogoutRedirectURIs.utf8))
                    .map(RedirectURI.init))
        } catch {
            throw LatchkeyError(
                .storage, "The database holds unexpected data.",
                detail: "client redirect_uris, scope_descriptions or post_logout_redirect_uris: \(error)")
        }
    }
}

/// The decoded JSON columns of the client rows read, one memo for every store of the process:
/// what it remembers depends on the stored text only (see ``ClientColumnMemo``).
private let clientColumnMemo = ClientColumnMemo()
