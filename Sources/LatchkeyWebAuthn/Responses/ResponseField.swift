import Foundation
import LatchkeyCrypto

extension KeyedDecodingContainer {
    /// The base64url (unpadded) string under `key`, decoded, of at most `maxBytes` bytes;
    /// the length is checked on the text before anything is decoded.
    func base64URL(_ key: Key, maxBytes: Int) throws -> Data {
        guard let value = try optionalBase64URL(key, maxBytes: maxBytes) else {
            throw WebAuthnError(.malformedResponse, "The response lacks '\(key.stringValue)'.")
        }
        return value
    }

    /// As ``base64URL(_:maxBytes:)``, nil when the member is absent or null.
    func optionalBase64URL(_ key: Key, maxBytes: Int) throws -> Data? {
        guard let text = try optionalString(key, maxBytes: (maxBytes * 4 + 2) / 3) else { return nil }
        guard let bytes = Base64URL.decode(text) else {
            throw WebAuthnError(.malformedResponse, "The response's '\(key.stringValue)' is not base64url.")
        }
        return bytes
    }

    /// The string under `key` of at most `maxBytes` UTF-8 bytes, nil when absent or null.
    func optionalString(_ key: Key, maxBytes: Int) throws -> String? {
        let text: String?
        do {
            text = try decodeIfPresent(String.self, forKey: key)
        } catch {
            throw WebAuthnError(.malformedResponse, "The response's '\(key.stringValue)' is not a string.")
        }
        guard let text else { return nil }
        guard text.utf8.count <= maxBytes else {
            throw WebAuthnError(.responseTooLarge, "The response's '\(key.stringValue)' is too long.")
        }
        return text
    }

    /// The nested object under `key`, required.
    func object<NestedKey: CodingKey>(_ type: NestedKey.Type, _ key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        do {
            return try nestedContainer(keyedBy: type, forKey: key)
        } catch {
            throw WebAuthnError(.malformedResponse, "The response lacks the object '\(key.stringValue)'.")
        }
    }
}

/// What the decoders of both responses share.
enum ResponseField {
    /// The most bytes a user handle may have (§5.4.3: `user.id` is at most 64 bytes).
    static let maximumUserHandleLength = 64
    /// The most bytes a signature may have: an RS256 signature under an 8192-bit key.
    static let maximumSignatureLength = 1024
    /// The most transports a response may list.
    static let maximumTransports = 8
    /// The longest transport name accepted, in bytes.
    static let maximumTransportLength = 32

    /// Checks `type` is `public-key` and `rawId` (when given) equals `id`, and returns the
    /// credential ID, which must have 1 to 1023 bytes.
    static func credentialID<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, id: Key, rawID: Key, type: Key) throws -> Data {
        guard try container.optionalString(type, maxBytes: 32) == "public-key" else {
            throw WebAuthnError(.malformedResponse, "The credential's type is not 'public-key'.")
        }
        let limit = AttestedCredentialData.maximumCredentialIDLength
        let credentialID: Data
        do {
            credentialID = try container.base64URL(id, maxBytes: limit)
        } catch let error as WebAuthnError where error.code == .responseTooLarge {
            throw WebAuthnError(.credentialIDTooLong, "A credential ID must have 1 to 1023 bytes.")
        }
        guard !credentialID.isEmpty, credentialID.count <= limit else {
            throw WebAuthnError(.credentialIDTooLong, "A credential ID must have 1 to 1023 bytes.")
        }
        if let raw = try container.optionalBase64URL(rawID, maxBytes: limit), raw != credentialID {
            throw WebAuthnError(.credentialIDMismatch, "The credential's 'rawId' is not its 'id'.")
        }
        return credentialID
    }

    /// The transports listed under `key`: at most eight names of lowercase letters, digits
    /// and hyphens, each at most 32 bytes; an absent list is empty.
    static func transports<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> [String] {
        let names: [String]
        do {
            names = try container.decodeIfPresent([String].self, forKey: key) ?? []
        } catch {
            throw WebAuthnError(.malformedResponse, "The response's 'transports' is not a list of strings.")
        }
        guard names.count <= maximumTransports,
            names.allSatisfy({ name in
                (1...maximumTransportLength).contains(name.utf8.count)
                    && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
            })
        else {
            throw WebAuthnError(.malformedResponse, "The response's 'transports' is not a short list of transport names.")
        }
        return names
    }
}
