package import Foundation
import LatchkeyCrypto
package import LatchkeyWebAuthn

/// An authenticator in software for the tests: one credential (a P-256, Ed25519 or RSA key
/// from LatchkeyCrypto's generators), discoverable (it returns its user handle), that makes
/// registration and assertion responses as a browser hands them to a relying party — and,
/// through ``Ceremony``, every way they can be wrong.
package struct SoftwareAuthenticator: Sendable {
    /// The credential's key type.
    package enum Algorithm: Sendable, CaseIterable {
        /// A P-256 key, signing ES256 (DER signatures).
        case es256
        /// An Ed25519 key, signing EdDSA.
        case edDSA
        /// A 2048-bit RSA key, signing RS256.
        case rs256
    }

    private enum Key: Sendable {
        case p256(P256PrivateKey)
        case ed25519(Ed25519PrivateKey)
        case rsa(RSAPrivateKey)
    }

    /// The attestation a registration sends.
    package enum Attestation: Sendable {
        /// `none` with an empty statement.
        case none
        /// `packed` self attestation: `alg` and `sig` made with the credential's own key.
        case packedSelf
        /// Any format and statement, as given.
        case custom(format: String, statement: CBORMap)
    }

    /// What one ceremony's response says; every member defaults to what a relying party
    /// for `example.com` expects, so a test changes only what it checks.
    package struct Ceremony: Sendable {
        /// The challenge the client data carries.
        package var challenge: Data
        /// The RP ID whose hash the authenticator data carries.
        package var rpID = "example.com"
        /// The client data's origin.
        package var origin = "https://example.com"
        /// The client data's type; nil for the ceremony's own.
        package var type: String?
        /// The client data's `crossOrigin` (false, as browsers send it at top level).
        package var crossOrigin: Bool? = false
        /// The client data's `topOrigin`, if any.
        package var topOrigin: String?
        /// The flags; AT is added for a registration. By default a synced passkey's: UP, UV,
        /// BE, BS.
        package var flags: AuthenticatorFlags = [.userPresent, .userVerified, .backupEligible, .backedUp]
        /// The signature counter to report; nil for the authenticator's own.
        package var signCount: UInt32?
        /// The attestation a registration sends.
        package var attestation: Attestation = .none
        /// Extension outputs to append (the ED flag is set with them).
        package var extensions: CBORMap?
        /// The user handle an assertion returns; nil for the credential's own, empty for none.
        package var userHandle: Data?

        /// A ceremony for `challenge`, otherwise as expected.
        package init(challenge: Data) {
            self.challenge = challenge
        }
    }

    private let key: Key
    /// The credential ID.
    package let credentialID: Data
    /// The user handle of the account the credential was made for.
    package let userHandle: Data
    /// The AAGUID the authenticator data names (zero, as `none` attestation sends it).
    package let aaguid = Data(count: 16)
    /// The counter the next assertion reports when its ceremony names none.
    package var signCount: UInt32 = 0

    /// A new credential of `algorithm` with a random 32-byte ID and 16-byte user handle,
    /// unless given.
    package init(algorithm: Algorithm, credentialID: Data? = nil, userHandle: Data? = nil) {
        switch algorithm {
        case .es256: key = .p256(.generate())
        case .edDSA: key = .ed25519(.generate())
        case .rs256: key = .rsa(.generate(modulusBits: 2048))
        }
        self.credentialID = credentialID ?? SecureRandom.bytes(32)
        self.userHandle = userHandle ?? SecureRandom.bytes(16)
    }

    /// The credential of the P-256 key with scalar `d` (for fixed vectors).
    package init(p256Scalar d: Data, x: Data, y: Data, credentialID: Data, userHandle: Data) throws {
        key = .p256(try P256PrivateKey(scalar: Redacted(d), x: x, y: y))
        self.credentialID = credentialID
        self.userHandle = userHandle
    }

    /// The credential of the Ed25519 key with `seed` (for fixed vectors).
    package init(ed25519Seed seed: Data, credentialID: Data, userHandle: Data) throws {
        key = .ed25519(try Ed25519PrivateKey(seed: Redacted(seed)))
        self.credentialID = credentialID
        self.userHandle = userHandle
    }

    /// The COSE algorithm of the credential.
    package var algorithm: COSEAlgorithm {
        switch key {
        case .p256: .es256
        case .ed25519: .edDSA
        case .rsa: .rs256
        }
    }

    /// The credential public key as a COSE_Key map, in canonical key order.
    package var publicKeyMap: CBORMap {
        switch key {
        case .p256(let key):
            CBORValue.map([
                .integer(1): .integer(2), .integer(3): .integer(-7), .integer(-1): .integer(1),
                .integer(-2): .bytes(key.publicKey.x), .integer(-3): .bytes(key.publicKey.y),
            ]).mapValue!
        case .ed25519(let key):
            CBORValue.map([
                .integer(1): .integer(1), .integer(3): .integer(-8), .integer(-1): .integer(6),
                .integer(-2): .bytes(key.publicKey.rawRepresentation),
            ]).mapValue!
        case .rsa(let key):
            CBORValue.map([
                .integer(1): .integer(3), .integer(3): .integer(-257), .integer(-1): .bytes(key.publicKey.modulus),
                .integer(-2): .bytes(key.publicKey.exponent),
            ]).mapValue!
        }
    }

    /// The credential public key's COSE encoding.
    package var publicKey: Data {
        CBOREncoder.encode(.map(publicKeyMap))
    }

    /// A signature over `message` in WebAuthn's form (DER for ES256).
    package func sign(_ message: Data) -> Data {
        switch key {
        case .p256(let key): Self.der(raw: key.signature(for: message))
        case .ed25519(let key): key.signature(for: message)
        case .rsa(let key): key.signature(for: message)
        }
    }

    /// The DER ECDSA-Sig-Value of a raw 64-byte `r || s`.
    package static func der(raw: Data) -> Data {
        func integer(_ bytes: Data) -> Data {
            var trimmed = Data(bytes.drop { $0 == 0 })
            if trimmed.isEmpty || trimmed.first! & 0x80 != 0 { trimmed.insert(0, at: 0) }
            return Data([0x02, UInt8(trimmed.count)]) + trimmed
        }
        let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
        return Data([0x30, UInt8(body.count)]) + body
    }

    /// The client data JSON of `ceremony` for a ceremony of `type`, in the order and form
    /// browsers serialize it (§5.8.1.1).
    package static func clientDataJSON(_ ceremony: Ceremony, type: String) -> Data {
        var json = #"{"type":"\#(ceremony.type ?? type)","challenge":"\#(Base64URL.encode(ceremony.challenge))","#
            + #""origin":"\#(ceremony.origin)""#
        if let crossOrigin = ceremony.crossOrigin { json += #","crossOrigin":\#(crossOrigin)"# }
        if let topOrigin = ceremony.topOrigin { json += #","topOrigin":"\#(topOrigin)""# }
        return Data((json + "}").utf8)
    }

    /// Authenticator data for `ceremony`, with this credential attested when `attested`.
    package func authenticatorData(_ ceremony: Ceremony, attested: Bool) -> Data {
        var flags = ceremony.flags
        if attested { flags.insert(.attestedCredentialData) }
        if ceremony.extensions != nil { flags.insert(.extensionData) }
        let count = ceremony.signCount ?? signCount
        var data = SHA256.hash(utf8: ceremony.rpID) + Data([flags.rawValue])
        data += Data([UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)])
        if attested {
            data += aaguid + Data([UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)]) + credentialID
            data += publicKey
        }
        if let extensions = ceremony.extensions { data += CBOREncoder.encode(.map(extensions)) }
        return data
    }

    /// The registration response for `ceremony`.
    package func register(_ ceremony: Ceremony, transports: [String] = ["internal", "hybrid"]) -> RegistrationResponse {
        let clientDataJSON = Self.clientDataJSON(ceremony, type: "webauthn.create")
        let authenticatorData = authenticatorData(ceremony, attested: true)
        let format: String
        let statement: CBORMap
        switch ceremony.attestation {
        case .none:
            (format, statement) = ("none", CBORMap(entries: []))
        case .packedSelf:
            let signature = sign(authenticatorData + SHA256.hash(clientDataJSON))
            (format, statement) = (
                "packed", CBORValue.map([.text("alg"): .integer(algorithm.rawValue), .text("sig"): .bytes(signature)]).mapValue!
            )
        case .custom(let customFormat, let customStatement):
            (format, statement) = (customFormat, customStatement)
        }
        let object = CBOREncoder.encode(
            .map([.text("fmt"): .text(format), .text("attStmt"): .map(statement), .text("authData"): .bytes(authenticatorData)]))
        return RegistrationResponse(
            credentialID: credentialID, clientDataJSON: clientDataJSON, attestationObject: object, transports: transports)
    }

    /// The assertion response for `ceremony`.
    package func authenticate(_ ceremony: Ceremony) -> AuthenticationResponse {
        let clientDataJSON = Self.clientDataJSON(ceremony, type: "webauthn.get")
        let authenticatorData = authenticatorData(ceremony, attested: false)
        let handle = ceremony.userHandle ?? userHandle
        return AuthenticationResponse(
            credentialID: credentialID, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData,
            signature: sign(authenticatorData + SHA256.hash(clientDataJSON)), userHandle: handle.isEmpty ? nil : handle)
    }
}

