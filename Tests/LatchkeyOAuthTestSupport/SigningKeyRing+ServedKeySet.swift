package import Foundation
package import LatchkeyCore
package import LatchkeyJOSE

extension SigningKeyRing {
    /// The key set `/.well-known/jwks.json` serves at `now`, decoded.
    package func servedKeySet(now: Date) throws -> JWKSet {
        try JSONDecoder().decode(JWKSet.self, from: publishedKeyDocument(now: now))
    }
}
