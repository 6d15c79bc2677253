import Foundation

extension SQLiteStore: ClientStore {
    public func createClient(_ client: OAuthClient) throws {
        let redirectURIs = String(decoding: try JSONEncoder().encode(client.redirectURIs.map(\.value)), as: UTF8.self)
        try database.transaction { connection in
            // Checked inside the write transaction, so no other writer can take the id in between.
            let taken = try connection.query("SELECT 1 AS taken FROM oauth_clients WHERE id = ?", [.text(client.id)])
            guard taken.isEmpty else {
                throw LatchkeyError(.clientExists, "A client with the id \(client.id) already exists.")
            }
            try connection.execute(
                """
                INSERT INTO oauth_clients (id, redirect_uris, confidential, secret_digest, first_party, scopes, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(client.id), .text(redirectURIs), .integer(client.isConfidential ? 1 : 0),
                    client.secretDigest.map(SQLiteValue.text) ?? .null, .integer(client.isFirstParty ? 1 : 0),
                    .text(client.scopes.joined(separator: " ")),
                    .integer(StorageEncoding.milliseconds(client.createdAt)),
                ])
        }
    }

    public func client(id: String) throws -> OAuthClient? {
        try clients(where: "id = ?", [.text(id)]).first
    }

    public func allClients() throws -> [OAuthClient] {
        try clients(where: "1 = 1", [])
    }

    public func deleteClient(id: String) throws -> Bool {
        try database.withConnection { connection in
            try connection.execute("DELETE FROM oauth_clients WHERE id = ?", [.text(id)])
        } > 0
    }

    /// The clients matching `condition`, oldest first.
    private func clients(where condition: String, _ values: [SQLiteValue]) throws -> [OAuthClient] {
        let rows = try database.withConnection { connection in
            try connection.query(
                """
                SELECT id, redirect_uris, confidential, secret_digest, first_party, scopes, created_at
                FROM oauth_clients WHERE \(condition) ORDER BY created_at, id
                """, values)
        }
        return try rows.map(Self.client(from:))
    }

    /// The client in a row of `oauth_clients`.
    private static func client(from row: SQLiteRow) throws -> OAuthClient {
        let redirectURIs: [RedirectURI]
        do {
            redirectURIs = try JSONDecoder().decode([String].self, from: Data(try row.text("redirect_uris").utf8))
                .map(RedirectURI.init)
        } catch {
            throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "client redirect_uris: \(error)")
        }
        let scopes = try row.text("scopes")
        return OAuthClient(
            id: try row.text("id"),
            redirectURIs: redirectURIs,
            isConfidential: try row.integer("confidential") == 1,
            secretDigest: try row.optionalText("secret_digest"),
            isFirstParty: try row.integer("first_party") == 1,
            scopes: scopes.split(separator: " ").map(String.init),
            createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")))
    }
}
