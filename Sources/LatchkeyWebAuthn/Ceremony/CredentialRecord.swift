package import Foundation

/// What a registration leaves to be stored for a credential (W3C Web Authentication Level 3
/// §7.1, the credential record), and what an authentication verifies against.
package struct CredentialRecord: Sendable, Hashable {
    /// The credential ID: 1 to 1023 bytes, unique across all accounts (the store's to enforce).
    package let id: Data
    /// The credential public key as the authenticator encoded it (COSE_Key CBOR).
    package let publicKey: Data
    /// The key's algorithm.
    package let algorithm: COSEAlgorithm
    /// The signature counter last seen (0 for authenticators that keep none).
    package var signCount: UInt32
    /// Whether the credential was registered as backup eligible (BE): a synced, multi-device
    /// passkey. It never changes for a credential (§6.1.3).
    package let backupEligible: Bool
    /// Whether the credential was backed up (BS) when last used.
    package var backupState: Bool
    /// Whether the user was verified at registration (always true: Latchkey requires UV).
    package let userVerifiedAtRegistration: Bool
    /// The transports the client reported (`internal`, `hybrid`, `usb`, `nfc`, `ble`,
    /// `smart-card`, or one a later client names), to hand back in `allowCredentials`.
    package let transports: [String]
    /// The authenticator model's AAGUID (16 bytes; all zero when hidden).
    package let aaguid: Data
    /// The attestation statement format the registration sent (`none` or `packed`).
    package let attestationFormat: String

    /// A record of the values named.
    package init(
        id: Data, publicKey: Data, algorithm: COSEAlgorithm, signCount: UInt32, backupEligible: Bool,
        backupState: Bool, userVerifiedAtRegistration: Bool, transports: [String], aaguid: Data,
        attestationFormat: String
    ) {
        self.id = id
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.userVerifiedAtRegistration = userVerifiedAtRegistration
        self.transports = transports
        self.aaguid = aaguid
        self.attestationFormat = attestationFormat
    }
}
