package import Foundation
import LatchkeyCrypto

/// The registration ceremony's verification (W3C Web Authentication Level 3 §7.1), as a
/// pure function: every step that applies to a relying party that asks for `none`
/// attestation, in the spec's order, each failing with its own ``WebAuthnError`` code.
///
/// What it leaves to its caller: issuing the challenge and consuming it once (step 8
/// compares with the challenge the caller hands in), and refusing a credential ID already
/// registered to any account (step 26: the store's unique key).
package enum RegistrationCeremony {
    /// The attestation statement formats verified: `none` (what Apple passkeys and browsers
    /// asked for `none` send) and `packed` self attestation (no certificate), whose signature
    /// is checked with the new credential's own key. Neither says anything trustworthy about
    /// the authenticator; every other format, and `packed` with a certificate chain, is
    /// refused rather than stored unverified.
    package static let attestationFormats = ["none", "packed"]

    /// Verifies `response` against the `challenge` issued for it and the `relyingParty`,
    /// and returns the credential record to store; throws ``WebAuthnError`` at the first
    /// failing step.
    package static func verify(
        _ response: RegistrationResponse, challenge: Data, relyingParty: RelyingParty
    ) throws -> CredentialRecord {
        // Steps 5–10: the client data.
        _ = try CeremonyChecks.clientData(
            response.clientDataJSON, type: "webauthn.create", challenge: challenge, relyingParty: relyingParty)
        // Step 11.
        let clientDataHash = SHA256.hash(response.clientDataJSON)
        // Step 12: the attestation object, { fmt, attStmt, authData }.
        guard let object = try CBOR.parse(bytes: response.attestationObject).mapValue,
            let format = object[text: "fmt"]?.textString,
            let statement = object[text: "attStmt"]?.mapValue,
            let authenticatorBytes = object[text: "authData"]?.byteString
        else {
            throw WebAuthnError(.invalidAttestation, "The attestation object lacks its format, statement or authenticator data.")
        }
        let authenticatorData = try AuthenticatorData.parse(bytes: authenticatorBytes)
        // Steps 13–16.
        try CeremonyChecks.authenticatorData(authenticatorData, relyingParty: relyingParty)
        guard let attested = authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.invalidAuthenticatorData, "A registration's authenticator data must carry the new credential.")
        }
        // Step 19: the algorithm is one this relying party accepts.
        guard relyingParty.algorithms.contains(attested.publicKey.algorithm) else {
            throw WebAuthnError(
                .unsupportedAlgorithm, "The credential's algorithm is not one this server accepts.",
                detail: attested.publicKey.algorithm.name)
        }
        // Steps 21–24: the attestation statement.
        try verifyStatement(
            format: format, statement: statement, authenticatorData: authenticatorData, key: attested.publicKey,
            clientDataHash: clientDataHash)
        // Step 25 was checked as the data was parsed (1 to 1023 bytes); the response must
        // name the credential the authenticator made.
        guard response.credentialID == attested.credentialID else {
            throw WebAuthnError(.credentialIDMismatch, "The response names another credential than its authenticator data.")
        }
        // Step 27.
        return CredentialRecord(
            id: attested.credentialID, publicKey: attested.publicKey.encoded, algorithm: attested.publicKey.algorithm,
            signCount: authenticatorData.signCount, backupEligible: authenticatorData.flags.contains(.backupEligible),
            backupState: authenticatorData.flags.contains(.backedUp),
            userVerifiedAtRegistration: authenticatorData.flags.contains(.userVerified), transports: response.transports,
            aaguid: attested.aaguid, attestationFormat: format)
    }

    /// §8.7 (`none`: an empty statement) and §8.2 (`packed` self attestation: `alg` is the
    /// credential's, `sig` verifies over authData ‖ clientDataHash with the credential key).
    private static func verifyStatement(
        format: String, statement: CBORMap, authenticatorData: AuthenticatorData, key: COSEKey, clientDataHash: Data
    ) throws {
        switch format {
        case "none":
            guard statement.count == 0 else {
                throw WebAuthnError(.invalidAttestation, "A 'none' attestation statement must be empty.")
            }
        case "packed":
            guard statement[text: "x5c"] == nil else {
                throw WebAuthnError(
                    .unsupportedAttestation, "Attestation with a certificate chain is not accepted; ask for 'none'.")
            }
            guard statement.count == 2, let algorithm = statement[text: "alg"]?.integer,
                let signature = statement[text: "sig"]?.byteString
            else {
                throw WebAuthnError(.invalidAttestation, "The 'packed' attestation statement is malformed.")
            }
            guard algorithm == key.algorithm.rawValue,
                key.isValidSignature(signature, for: authenticatorData.encoded + clientDataHash)
            else {
                throw WebAuthnError(.invalidAttestation, "The 'packed' self-attestation signature does not verify.")
            }
        default:
            throw WebAuthnError(
                .unsupportedAttestation, "The attestation format is not accepted; ask for 'none'.",
                detail: String(format.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 }.prefix(32)))
        }
    }
}
