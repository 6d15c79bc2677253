import Foundation
import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP

/// Authorization server metadata (RFC 8414) at `/.well-known/oauth-authorization-server`,
/// the same document at `/.well-known/openid-configuration`, and `GET`/`POST /userinfo`.
///
/// Promises: the metadata advertises exactly what is implemented (PKCE `S256` only, the
/// `code` response type, the two grants); `/userinfo` answers only to a valid access token
/// with the `openid` scope and tells nothing else (RFC 6750 errors).
struct OpenIDRoutes {
    let tokens: TokenService
    /// The public URL every endpoint is under.
    let issuer: String

    var routes: [Route] {
        var metadata = HTTPResponse.json(ServerMetadata(issuer: issuer))
        metadata.headers.set("Cache-Control", "public, max-age=3600")
        return [
            Route("GET", "/.well-known/oauth-authorization-server", name: "oauth_metadata", cacheable: true) { [metadata] _ in
                metadata
            },
            Route("GET", "/.well-known/openid-configuration", name: "openid_configuration", cacheable: true) { [metadata] _ in
                metadata
            },
            Route("GET", "/userinfo", name: "userinfo", errorShape: .bearer) { request in
                try userInfo(request)
            },
            // OpenID Connect Core §5.3.1: GET and POST; the token comes in the header either way.
            Route("POST", "/userinfo", name: "userinfo_post", body: .form, errorShape: .bearer) { request in
                try userInfo(request)
            },
        ]
    }

    private func userInfo(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("bearer ") else {
            throw LatchkeyError(.invalidToken, "The access token is invalid or expired.")
        }
        return .json(try tokens.userInfo(accessToken: Redacted(String(header.dropFirst("bearer ".count)))))
    }
}
