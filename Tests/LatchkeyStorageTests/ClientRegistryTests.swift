import Foundation
import LatchkeyCrypto
@testable import LatchkeyCore
@testable import LatchkeyStorage
import Testing

@Suite struct ClientRegistryTests {
    let fixture: StoreFixture
    let registry: ClientRegistry
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        fixture = try StoreFactory.sqlite.make()
        registry = ClientRegistry(store: try fixture.migratedStore())
    }

    @Test("a confidential client gets a 256-bit secret; only its SHA-256 is stored")
    func confidentialSecretIsHashed() throws {
        let (client, secret) = try registry.create(
            id: "backend", redirectURIs: ["https://app.example.com/cb"], confidential: true, firstParty: false,
            scopes: ["openid", "profile"], now: now)
        let value = try #require(secret).exposed
        #expect(value.count == 43)
        #expect(Base64URL.decode(value)?.count == 32)
        #expect(client.secretDigest == StorageEncoding.hex(SHA256.hash(Data(value.utf8))))
        #expect(client.secretDigest != value)
        let stored = try #require(try registry.client(id: "backend"))
        #expect(stored == client)
        #expect(try fixture.integer("SELECT COUNT(*) AS value FROM oauth_clients WHERE secret_digest = '\(value)'") == 0)
    }

    @Test("the right secret authenticates a confidential client; a wrong one or an unknown id does not")
    func authenticate() throws {
        let (client, secret) = try registry.create(
            id: "backend", redirectURIs: ["https://app.example.com/cb"], confidential: true, firstParty: true, scopes: [],
            now: now)
        let value = try #require(secret)
        #expect(try registry.authenticate(id: "backend", secret: value) == client)
        #expect(try registry.authenticate(id: "backend", secret: Redacted(value.exposed + "x")) == nil)
        #expect(try registry.authenticate(id: "backend", secret: Redacted(String(value.exposed.dropLast()))) == nil)
        #expect(try registry.authenticate(id: "backend", secret: Redacted("")) == nil)
        #expect(try registry.authenticate(id: "backend", secret: Redacted(String(repeating: "a", count: 10_000))) == nil)
        #expect(try registry.authenticate(id: "other", secret: value) == nil)
        #expect(try registry.authenticate(id: "bad id!", secret: value) == nil)
    }

    @Test("a public client has no secret and never authenticates with one")
    func publicClient() throws {
        let (client, secret) = try registry.create(
            id: "ios.app", redirectURIs: ["com.example.app:/oauth", "http://127.0.0.1/cb"], confidential: false,
            firstParty: true, scopes: ["openid"], now: now)
        #expect(secret == nil)
        #expect(client.secretDigest == nil)
        #expect(!client.isConfidential)
        #expect(try registry.authenticate(id: "ios.app", secret: Redacted("")) == nil)
        #expect(try registry.authenticate(id: "ios.app", secret: SecureRandom.token()) == nil)
        #expect(client.redirectURI(matching: "http://127.0.0.1:4000/cb")?.value == "http://127.0.0.1/cb")
        #expect(client.redirectURI(matching: "com.example.app:/other") == nil)
    }

    @Test("client ids are 1-64 characters of A-Z a-z 0-9 . _ -", arguments: ["", "a b", "a/b", "é", String(repeating: "a", count: 65)])
    func invalidIDs(id: String) {
        let error = #expect(throws: LatchkeyError.self) {
            try registry.create(id: id, redirectURIs: ["https://a.example/cb"], confidential: false, firstParty: false, scopes: [], now: now)
        }
        #expect(error?.code == .invalidRequest)
    }

    @Test("a display name and scope descriptions are kept for the consent page")
    func displayTexts() throws {
        let (client, _) = try registry.create(
            id: "notes", redirectURIs: ["https://notes.example/cb"], confidential: false, firstParty: false,
            scopes: ["notes.read"], displayName: "Acme Notes",
            scopeDescriptions: ["notes.read": "Read your notes", "email": "See your address"], now: now)
        #expect(client.shownName == "Acme Notes")
        #expect(try registry.client(id: "notes")?.scopeDescriptions == ["notes.read": "Read your notes", "email": "See your address"])
    }

    @Test("a display name or description that is empty, too long, multi-line or turns text around is refused",
          arguments: ["", " Acme", String(repeating: "a", count: 61), "Acme\nNotes", "Acme\u{202E}setoN", "\u{2067}Acme"])
    func badDisplayNames(name: String) throws {
        let error = #expect(throws: LatchkeyError.self) {
            try registry.create(
                id: "notes", redirectURIs: ["https://notes.example/cb"], confidential: false, firstParty: false, scopes: [],
                displayName: name, now: now)
        }
        #expect(error?.code == .invalidRequest)
        let described = #expect(throws: LatchkeyError.self) {
            try registry.create(
                id: "notes", redirectURIs: ["https://notes.example/cb"], confidential: false, firstParty: false, scopes: ["notes.read"],
                scopeDescriptions: ["notes.read": name.count > 60 ? String(repeating: "a", count: 201) : name], now: now)
        }
        #expect(described?.code == .invalidRequest)
        #expect(try registry.clients().isEmpty)
    }

    @Test("a description of a scope the client may not request is refused, naming the scope")
    func descriptionOfUnknownScope() throws {
        let error = #expect(throws: LatchkeyError.self) {
            try registry.create(
                id: "notes", redirectURIs: ["https://notes.example/cb"], confidential: false, firstParty: false, scopes: ["notes.read"],
                scopeDescriptions: ["notes.write": "Change your notes"], now: now)
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.hasSuffix("notes.write") == true)
    }

    @Test("a client needs a redirect URI, valid ones, and valid scopes; nothing is stored otherwise")
    func invalidRegistrations() throws {
        let noURI = #expect(throws: LatchkeyError.self) {
            try registry.create(id: "a", redirectURIs: [], confidential: false, firstParty: false, scopes: [], now: now)
        }
        #expect(noURI?.code == .invalidRequest)
        let badURI = #expect(throws: LatchkeyError.self) {
            try registry.create(
                id: "a", redirectURIs: ["https://ok.example/cb", "http://localhost/cb"], confidential: false,
                firstParty: false, scopes: [], now: now)
        }
        #expect(badURI?.code == .invalidRedirectURI)
        #expect(badURI?.message.contains("localhost") == true)
        #expect(badURI?.message.hasSuffix("Rejected: http://localhost/cb") == true)
        let badScope = #expect(throws: LatchkeyError.self) {
            try registry.create(
                id: "a", redirectURIs: ["https://ok.example/cb"], confidential: false, firstParty: false,
                scopes: ["two words"], now: now)
        }
        #expect(badScope?.code == .invalidRequest)
        #expect(try registry.clients().isEmpty)
    }

    @Test("a taken id is refused with client_exists; delete removes a client once")
    func duplicateAndDelete() throws {
        _ = try registry.create(id: "app", redirectURIs: ["https://a.example/cb"], confidential: false, firstParty: false, scopes: [], now: now)
        let error = #expect(throws: LatchkeyError.self) {
            try registry.create(id: "app", redirectURIs: ["https://b.example/cb"], confidential: true, firstParty: false, scopes: [], now: now)
        }
        #expect(error?.code == .clientExists)
        try registry.delete(id: "app")
        #expect(try registry.clients().isEmpty)
        let missing = #expect(throws: LatchkeyError.self) { try registry.delete(id: "app") }
        #expect(missing?.code == .clientNotFound)
    }
}
