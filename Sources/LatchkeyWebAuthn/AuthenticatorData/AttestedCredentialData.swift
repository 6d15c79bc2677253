package import Foundation

/// The attested credential data a registration's authenticator data carries (§6.5.1): the
/// authenticator's model, the new credential's ID and its public key.
package struct AttestedCredentialData: Sendable {
    /// The most bytes a credential ID may have (§7.1: at most 1023).
    package static let maximumCredentialIDLength = 1023

    /// The AAGUID: 16 bytes naming the authenticator's model (all zero when `none`
    /// attestation hides it).
    package let aaguid: Data
    /// The credential ID, 1 to 1023 bytes.
    package let credentialID: Data
    /// The credential public key.
    package let publicKey: COSEKey
}
