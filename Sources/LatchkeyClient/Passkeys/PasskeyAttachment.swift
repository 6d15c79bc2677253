/// Where the authenticator that answered lives, as the platform reports it (WebAuthn's
/// `authenticatorAttachment`).
public enum PasskeyAttachment: String, Sendable, Hashable {
    /// This device's own (iCloud Keychain, or the password manager the person chose).
    case platform
    /// Another device: a phone reached over hybrid transport (the QR code), a security key.
    case crossPlatform = "cross-platform"

    /// The attachment for the raw value of `ASAuthorizationPublicKeyCredentialAttachment`
    /// (0 platform, 1 cross-platform); nil for a value a later system adds.
    public init?(platformRawValue: Int) {
        switch platformRawValue {
        case 0: self = .platform
        case 1: self = .crossPlatform
        default: return nil
        }
    }

    /// The transports WebAuthn's registration response names for a passkey made through the
    /// platform's passkey API, which reports no transports of its own: `internal` and `hybrid`
    /// for this device's (usable here and, through the QR code, from other devices), `hybrid`
    /// for another device's. They are hints the server hands back in `excludeCredentials`.
    var transports: [String] {
        switch self {
        case .platform: ["hybrid", "internal"]
        case .crossPlatform: ["hybrid"]
        }
    }
}
