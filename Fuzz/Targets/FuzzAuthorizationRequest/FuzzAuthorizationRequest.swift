import Foundation
import LatchkeyCore
import LatchkeyFuzzSupport
import Synchronization

// An /oauth/authorize query (AuthorizationRequest.validate over FormParameters) against one
// registered client, and the Location an answer redirects to (redirectLocation). Properties:
// no answer ever redirects anywhere but a redirect URI the client registered (an error about
// the client or its redirect URI is a page, never a redirect); a valid request has a
// well-formed S256 challenge and only scopes the client may request; a redirect's Location
// holds no control character or space and carries the state back exactly.

/// The clients, in memory.
private final class MemoryClientStore: ClientStore {
    private let clients = Mutex<[String: OAuthClient]>([:])

    func createClient(_ client: OAuthClient) throws {
        clients.withLock { $0[client.id] = client }
    }

    func client(id: String) throws -> OAuthClient? { clients.withLock { $0[id] } }

    func allClients() throws -> [OAuthClient] { clients.withLock { Array($0.values) } }

    func deleteClient(id: String) throws -> Bool { clients.withLock { $0.removeValue(forKey: id) != nil } }

    func updateClient(_ client: OAuthClient) throws -> Bool {
        clients.withLock { $0.updateValue(client, forKey: client.id) != nil }
    }
}

private let registry: ClientRegistry = {
    let registry = ClientRegistry(store: MemoryClientStore())
    _ = try! registry.create(
        id: "app", redirectURIs: ["com.example.app:/oauth", "http://127.0.0.1/cb", "https://app.example.com/cb?x=1"],
        confidential: false, firstParty: false, scopes: ["profile"], now: Date(timeIntervalSince1970: 0))
    return registry
}()
private let client = try! registry.client(id: "app")!

/// The query of `location`, decoded, after the redirect URI it starts with.
private func query(of location: String, after redirectURI: String) -> [(name: String, value: String)]? {
    guard location.hasPrefix(redirectURI) else { return nil }
    let rest = location.dropFirst(redirectURI.count).dropFirst()
    return FormParameters.decode(urlencoded: rest)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAuthorizationRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let read = {
        guard let parameters = input.bytes.withUnsafeBytes({ FormParameters.decode(urlencoded: $0) }) else {
            throw LatchkeyError(.invalidRequest, "The query is not valid form encoding.")
        }
        return try FormParameters(parameters)
    }
    let validation: AuthorizationRequest.Validation
    do {
        validation = try AuthorizationRequest.validate(read, clients: registry)
    } catch {
        expect(false, "validate threw \(error) with an in-memory store")
        return 0
    }
    switch validation {
    case .untrusted(let error):
        expect(error.isClientError, "an untrusted request answered \(error.code)")
    case .valid(let request):
        expect(client.redirectURI(matching: request.redirectURI) != nil, "a valid request to an unregistered redirect URI")
        expect(PKCEChallenge.isWellFormed(request.codeChallenge), "a valid request with a malformed challenge")
        expect(request.scope.allSatisfy(client.requestableScopes.contains), "a valid request with a scope not allowed")
    case .redirect(let error):
        expect(client.redirectURI(matching: error.redirectURI) != nil, "an error redirected to an unregistered redirect URI")
        var parameters = [("error", error.error), ("error_description", error.description)]
        if let state = error.state { parameters.append(("state", state)) }
        let location = AuthorizationRequest.redirectLocation(error.redirectURI, parameters)
        expect(!location.utf8.contains { $0 <= 0x20 || $0 == 0x7F }, "a Location with a control character or space")
        let sent = query(of: location, after: error.redirectURI)
        expect(sent?.last(where: { $0.name == "state" })?.value == error.state, "the state does not come back as sent")
    }
    return 0
}
