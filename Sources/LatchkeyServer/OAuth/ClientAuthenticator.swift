import Foundation
import LatchkeyCrypto

/// Identifies the client calling the token, revocation and introspection endpoints
/// (RFC 6749 §2.3): confidential clients with `client_secret_basic` or
/// `client_secret_post`, public clients by `client_id` alone.
///
/// Promises: a confidential client never gets through without its secret; using two
/// methods at once is refused; every failure is the same `invalid_client`.
struct ClientAuthenticator: Sendable {
    /// A client that identified itself, and how.
    struct Caller: Sendable {
        /// The client.
        let client: OAuthClient
        /// Whether it proved itself with its secret (a confidential client).
        let authenticated: Bool
    }

    let clients: ClientRegistry

    /// Whether the request used HTTP Basic authentication (so a 401 carries the Basic challenge).
    static func usesBasic(_ request: HTTPRequest) -> Bool {
        request.headers["Authorization"]?.lowercased().hasPrefix("basic ") ?? false
    }

    /// The calling client. Throws `invalid_client` for an unknown client, a wrong or missing
    /// secret of a confidential client, or a secret sent to a public client; `invalid_request`
    /// when no client is named or two methods are used.
    func caller(_ request: HTTPRequest, form: FormParameters) throws -> Caller {
        let bodyID = try form.optional("client_id", maxLength: 64)
        let bodySecret = try form.optionalSecret("client_secret", maxLength: ClientRegistry.maximumSecretLength)
        if let header = request.headers["Authorization"], Self.usesBasic(request) {
            guard bodySecret == nil else {
                throw LatchkeyError(.invalidRequest, "Use one client authentication method, not two.")
            }
            let (id, secret) = try Self.basicCredentials(header)
            if let bodyID, bodyID != id { throw Self.invalidClient }
            guard let client = try clients.authenticate(id: id, secret: secret) else { throw Self.invalidClient }
            return Caller(client: client, authenticated: true)
        }
        guard let bodyID else { throw LatchkeyError(.invalidRequest, "client_id is required.") }
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
            let id = RequestTarget.formParameters("id=" + decoded[..<colon])?.first?.value,
            let secret = RequestTarget.formParameters("s=" + decoded[decoded.index(after: colon)...])?.first?.value
        else { throw invalidClient }
        return (id, Redacted(secret))
    }

    static let invalidClient = LatchkeyError(.invalidClient, "Client authentication failed.")
}
