import LatchkeyCore
package import LatchkeyCrypto
import Foundation

extension HTTPRequest {
    /// The longest bearer token read; a longer one is refused as `invalid_token` by whoever
    /// verifies it, never echoed.
    package static let maximumBearerTokenLength = 16 * 1024

    /// The access token a request to a protected resource presents (RFC 6750 §2): in the
    /// `Authorization: Bearer` header (§2.1), or as `access_token` in an
    /// `application/x-www-form-urlencoded` POST body (§2.2). Never from the query string
    /// (§2.3 is refused by RFC 9700 §4.3.2: URLs end up in logs and `Referer`).
    ///
    /// Throws `authentication_required` when the request presents no bearer token at all
    /// (also when its `Authorization` header uses another scheme), and `invalid_request` when
    /// it presents one in both places or in a malformed body (§3.1).
    package func bearerToken() throws -> Redacted<String> {
        var header: Redacted<String>?
        if let value = headers["Authorization"] {
            let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0].lowercased() == "bearer" {
                header = Redacted(parts.count == 2 ? String(parts[1]) : "")
            }
        }
        var body: Redacted<String>?
        if method == "POST", headers.contentTypeIs("application/x-www-form-urlencoded") {
            body = try FormParameters(body: self).optionalSecret("access_token", maxLength: Self.maximumBearerTokenLength)
        }
        switch (header, body) {
        case (let header?, nil): return header
        case (nil, let body?): return body
        case (.some, .some):
            throw LatchkeyError(.invalidRequest, "Present the access token in one place only.")
        case (nil, nil):
            throw LatchkeyError(.authenticationRequired, "This resource needs an access token.")
        }
    }
}
