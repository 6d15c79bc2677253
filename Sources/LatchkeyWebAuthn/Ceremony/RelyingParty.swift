package import Foundation
import LatchkeyCrypto

/// The relying party a ceremony is verified for: its RP ID, the exact origins its pages and
/// apps run at, and the credential algorithms it accepts.
package struct RelyingParty: Sendable {
    /// The RP ID: a registrable domain suffix of the origins' hosts, such as `example.com`
    /// (no scheme, no port). Credentials are scoped to it.
    package let id: String
    /// The origins a ceremony may run at, compared exactly with the client data's `origin`:
    /// `https://example.com`, `https://login.example.com:8443`, and for an Android app
    /// `android:apk-key-hash:…`. An iOS app's system UI reports the associated domain's
    /// `https://` origin.
    package let origins: Set<String>
    /// The credential algorithms accepted, in order of preference (the order registration
    /// options will offer them in).
    package let algorithms: [COSEAlgorithm]
    /// SHA-256 of ``id``, which authenticator data must carry.
    package let idHash: Data

    /// A relying party with the RP ID `id`, the `origins` ceremonies may run at, and the
    /// `algorithms` accepted (by default ES256, EdDSA and RS256, in that order).
    package init(id: String, origins: Set<String>, algorithms: [COSEAlgorithm] = [.es256, .edDSA, .rs256]) {
        self.id = id
        self.origins = origins
        self.algorithms = algorithms
        idHash = SHA256.hash(utf8: id)
    }
}
