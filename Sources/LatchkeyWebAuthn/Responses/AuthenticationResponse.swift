package import Foundation

/// An authentication's response as a client sends it: the W3C JSON form of a
/// `PublicKeyCredential` with an `AuthenticatorAssertionResponse` (Level 3 §5.1,
/// `toJSON()`), every binary member unpadded base64url. `authenticatorAttachment` and
/// `clientExtensionResults` are ignored.
package struct AuthenticationResponse: Sendable, Decodable {
    /// The credential ID (`id`, equal to `rawId` when both are sent).
    package let credentialID: Data
    /// `response.clientDataJSON`: the client data's bytes, as the authenticator hashed them.
    package let clientDataJSON: Data
    /// `response.authenticatorData`.
    package let authenticatorData: Data
    /// `response.signature`, over `authenticatorData` ‖ SHA-256(`clientDataJSON`).
    package let signature: Data
    /// `response.userHandle`: the account's user handle, which a discoverable credential
    /// returns; at most 64 bytes.
    package let userHandle: Data?

    /// The response of the parts named.
    package init(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }

    private enum Keys: String, CodingKey {
        case id, rawId, type, response
    }

    private enum ResponseKeys: String, CodingKey {
        case clientDataJSON, authenticatorData, signature, userHandle
    }

    /// Decodes the JSON form; throws ``WebAuthnError`` as
    /// ``RegistrationResponse/init(from:)`` does. An empty `userHandle` reads as none.
    package init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<Keys>
        do {
            container = try decoder.container(keyedBy: Keys.self)
        } catch {
            throw WebAuthnError(.malformedResponse, "The authentication response is not a JSON object.")
        }
        credentialID = try ResponseField.credentialID(container, id: .id, rawID: .rawId, type: .type)
        let response = try container.object(ResponseKeys.self, .response)
        clientDataJSON = try response.base64URL(.clientDataJSON, maxBytes: ClientData.maximumLength)
        authenticatorData = try response.base64URL(.authenticatorData, maxBytes: AuthenticatorData.maximumLength)
        signature = try response.base64URL(.signature, maxBytes: ResponseField.maximumSignatureLength)
        let handle = try response.optionalBase64URL(.userHandle, maxBytes: ResponseField.maximumUserHandleLength)
        userHandle = handle?.isEmpty == true ? nil : handle
    }
}
