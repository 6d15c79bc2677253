public import Foundation

/// A passkey the platform made for a ``PasskeyRegistrationRequest``, as it reported it
/// (`ASAuthorizationPlatformPublicKeyCredentialRegistration`), for
/// ``PasskeyClient/finishRegistration(_:name:)``. Nothing here is secret: the private key
/// never leaves the authenticator.
public struct PasskeyRegistration: Sendable, Equatable {
    /// The new credential's ID.
    public let credentialID: Data
    /// The client data JSON the platform made (type, challenge, origin), as raw bytes.
    public let clientDataJSON: Data
    /// The attestation object (CBOR): the authenticator data with the new public key, and the
    /// attestation statement (`none` for Apple's passkeys).
    public let attestationObject: Data
    /// Where the authenticator lives, when the platform says (iOS 16.6, macOS 13.5).
    public let attachment: PasskeyAttachment?

    /// The platform's result, member by member.
    public init(credentialID: Data, clientDataJSON: Data, attestationObject: Data, attachment: PasskeyAttachment?) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.attachment = attachment
    }

    /// WebAuthn's `RegistrationResponseJSON` (what a browser's `PublicKeyCredential.toJSON()`
    /// gives), binary members in unpadded base64url.
    ///
    /// - Throws: `passkey_refused` (`malformed_platform_response`) when a member is empty or
    ///   past the size the server accepts (credential ID 1023 bytes, client data 4 KiB,
    ///   attestation object 16 KiB): no request is sent for what would be refused.
    func responseJSON() throws -> [String: Any] {
        guard PasskeyOptionsReader.credentialIDLength.contains(credentialID.count),
            (1...PasskeyResponseLimits.clientData).contains(clientDataJSON.count),
            (1...PasskeyResponseLimits.attestationObject).contains(attestationObject.count)
        else { throw LatchkeyClientError(.passkeyRefused, reasons: ["malformed_platform_response"]) }
        var credential: [String: Any] = [
            "id": Base64URL.encode(credentialID), "rawId": Base64URL.encode(credentialID), "type": "public-key",
            "response": [
                "clientDataJSON": Base64URL.encode(clientDataJSON), "attestationObject": Base64URL.encode(attestationObject),
                "transports": (attachment ?? .platform).transports,
            ] as [String: Any],
            "clientExtensionResults": [String: Any](),
        ]
        if let attachment { credential["authenticatorAttachment"] = attachment.rawValue }
        return credential
    }
}

/// The sizes the server accepts for a passkey response's members (docs/passkeys.md).
enum PasskeyResponseLimits {
    static let clientData = 4 * 1024
    static let attestationObject = 16 * 1024
    static let authenticatorData = 8 * 1024
    static let signature = 1024
}
