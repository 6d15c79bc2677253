import Foundation
import LatchkeyCrypto

/// The checks both ceremonies make, in the order §7.1 and §7.2 list them.
enum CeremonyChecks {
    /// Steps 7–10 of §7.1 (11–14 of §7.2): the client data's type, challenge, origin, and no
    /// cross-origin frame. Returns the parsed client data.
    static func clientData(_ bytes: Data, type: String, challenge: Data, relyingParty: RelyingParty) throws -> ClientData {
        let clientData = try ClientData.parse(bytes: bytes)
        guard clientData.type == type else {
            throw WebAuthnError(.wrongCeremonyType, "The client data is not for \(type).")
        }
        // Base64URL.decode accepts one encoding per byte string, so comparing the decoded
        // bytes (in constant time) compares the encodings too.
        guard let received = Base64URL.decode(clientData.challenge), !challenge.isEmpty,
            ConstantTime.equals(received, challenge)
        else {
            throw WebAuthnError(.challengeMismatch, "The client data's challenge is not this ceremony's.")
        }
        guard relyingParty.origins.contains(clientData.origin) else {
            throw WebAuthnError(.originNotAllowed, "The ceremony ran at an origin this server does not serve.")
        }
        guard clientData.crossOrigin != true, clientData.topOrigin == nil else {
            throw WebAuthnError(.crossOriginRefused, "Passkeys cannot be used from a frame of another site.")
        }
        return clientData
    }

    /// Steps 13–16 of §7.1 (15–18 of §7.2): the RP ID hash, UP and UV. BS without BE was
    /// refused when the data was parsed.
    static func authenticatorData(_ data: AuthenticatorData, relyingParty: RelyingParty) throws {
        guard ConstantTime.equals(data.rpIDHash, relyingParty.idHash) else {
            throw WebAuthnError(.rpIDMismatch, "The credential is scoped to another relying party.")
        }
        guard data.flags.contains(.userPresent) else {
            throw WebAuthnError(.userNotPresent, "The authenticator did not confirm a person was present.")
        }
        guard data.flags.contains(.userVerified) else {
            throw WebAuthnError(.userNotVerified, "The authenticator did not verify the person.")
        }
    }
}
