package import Foundation
import LatchkeyCrypto

/// The authentication ceremony's verification (W3C Web Authentication Level 3 §7.2), as a
/// pure function: every step, in the spec's order, each failing with its own
/// ``WebAuthnError`` code.
///
/// What it leaves to its caller: issuing the challenge and consuming it once, finding the
/// stored credential by the response's ID (and its account), and storing the returned sign
/// count and backup state.
package enum AuthenticationCeremony {
    /// How the account was known when the ceremony began (§7.2 step 6).
    package enum UserIdentification: Sendable, Hashable {
        /// Not at all: a discoverable credential names its account by its user handle, which
        /// must be sent and be the handle of the credential's account.
        case discoverable
        /// Before the ceremony (an address typed, a signed-in account): a user handle, if
        /// sent, must be the account's.
        case identified
    }

    /// Verifies `response` against the `challenge` issued for it, the `relyingParty`, the
    /// stored `credential` the response names and `userHandle`, the user handle of the
    /// account owning it. When `allowedCredentialIDs` is not empty the credential must be one
    /// of them. Throws ``WebAuthnError`` at the first failing step.
    package static func verify(
        _ response: AuthenticationResponse, challenge: Data, relyingParty: RelyingParty, credential: CredentialRecord,
        userHandle: Data, identification: UserIdentification, allowedCredentialIDs: [Data] = []
    ) throws -> AuthenticationResult {
        // Step 5.
        guard allowedCredentialIDs.isEmpty || allowedCredentialIDs.contains(response.credentialID) else {
            throw WebAuthnError(.credentialNotAllowed, "The credential is not one this sign-in allowed.")
        }
        // Steps 6–7: the response names the stored credential, and its account.
        guard response.credentialID == credential.id else {
            throw WebAuthnError(.credentialIDMismatch, "The response names another credential than the one stored.")
        }
        switch (identification, response.userHandle) {
        case (.discoverable, nil):
            throw WebAuthnError(.userHandleMismatch, "A passkey sign-in must name its account's user handle.")
        case (_, let sent?) where !ConstantTime.equals(sent, userHandle):
            throw WebAuthnError(.userHandleMismatch, "The user handle is not that of the credential's account.")
        default:
            break
        }
        // Steps 9–14: the client data.
        _ = try CeremonyChecks.clientData(
            response.clientDataJSON, type: "webauthn.get", challenge: challenge, relyingParty: relyingParty)
        // Steps 15–18.
        let authenticatorData = try AuthenticatorData.parse(bytes: response.authenticatorData)
        guard authenticatorData.attestedCredentialData == nil else {
            throw WebAuthnError(.invalidAuthenticatorData, "An assertion's authenticator data carries no new credential.")
        }
        try CeremonyChecks.authenticatorData(authenticatorData, relyingParty: relyingParty)
        // Step 19: BE is fixed when a credential is made; a change means another credential
        // or a lying authenticator.
        guard authenticatorData.flags.contains(.backupEligible) == credential.backupEligible else {
            throw WebAuthnError(.backupEligibilityChanged, "The credential's backup eligibility changed since it was registered.")
        }
        // Steps 21–22: the signature over authData ‖ SHA-256(clientDataJSON).
        let key = try COSEKey.parse(bytes: credential.publicKey)
        guard relyingParty.algorithms.contains(key.algorithm) else {
            throw WebAuthnError(.unsupportedAlgorithm, "The credential's algorithm is no longer accepted.", detail: key.algorithm.name)
        }
        let signed = response.authenticatorData + SHA256.hash(response.clientDataJSON)
        guard key.isValidSignature(response.signature, for: signed) else {
            throw WebAuthnError(.invalidSignature, "The passkey's signature does not verify.")
        }
        // Step 23: the counter, as a signal.
        let received = authenticatorData.signCount
        let stored = credential.signCount
        let signal: SignCountSignal =
            received == 0 && stored == 0 ? .notKept : received > stored ? .advanced : .didNotAdvance
        return AuthenticationResult(
            credentialID: credential.id, signCount: max(received, stored), signCountSignal: signal,
            backupState: authenticatorData.flags.contains(.backedUp),
            userVerified: authenticatorData.flags.contains(.userVerified))
    }
}
