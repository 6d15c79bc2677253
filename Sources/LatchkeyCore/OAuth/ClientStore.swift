import Foundation

/// Registered OAuth clients.
package protocol ClientStore: Sendable {
    /// Inserts a new client. Throws `client_exists` when the id is taken.
    func createClient(_ client: OAuthClient) throws
    /// The client with this id, if any.
    func client(id: String) throws -> OAuthClient?
    /// Every client, oldest first.
    func allClients() throws -> [OAuthClient]
    /// Deletes the client with this id; false when there is none.
    func deleteClient(id: String) throws -> Bool
    /// Stores `client`'s redirect URIs, scopes, secret digest, display name, scope
    /// descriptions and post-logout redirect URIs over those of the client with its id; false
    /// when there is none.
    func updateClient(_ client: OAuthClient) throws -> Bool
}