extension RegistrationResponse {
    /// The response in the W3C JSON form (`PublicKeyCredential.toJSON()`).
    package var json: Data {
        let object: [String: Any] = [
            "id": Base64URL.encode(credentialID), "rawId": Base64URL.encode(credentialID), "type": "public-key",
            "authenticatorAttachment": "platform", "clientExtensionResults": [String: Any](),
            "response": [
                "clientDataJSON": Base64URL.encode(clientDataJSON),
                "attestationObject": Base64URL.encode(attestationObject), "transports": transports,
            ] as [String: Any],
        ]
        return try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}

extension AuthenticationResponse {
    /// The response in the W3C JSON form (`PublicKeyCredential.toJSON()`).
    package var json: Data {
        var response: [String: Any] = [
            "clientDataJSON": Base64URL.encode(clientDataJSON),
            "authenticatorData": Base64URL.encode(authenticatorData), "signature": Base64URL.encode(signature),
        ]
        if let userHandle { response["userHandle"] = Base64URL.encode(userHandle) }
        let object: [String: Any] = [
            "id": Base64URL.encode(credentialID), "rawId": Base64URL.encode(credentialID), "type": "public-key",
            "authenticatorAttachment": "platform", "clientExtensionResults": [String: Any](), "response": response,
        ]
        return try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}
