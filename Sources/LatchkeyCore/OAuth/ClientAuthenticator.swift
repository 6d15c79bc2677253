import Foundation
import LatchkeyCrypto

/// Identifies the client calling the token, revocation and introspection endpoints
/// (RFC 6749 §2.3): confidential clients with `client_secret_basic` or
/// `client_secret_post`, public clients by `client_id` alone.
///
/// Promises: a confidential client never gets through without its secret; using two
/// methods at once is refused; every failure is the same `invalid_client`.
package struct ClientAuthenticator: Sendable {
    /// A client that identified itself, and how.
    package struct Caller: Sendable {
        /// The client.
        package let client: OAuthClient
        /// Whether it proved itself with its secret (a confidential client).
        package let authenticated: Bool
    }

    private let clients: ClientRegistry

    /// An authenticator over the registered `clients`.
    package init(clients: ClientRegistry) {
        self.clients = clients
    }

    /// Whether the `Authorization` header value is HTTP Basic authentication (so a 401
    /// carries the Basic challenge).
    package static func usesBasic(authorization: String?) -> Bool {
        authorization?.lowercased().hasPrefix("basic ") ?? false
    }

    /// The calling client. Throws `invalid_client` when no client is named, for an unknown
    /// client, a wrong or missing secret of a confidential client, or a secret sent to a
    /// public client; `invalid_request` when two methods are used.
    /// `authorization` is the request's `Authorization` header, `form` its parameters.
    package func caller(authorization: String?, form: FormParameters) throws -> Caller {
        let bodyID = try form.optional("client_id", maxLength: 64)
        let bodySecret = try form.optionalSecret("client_secret", maxLength: ClientRegistry.maximumSecretLength)
        if let header = authorization, Self.usesBasic(authorization: header) {
            guard bodySecret == nil else {
                throw LatchkeyError(.invalidRequest, "Use one client authentication method, not two.")
            }
            let (id, secret) = try Self.basicCredentials(header)
            if let bodyID, bodyID != id { throw Self.invalidClient }
            guard let client = try clients.authenticate(id: id, secret: secret) else { throw Self.invalidClient }
            return Caller(client: client, authenticated: true)
        }
        guard let bodyID else { throw Self.invalidClient }
        if let bodySecret {
            guard let client = try clients.authenticate(id: bodyID, secret: bodySecret) else { throw Self.invalidClient }
            return Caller(client: client, authenticated: true)
        }
        guard (try? ClientRegistry.checkID(bodyID)) != nil, let client = try clients.client(id: bodyID), !client.isConfidential
        else { throw Self.invalidClient }
        return Caller(client: client, authenticated: false)
    }

    /// The id and secret of an `Authorization: Basic` header, each form-url-decoded (RFC 6749 §2.3.1).
    private static func basicCredentials(_ header: String) throws -> (String, Redacted<String>) {
        let encoded = header.dropFirst("basic ".count).trimmingCharacters(in: .whitespaces)
        guard encoded.utf8.count <= 1024, let data = Data(base64Encoded: encoded), let decoded = String(data: data, encoding: .utf8),
            let colon = decoded.firstIndex(of: ":"),
            let id = FormParameters.decode(urlencoded: "id=" + decoded[..<colon])?.first?.value,
            let secret = FormParameters.decode(urlencoded: "s=" + decoded[decoded.index(after: colon)...])?.first?.value
        else { throw invalidClient }
        return (id, Redacted(secret))
    }

    package static let invalidClient = LatchkeyError(.invalidClient, "Client authentication failed.")
}
