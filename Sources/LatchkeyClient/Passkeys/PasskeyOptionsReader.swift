import Foundation

/// The strict reader of the server's `public_key` options (WebAuthn's
/// `PublicKeyCredentialCreationOptionsJSON` and `…RequestOptionsJSON`): each member the SDK
/// uses must be present, of its type, within its size, and binary members strict unpadded
/// base64url. Whatever fails is `unexpected_response` with one reason, `malformed_passkey_options`
/// and the member's name, so the app's log says which.
struct PasskeyOptionsReader {
    /// The largest challenge the SDK passes to the platform; WebAuthn asks for at least 16 bytes.
    static let challengeLength = 16...64
    /// A user handle: WebAuthn's 1 to 64 bytes (§5.4.3).
    static let userIDLength = 1...64
    /// A credential ID: WebAuthn's 1 to 1023 bytes (§5.8.3 and the server's own limit).
    static let credentialIDLength = 1...1023
    /// The most credentials one list may name (the account's passkeys).
    static let maximumCredentials = 256
    /// The longest user name or display name passed on (the server's are email addresses).
    static let maximumNameLength = 1024

    let options: [String: Any]
    let status: Int?

    /// The `{"data": {"public_key": {…}}}` of a reply.
    init(reply: HTTPReply) throws {
        guard let data = try? reply.jsonObject()["data"] as? [String: Any], let options = data["public_key"] as? [String: Any] else {
            throw LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_passkey_options", "public_key"], status: reply.status)
        }
        self.init(options: options, status: reply.status)
    }

    init(options: [String: Any], status: Int?) {
        self.options = options
        self.status = status
    }

    func malformed(_ member: String) -> LatchkeyClientError {
        LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_passkey_options", member], status: status)
    }

    /// The challenge: base64url of 16–64 bytes.
    func challenge() throws -> Data {
        try bytes(options["challenge"], Self.challengeLength, "challenge")
    }

    /// The relying party the options name (`rp.id` or `rpId`), which must be `expected`.
    func checkRelyingParty(_ member: Any?, expected: PasskeyRelyingParty) throws {
        guard let identifier = member as? String, identifier.utf8.count <= 253 else { throw malformed("rp_id") }
        guard expected.matches(identifier) else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["relying_party_mismatch"], status: status)
        }
    }

    /// The credential IDs of a list of `{type, id, transports?}` descriptors (absent: none);
    /// descriptors of another type than `public-key` are skipped, as WebAuthn says.
    func credentialIDs(_ member: String) throws -> [Data] {
        guard let list = options[member] else { return [] }
        guard let descriptors = list as? [Any], descriptors.count <= Self.maximumCredentials else { throw malformed(member) }
        return try descriptors.compactMap { entry in
            guard let descriptor = entry as? [String: Any], let type = descriptor["type"] as? String else { throw malformed(member) }
            guard type == "public-key" else { return nil }
            return try bytes(descriptor["id"], Self.credentialIDLength, member)
        }
    }

    /// A text member of 1 to ``maximumNameLength`` bytes with no control character.
    func name(_ value: Any?, _ member: String) throws -> String {
        guard let text = value as? String, (1...Self.maximumNameLength).contains(text.utf8.count),
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw malformed(member) }
        return text
    }

    /// The bytes of a base64url member, their count in `length`.
    func bytes(_ value: Any?, _ length: ClosedRange<Int>, _ member: String) throws -> Data {
        guard let text = value as? String, text.utf8.count <= (length.upperBound * 4 + 2) / 3, let bytes = Base64URL.decode(text),
            length.contains(bytes.count)
        else { throw malformed(member) }
        return bytes
    }
}
