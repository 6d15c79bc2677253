public import Foundation

/// What the platform needs to sign in with a passkey, read from the server's authentication
/// options (``PasskeySignIn/authenticationOptions()``): pass it to the platform
/// (``PasskeyAuthorization/signIn(_:)``, or ``PasskeyAuthorization/autoFill(_:)`` for the
/// keyboard's suggestions) and the result to ``PasskeySignIn/signIn(with:)``.
///
/// The relying party was checked to be the app's own and the challenge has WebAuthn's size; it
/// is good for one sign-in within five minutes, so fetch new options for each attempt.
public struct PasskeyAssertionRequest: Sendable, Equatable {
    /// The relying party whose passkeys may answer.
    public let relyingParty: PasskeyRelyingParty
    /// The server's challenge, 16–64 random bytes, for the passkey to sign.
    public let challenge: Data
    /// The passkeys allowed to answer; empty (Latchkey's sign-in) lets the person choose any of
    /// the relying party's passkeys, with no address typed.
    public let allowedCredentialIDs: [Data]
    /// What the server asks of the authenticator's own check of the person.
    public let userVerification: PasskeyUserVerification

    /// A request from its parts, for an app that reads the options itself, and for tests.
    public init(
        relyingParty: PasskeyRelyingParty, challenge: Data, allowedCredentialIDs: [Data] = [],
        userVerification: PasskeyUserVerification = .required
    ) {
        self.relyingParty = relyingParty
        self.challenge = challenge
        self.allowedCredentialIDs = allowedCredentialIDs
        self.userVerification = userVerification
    }

    /// The request in WebAuthn's `PublicKeyCredentialRequestOptionsJSON`, for the relying party
    /// `expected`.
    ///
    /// - Throws: `invalid_configuration` (`relying_party_mismatch`) when the options name another
    ///   relying party; `unexpected_response` (`malformed_passkey_options` and the member) for
    ///   anything else.
    init(options reader: PasskeyOptionsReader, expected: PasskeyRelyingParty) throws {
        try reader.checkRelyingParty(reader.options["rpId"], expected: expected)
        self.init(
            relyingParty: expected, challenge: try reader.challenge(),
            allowedCredentialIDs: try reader.credentialIDs("allowCredentials"),
            userVerification: PasskeyUserVerification(member: reader.options["userVerification"]))
    }
}
