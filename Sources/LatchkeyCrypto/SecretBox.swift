package import Foundation

/// Sealing secrets that must be kept at rest and read back (an authenticator's TOTP secret,
/// later the outbox's waiting mail): AES-256-GCM (NIST SP 800-38D) under one 32-byte key, the
/// key file's contents, computed by OpenSSL.
///
/// Promises:
/// - Each seal draws a fresh 96-bit nonce from the OS CSPRNG, so sealing the same secret twice
///   gives unrelated texts. (Random 96-bit nonces stay safe for far more than 2³² seals under
///   one key, SP 800-38D §8.3; a server seals a few per enrolment.)
/// - A sealed text is bound to its `purpose` (what the secret is, e.g. `totp-secret`) and its
///   `binding` (whose it is, e.g. the account id) as GCM's additional data: opened with
///   another purpose or binding — a secret copied to another account's row, a mail body moved
///   into a secret's column — it is refused, as it is when any byte of it changed.
/// - A sealed text names its key by a short fingerprint (the first 4 bytes of the key's
///   SHA-256), so a text sealed under another key file is refused as such
///   (``LatchkeyCryptoError/Code/wrongKey``), not as damage.
/// - The text is `v1.<fingerprint hex>.<base64url of nonce ‖ ciphertext ‖ tag>`: ASCII, safe
///   in a `TEXT` column, 40 characters longer than the secret's base64url.
/// - Nothing of the key or of an opened secret is printed: the key is ``Redacted`` and
///   ``open(_:purpose:binding:)`` returns one.
package struct SecretBox: Sendable, CustomStringConvertible {
    /// The size of a key: 32 bytes (AES-256).
    package static let keyLength = LibCrypto.aesGCMKeyLength

    private let key: Redacted<Data>
    private let fingerprint: String

    /// A box sealing under `key`, which must be ``keyLength`` bytes (`invalid_key` otherwise).
    package init(key: Redacted<Data>) throws {
        guard key.exposed.count == Self.keyLength else {
            throw LatchkeyCryptoError(.invalidKey, "A secret box key has \(Self.keyLength) bytes.")
        }
        self.key = key
        fingerprint = Hex.encode(SHA256.hash(key.exposed).prefix(4))
    }

    /// `secret` sealed for `purpose` and `binding` (see the type's promises).
    package func seal(_ secret: Data, purpose: String, binding: String) -> String {
        let nonce = SecureRandom.bytes(LibCrypto.aesGCMNonceLength)
        let sealed = LibCrypto.aes256GCMSeal(
            key: key.exposed, nonce: nonce, plaintext: secret, additionalData: Self.additionalData(purpose: purpose, binding: binding))
        return "v1.\(fingerprint).\(Base64URL.encode(nonce + sealed))"
    }

    /// The secret `sealed` holds, when it was sealed by this key for `purpose` and `binding`.
    /// Throws ``LatchkeyCryptoError/Code/wrongKey`` for a text sealed under another key, and
    /// ``LatchkeyCryptoError/Code/sealedSecretRefused`` for one that is malformed, changed, or
    /// sealed for another purpose or binding.
    package func open(_ sealed: String, purpose: String, binding: String) throws -> Redacted<Data> {
        let parts = sealed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let payload = Base64URL.decode(String(parts[2])),
            payload.count >= LibCrypto.aesGCMNonceLength + LibCrypto.aesGCMTagLength
        else { throw Self.refused }
        guard parts[1] == fingerprint else {
            throw LatchkeyCryptoError(.wrongKey, "The secret was sealed under another key than this key file's.")
        }
        let nonce = payload.prefix(LibCrypto.aesGCMNonceLength)
        guard let secret = LibCrypto.aes256GCMOpen(
            key: key.exposed, nonce: Data(nonce), sealed: Data(payload.dropFirst(LibCrypto.aesGCMNonceLength)),
            additionalData: Self.additionalData(purpose: purpose, binding: binding))
        else { throw Self.refused }
        return Redacted(secret)
    }

    /// "SecretBox(key <fingerprint>)": never the key.
    package var description: String { "SecretBox(key \(fingerprint))" }

    /// GCM's additional data: a label of this format, then `purpose` and `binding`, each after
    /// its length (4 bytes, big-endian), so no two pairs give the same bytes.
    private static func additionalData(purpose: String, binding: String) -> Data {
        var data = Data("latchkey-secret-box-v1".utf8)
        for part in [purpose, binding] {
            let bytes = Data(part.utf8)
            withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { data.append(contentsOf: $0) }
            data.append(bytes)
        }
        return data
    }

    private static let refused = LatchkeyCryptoError(
        .sealedSecretRefused, "The sealed secret is damaged, or belongs to another purpose or owner.")
}
