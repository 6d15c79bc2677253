import Foundation
import LatchkeyCrypto
@testable import LatchkeyCore
@testable import LatchkeyStorage
import Testing

/// `ClientRegistry.update`, as `latchkey clients update` uses it, on every store.
@Suite struct ClientRegistryUpdateTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Runs `body` with a registry on a fresh store of `factory`, kept until `body` returns.
    func withRegistry(_ factory: StoreFactory, _ body: (ClientRegistry, StoreFixture) throws -> Void) throws {
        let fixture = try factory.make()
        try withExtendedLifetime(fixture) { try body(ClientRegistry(store: try fixture.migratedStore()), fixture) }
    }

    @Test("a change of redirect URIs, scopes and name is stored and replaces what was there; the rest is kept", arguments: StoreFactory.all)
    func changesAreStored(factory: StoreFactory) throws {
        try withRegistry(factory) { registry, _ in
            let (created, _) = try registry.create(
                id: "ios.app", redirectURIs: ["com.example.app:/oauth"], confidential: false, firstParty: true,
                scopes: ["orders", "profile"], displayName: "Shop", scopeDescriptions: ["orders": "See your orders"], now: now)
            var changes = ClientRegistry.Changes()
            changes.redirectURIs = ["com.example.app:/callback", "com.example.app:/callback"]
            changes.scopes = ["profile"]
            changes.displayName = .some(nil)
            let (updated, secret) = try registry.update(id: "ios.app", changes: changes)
            #expect(secret == nil)
            #expect(updated.redirectURIs.map(\.value) == ["com.example.app:/callback"])
            #expect(updated.scopes == ["profile"])
            #expect(updated.displayName == nil)
            // A description of a scope the client may no longer request is dropped.
            #expect(updated.scopeDescriptions.isEmpty)
            #expect(updated.isFirstParty == created.isFirstParty && updated.createdAt == created.createdAt)
            #expect(try registry.client(id: "ios.app") == updated)
            #expect(updated.redirectURI(matching: "com.example.app:/oauth") == nil)
        }
    }

    @Test("a new secret for a confidential client works at once and the old one stops working", arguments: StoreFactory.all)
    func newSecretReplacesOld(factory: StoreFactory) throws {
        try withRegistry(factory) { registry, fixture in
            let (_, first) = try registry.create(
                id: "backend", redirectURIs: ["https://app.example.com/cb"], confidential: true, firstParty: false,
                scopes: [], now: now)
            let old = try #require(first)
            var changes = ClientRegistry.Changes()
            changes.newSecret = true
            let (updated, second) = try registry.update(id: "backend", changes: changes)
            let new = try #require(second)
            #expect(new.exposed != old.exposed)
            #expect(try registry.authenticate(id: "backend", secret: new) == updated)
            #expect(try registry.authenticate(id: "backend", secret: old) == nil)
            #expect(try fixture.integer("SELECT COUNT(*) AS value FROM oauth_clients WHERE secret_digest = '\(new.exposed)'") == 0)
        }
    }

    @Test("an update that changes nothing, empties the redirect URIs, asks a public client for a secret or names an unknown client is refused and stores nothing",
        arguments: StoreFactory.all)
    func refusedUpdates(factory: StoreFactory) throws {
        try withRegistry(factory) { registry, _ in
            let (created, _) = try registry.create(
                id: "ios.app", redirectURIs: ["com.example.app:/oauth"], confidential: false, firstParty: true,
                scopes: ["profile"], now: now)
            var empty = ClientRegistry.Changes()
            var noURIs = ClientRegistry.Changes()
            noURIs.redirectURIs = []
            var secret = ClientRegistry.Changes()
            secret.newSecret = true
            var badScope = ClientRegistry.Changes()
            badScope.scopes = ["two words"]
            var badURI = ClientRegistry.Changes()
            badURI.redirectURIs = ["https://example.com/cb#fragment"]
            for changes in [empty, noURIs, secret, badScope, badURI] {
                #expect(throws: LatchkeyError.self) { try registry.update(id: "ios.app", changes: changes) }
            }
            empty.displayName = .some("Shop")
            let error = #expect(throws: LatchkeyError.self) { try registry.update(id: "missing", changes: empty) }
            #expect(error?.code == .clientNotFound)
            #expect(try registry.client(id: "ios.app") == created)
        }
    }
}
