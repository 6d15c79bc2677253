package import Foundation

/// A registration's response as a client sends it: the W3C JSON form of a
/// `PublicKeyCredential` with an `AuthenticatorAttestationResponse` (Level 3 §5.1,
/// `toJSON()`), every binary member unpadded base64url. Members the verification does not
/// use (`authenticatorData`, `publicKey` and `publicKeyAlgorithm`, which repeat the
/// attestation object; `authenticatorAttachment`; `clientExtensionResults`) are ignored.
package struct RegistrationResponse: Sendable, Decodable {
    /// The credential ID (`id`, equal to `rawId` when both are sent).
    package let credentialID: Data
    /// `response.clientDataJSON`: the client data's bytes, as the authenticator hashed them.
    package let clientDataJSON: Data
    /// `response.attestationObject`: the CBOR attestation object.
    package let attestationObject: Data
    /// `response.transports`, as the client listed them.
    package let transports: [String]

    /// The response of the parts named.
    package init(credentialID: Data, clientDataJSON: Data, attestationObject: Data, transports: [String]) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }

    private enum Keys: String, CodingKey {
        case id, rawId, type, response
    }

    private enum ResponseKeys: String, CodingKey {
        case clientDataJSON, attestationObject, transports
    }

    /// Decodes the JSON form; throws ``WebAuthnError``: ``WebAuthnError/Code/malformedResponse``
    /// for a member missing, mistyped or not base64url, ``WebAuthnError/Code/responseTooLarge``
    /// past a member's limit, ``WebAuthnError/Code/credentialIDTooLong`` for an ID of more
    /// than 1023 bytes.
    package init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<Keys>
        do {
            container = try decoder.container(keyedBy: Keys.self)
        } catch {
            throw WebAuthnError(.malformedResponse, "The registration response is not a JSON object.")
        }
        credentialID = try ResponseField.credentialID(container, id: .id, rawID: .rawId, type: .type)
        let response = try container.object(ResponseKeys.self, .response)
        clientDataJSON = try response.base64URL(.clientDataJSON, maxBytes: ClientData.maximumLength)
        attestationObject = try response.base64URL(.attestationObject, maxBytes: CBORLimits.webAuthn.maximumLength)
        transports = try ResponseField.transports(response, .transports)
    }
}
