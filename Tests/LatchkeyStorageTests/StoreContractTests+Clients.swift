import Foundation
import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyJOSE
import LatchkeyTestSupport
import Testing

/// The store contract's OAuth clients.
extension StoreContractTests {
    @Test("a client is read back exactly as created, and listed oldest first", arguments: StoreFactory.all)
    func clientRoundTrip(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let confidential = try oauthClient(
            "server", ["https://app.example.com/cb", "http://127.0.0.1/cb"], secretDigest: StorageEncoding.hex(randomDigest()),
            firstParty: true, scopes: ["openid", "profile"], idTokenAlgorithm: .edDSA, createdAt: fixture.clock.now())
        fixture.clock.advance(by: 1)
        let publicClient = try oauthClient("ios-app", ["com.example.app:/oauth"], createdAt: fixture.clock.now())
        try store.createClient(confidential)
        try store.createClient(publicClient)
        #expect(try store.client(id: "server") == confidential)
        #expect(try fixture.openAnother().client(id: "ios-app") == publicClient)
        #expect(try store.client(id: "nobody") == nil)
        #expect(try store.allClients() == [confidential, publicClient])
    }

    @Test("a client's display name and scope descriptions (any script, quotes, emoji) are read back exactly",
          arguments: StoreFactory.all)
    func clientDisplayTexts(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let named = OAuthClient(
            id: "notes", redirectURIs: [try RedirectURI("https://notes.example/cb")], isConfidential: false, secretDigest: nil,
            isFirstParty: false, scopes: ["notes.read", "notes.write"], createdAt: fixture.clock.now(), idTokenAlgorithm: .rs256,
            displayName: "ملاحظات \"Acme\" 📝",
            scopeDescriptions: ["notes.read": "Read your notes", "notes.write": "Écrire « vos » notes", "email": "See it's you"])
        try store.createClient(named)
        #expect(try fixture.openAnother().client(id: "notes") == named)
        let plain = try oauthClient("plain", ["https://plain.example/cb"], createdAt: fixture.clock.now())
        try store.createClient(plain)
        let readBack = try #require(try store.client(id: "plain"))
        #expect(readBack.displayName == nil && readBack.scopeDescriptions.isEmpty && readBack.shownName == "plain")
    }

    @Test("a second client with a taken id is refused with client_exists", arguments: StoreFactory.all)
    func duplicateClient(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let first = try oauthClient("app", ["https://a.example/cb"], createdAt: fixture.clock.now())
        try store.createClient(first)
        let error = try #require(throws: LatchkeyError.self) {
            try store.createClient(try oauthClient("app", ["https://b.example/cb"], createdAt: fixture.clock.now()))
        }
        #expect(error.code == .clientExists)
        #expect(try store.allClients() == [first])
    }

    @Test("deleting a client removes only it and reports whether it existed", arguments: StoreFactory.all)
    func deleteClient(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        let keep = try oauthClient("keep", ["https://a.example/cb"], createdAt: fixture.clock.now())
        try store.createClient(keep)
        try store.createClient(try oauthClient("gone", ["https://b.example/cb"], createdAt: fixture.clock.now()))
        #expect(try store.deleteClient(id: "gone"))
        #expect(try !store.deleteClient(id: "gone"))
        #expect(try store.client(id: "gone") == nil)
        #expect(try store.allClients() == [keep])
    }

    @Test("the schema refuses a confidential client without a secret digest", arguments: StoreFactory.all)
    func confidentialNeedsDigest(factory: StoreFactory) throws {
        let fixture = try factory.make()
        _ = try fixture.migratedStore()
        #expect(throws: (any Error).self) {
            try fixture.execute(
                """
                INSERT INTO oauth_clients (id, redirect_uris, confidential, secret_digest, first_party, scopes, created_at)
                VALUES ('x', '["https://a.example/cb"]', 1, NULL, 0, '', 0)
                """)
        }
    }

    @Test("a client row written without an ID token algorithm (registered before migration 8) reads as ES256; others are refused",
          arguments: StoreFactory.all)
    func clientIDTokenAlgorithm(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        try fixture.execute(
            """
            INSERT INTO oauth_clients (id, redirect_uris, confidential, secret_digest, first_party, scopes, created_at)
            VALUES ('old', '["https://a.example/cb"]', 0, NULL, 0, '', 0)
            """)
        #expect(try store.client(id: "old")?.idTokenAlgorithm == .es256)
        #expect(throws: (any Error).self) {
            try fixture.execute(
                """
                INSERT INTO oauth_clients (id, redirect_uris, confidential, secret_digest, first_party, scopes, created_at, id_token_alg)
                VALUES ('x', '["https://a.example/cb"]', 0, NULL, 0, '', 0, 'HS256')
                """)
        }
    }

    // MARK: Helpers

    /// A client value; confidential when it has a secret digest.
    private func oauthClient(
        _ id: String, _ redirectURIs: [String], secretDigest: String? = nil, firstParty: Bool = false,
        scopes: [String] = [], idTokenAlgorithm: JWSAlgorithm = .rs256, createdAt: Date
    ) throws -> OAuthClient {
        OAuthClient(
            id: id, redirectURIs: try redirectURIs.map(RedirectURI.init), isConfidential: secretDigest != nil,
            secretDigest: secretDigest, isFirstParty: firstParty, scopes: scopes, createdAt: createdAt,
            idTokenAlgorithm: idTokenAlgorithm)
    }
}
