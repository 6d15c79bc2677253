package import Foundation

/// Authenticator data (W3C Web Authentication Level 3 §6.1), parsed strictly: the RP ID
/// hash, flags, signature counter, then attested credential data exactly when AT is set
/// and extension outputs exactly when ED is set, and nothing after them.
///
/// Parsing checks the structure only (and that BS is never set without BE, which no
/// authenticator may send); what the flags must say for a ceremony is the ceremony's check.
package struct AuthenticatorData: Sendable {
    /// The shortest authenticator data: the RP ID hash (32), flags (1) and counter (4).
    package static let minimumLength = 37
    /// The most bytes accepted: a registration's attested credential data with an 8192-bit
    /// RSA key and the longest credential ID, with room for extension outputs.
    package static let maximumLength = 8 * 1024

    /// SHA-256 of the RP ID the credential is scoped to.
    package let rpIDHash: Data
    /// The flags.
    package let flags: AuthenticatorFlags
    /// The signature counter (0 from authenticators that keep none, such as synced passkeys).
    package let signCount: UInt32
    /// The attested credential data, present exactly when the AT flag is set.
    package let attestedCredentialData: AttestedCredentialData?
    /// The extension outputs, present exactly when the ED flag is set: a CBOR map, checked
    /// and otherwise ignored.
    package let extensions: CBORMap?
    /// The bytes the data was parsed from, which signatures cover.
    package let encoded: Data

    /// Parses `bytes`; throws ``WebAuthnError`` (``WebAuthnError/Code/invalidAuthenticatorData``
    /// for the structure, ``WebAuthnError/Code/invalidBackupFlags`` for BS without BE, the
    /// COSE key's and CBOR's own codes for what they hold).
    package static func parse(bytes: Data) throws -> AuthenticatorData {
        try AuthenticatorData(bytes)
    }

    private init(_ data: Data) throws {
        guard data.count <= Self.maximumLength else {
            throw WebAuthnError(.responseTooLarge, "The authenticator data is longer than \(Self.maximumLength) bytes.")
        }
        let bytes = [UInt8](data)
        guard bytes.count >= Self.minimumLength else {
            throw WebAuthnError(.invalidAuthenticatorData, "The authenticator data is shorter than 37 bytes.")
        }
        rpIDHash = Data(bytes[0..<32])
        flags = AuthenticatorFlags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        encoded = data
        guard !flags.contains(.backedUp) || flags.contains(.backupEligible) else {
            throw WebAuthnError(.invalidBackupFlags, "The authenticator data says backed up (BS) but not backup eligible (BE).")
        }
        var offset = Self.minimumLength
        if flags.contains(.attestedCredentialData) {
            guard bytes.count - offset >= 18 else {
                throw WebAuthnError(.invalidAuthenticatorData, "The attested credential data is truncated.")
            }
            let aaguid = Data(bytes[offset..<offset + 16])
            let idLength = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard idLength >= 1, idLength <= AttestedCredentialData.maximumCredentialIDLength else {
                throw WebAuthnError(.credentialIDTooLong, "A credential ID must have 1 to 1023 bytes.")
            }
            guard bytes.count - offset >= idLength else {
                throw WebAuthnError(.invalidAuthenticatorData, "The credential ID is truncated.")
            }
            let credentialID = Data(bytes[offset..<offset + idLength])
            offset += idLength
            let rest = Data(bytes[offset...])
            let (key, keyLength) = try CBOR.parsePrefix(bytes: rest.prefix(COSEKey.limits.maximumLength), limits: COSEKey.limits)
            let publicKey = try COSEKey(key, encoded: Data(rest.prefix(keyLength)))
            offset += keyLength
            attestedCredentialData = AttestedCredentialData(aaguid: aaguid, credentialID: credentialID, publicKey: publicKey)
        } else {
            attestedCredentialData = nil
        }
        if flags.contains(.extensionData) {
            let (value, length) = try CBOR.parsePrefix(bytes: Data(bytes[offset...]), limits: .webAuthn)
            guard let map = value.mapValue else {
                throw WebAuthnError(.invalidAuthenticatorData, "The authenticator extension outputs are not a CBOR map.")
            }
            extensions = map
            offset += length
        } else {
            extensions = nil
        }
        guard offset == bytes.count else {
            throw WebAuthnError(.invalidAuthenticatorData, "The authenticator data has bytes after its last part.")
        }
    }
}
