import LatchkeyCore
import LatchkeyHTTP
import Foundation
import LatchkeyJOSE

/// `GET /.well-known/jwks.json`: the public keys that verify the server's tokens, so a
/// resource server can check an access token without calling back.
struct KeySetRoutes {
    let keyRing: SigningKeyRing
    let clock: any WallClock

    var routes: [Route] {
        let headers = HTTPHeaders([
            ("Content-Type", "application/jwk-set+json"),
            // Short enough that a rotated-in key is seen long before it signs
            // tokens that outlive the retired one.
            ("Cache-Control", "public, max-age=300"),
        ])
        return [
            // On the event thread: the document is encoded once per set of published keys,
            // memory-only and short.
            Route("GET", "/.well-known/jwks.json", name: "jwks", cacheable: true, lane: .eventThread) { [headers] _ in
                HTTPResponse(status: 200, headers: headers, body: try keyRing.publishedKeyDocument(now: clock.now()))
            },
        ]
    }
}
