public import Foundation

/// What the platform needs to make a passkey for the signed-in account, read from the server's
/// registration options (``PasskeyClient/registrationOptions(currentPassword:code:)``): pass it
/// to the platform (``PasskeyAuthorization/register(_:)`` on Apple platforms) and the result to
/// ``PasskeyClient/finishRegistration(_:name:)``.
///
/// Everything here was checked: the relying party is the app's own, the challenge and user
/// handle have WebAuthn's sizes, the server accepts ES256 (the only algorithm of Apple's
/// passkeys) and asks for a discoverable credential. The challenge is good for one
/// registration within five minutes.
public struct PasskeyRegistrationRequest: Sendable, Equatable {
    /// The relying party the passkey will belong to.
    public let relyingParty: PasskeyRelyingParty
    /// The server's challenge, 16–64 random bytes, for the platform to sign.
    public let challenge: Data
    /// The account's user handle (1–64 bytes): stored with the passkey and returned at every
    /// sign-in, so the server knows the account without an address typed.
    public let userID: Data
    /// The account's user name (its address), shown by the system's sheet and password manager.
    public let userName: String
    /// The name the system may show beside the user name.
    public let displayName: String
    /// The account's passkeys, which the platform must not make again (iOS 17.4, macOS 14.4).
    public let excludedCredentialIDs: [Data]
    /// What the server asks of the authenticator's own check of the person.
    public let userVerification: PasskeyUserVerification

    /// A request from its parts, for an app that reads the options itself, and for tests.
    public init(
        relyingParty: PasskeyRelyingParty, challenge: Data, userID: Data, userName: String, displayName: String,
        excludedCredentialIDs: [Data] = [], userVerification: PasskeyUserVerification = .required
    ) {
        self.relyingParty = relyingParty
        self.challenge = challenge
        self.userID = userID
        self.userName = userName
        self.displayName = displayName
        self.excludedCredentialIDs = excludedCredentialIDs
        self.userVerification = userVerification
    }

    /// The request in WebAuthn's `PublicKeyCredentialCreationOptionsJSON` (the `public_key` of the
    /// server's reply), for the relying party `expected`.
    ///
    /// - Throws: `invalid_configuration` — `relying_party_mismatch` when the options name another
    ///   relying party, `es256_not_offered` when the server does not accept ES256 keys,
    ///   `discoverable_credential_not_required` when it does not ask for a discoverable one (a
    ///   passkey that cannot sign in without an address is not what this SDK makes);
    ///   `unexpected_response` (`malformed_passkey_options` and the member) for anything else.
    init(options reader: PasskeyOptionsReader, expected: PasskeyRelyingParty) throws {
        let options = reader.options
        guard let rp = options["rp"] as? [String: Any] else { throw reader.malformed("rp") }
        try reader.checkRelyingParty(rp["id"], expected: expected)
        guard let user = options["user"] as? [String: Any] else { throw reader.malformed("user") }
        guard let parameters = options["pubKeyCredParams"] as? [Any], parameters.count <= 16 else {
            throw reader.malformed("pubKeyCredParams")
        }
        let es256 = parameters.contains { entry in
            guard let parameter = entry as? [String: Any] else { return false }
            return parameter["type"] as? String == "public-key" && (parameter["alg"] as? NSNumber)?.intValue == -7
        }
        guard es256 else { throw LatchkeyClientError(.invalidConfiguration, reasons: ["es256_not_offered"], status: reader.status) }
        let selection = options["authenticatorSelection"] as? [String: Any] ?? [:]
        guard selection["residentKey"] as? String == "required" || selection["requireResidentKey"] as? Bool == true else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["discoverable_credential_not_required"], status: reader.status)
        }
        let userName = try reader.name(user["name"], "user.name")
        self.init(
            relyingParty: expected, challenge: try reader.challenge(),
            userID: try reader.bytes(user["id"], PasskeyOptionsReader.userIDLength, "user.id"), userName: userName,
            displayName: user["displayName"] == nil ? userName : try reader.name(user["displayName"], "user.displayName"),
            excludedCredentialIDs: try reader.credentialIDs("excludeCredentials"),
            userVerification: PasskeyUserVerification(member: selection["userVerification"]))
    }
}
