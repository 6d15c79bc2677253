public import Foundation

/// A passkey's answer to a ``PasskeyAssertionRequest``, as the platform reported it
/// (`ASAuthorizationPlatformPublicKeyCredentialAssertion`), for ``PasskeySignIn/signIn(with:)``.
/// Nothing here is secret: the signature is good for one challenge, which the server spends.
public struct PasskeyAssertion: Sendable, Equatable {
    /// The ID of the passkey that answered.
    public let credentialID: Data
    /// The client data JSON the platform made (type, challenge, origin), as raw bytes.
    public let clientDataJSON: Data
    /// The authenticator data (RP ID hash, flags, counter), as raw bytes.
    public let authenticatorData: Data
    /// The signature over the authenticator data and the client data's hash.
    public let signature: Data
    /// The user handle stored with the passkey: the account it belongs to.
    public let userHandle: Data
    /// Where the authenticator lives, when the platform says (iOS 16.6, macOS 13.5).
    public let attachment: PasskeyAttachment?

    /// The platform's result, member by member.
    public init(
        credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data,
        attachment: PasskeyAttachment?
    ) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.attachment = attachment
    }

    /// WebAuthn's `AuthenticationResponseJSON`, binary members in unpadded base64url.
    ///
    /// - Throws: `passkey_refused` — `user_handle_missing` when the passkey gave no user handle
    ///   (a sign-in with no address typed cannot name the account without it),
    ///   `malformed_platform_response` when a member is empty or past the size the server
    ///   accepts. No request is sent for what would be refused.
    func responseJSON() throws -> [String: Any] {
        guard (1...64).contains(userHandle.count) else {
            throw LatchkeyClientError(.passkeyRefused, reasons: ["user_handle_missing"])
        }
        guard PasskeyOptionsReader.credentialIDLength.contains(credentialID.count),
            (1...PasskeyResponseLimits.clientData).contains(clientDataJSON.count),
            (37...PasskeyResponseLimits.authenticatorData).contains(authenticatorData.count),
            (1...PasskeyResponseLimits.signature).contains(signature.count)
        else { throw LatchkeyClientError(.passkeyRefused, reasons: ["malformed_platform_response"]) }
        var credential: [String: Any] = [
            "id": Base64URL.encode(credentialID), "rawId": Base64URL.encode(credentialID), "type": "public-key",
            "response": [
                "clientDataJSON": Base64URL.encode(clientDataJSON), "authenticatorData": Base64URL.encode(authenticatorData),
                "signature": Base64URL.encode(signature), "userHandle": Base64URL.encode(userHandle),
            ],
            "clientExtensionResults": [String: Any](),
        ]
        if let attachment { credential["authenticatorAttachment"] = attachment.rawValue }
        return credential
    }
}
