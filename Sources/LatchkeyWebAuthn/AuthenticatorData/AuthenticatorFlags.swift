/// The flags byte of authenticator data (W3C Web Authentication Level 3 §6.1).
package struct AuthenticatorFlags: OptionSet, Sendable, Hashable {
    /// The byte as the authenticator sent it.
    package let rawValue: UInt8
    /// The flags of `rawValue`, reserved bits included.
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0, UP: a person was present (touched, or answered a prompt).
    package static let userPresent = AuthenticatorFlags(rawValue: 0x01)
    /// Bit 2, UV: the authenticator verified the person (biometrics, PIN, passcode).
    package static let userVerified = AuthenticatorFlags(rawValue: 0x04)
    /// Bit 3, BE: the credential may be backed up (synced: a multi-device credential).
    package static let backupEligible = AuthenticatorFlags(rawValue: 0x08)
    /// Bit 4, BS: the credential is backed up now.
    package static let backedUp = AuthenticatorFlags(rawValue: 0x10)
    /// Bit 6, AT: attested credential data follows the sign count.
    package static let attestedCredentialData = AuthenticatorFlags(rawValue: 0x40)
    /// Bit 7, ED: extension outputs end the authenticator data.
    package static let extensionData = AuthenticatorFlags(rawValue: 0x80)
}
