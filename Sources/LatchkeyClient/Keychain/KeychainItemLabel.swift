package import Foundation

/// What a Keychain item written by ``KeychainItemStore`` says about itself, in its
/// `kSecAttrGeneric` attribute — which, unlike the data, is read without Face ID: the
/// protection the item was added with (so a store never has to guess it, and never weakens
/// it), the biometric enrollment it was added under (a digest of the domain state, for
/// `biometryCurrentSet`), and what a sign-out revokes with (``StoredTokens/revocationRecord``:
/// a spent refresh token, which cannot use the login). No secret that can use the login.
///
/// Encoded as JSON `{"latchkey": 2, "accessibility", "user_presence", "biometry"?,
/// "sign_out"?}`; the tag of earlier versions, `latchkey-protection-1 <accessibility>
/// <user presence>`, is read as its protection alone.
package struct KeychainItemLabel: Sendable, Equatable {
    /// The item's protection; nil for an item without a readable label.
    package var protection: KeychainProtection?
    /// The SHA-256 of the biometric domain state the item was added under.
    package var biometry: Data?
    /// What ends the login without the person (``TokenStore/tokensForSignOut()``).
    package var signOut: StoredTokens?

    /// A label with these values.
    package init(protection: KeychainProtection?, biometry: Data?, signOut: StoredTokens?) {
        self.protection = protection
        self.biometry = biometry
        self.signOut = signOut
    }

    /// The label stored as `data`; an empty label for data this version cannot read.
    package init(decoding data: Data?) {
        self.init(protection: nil, biometry: nil, signOut: nil)
        guard let data else { return }
        if let text = String(data: data, encoding: .utf8), text.hasPrefix("latchkey-protection-1 ") {
            let fields = text.split(separator: " ")
            if fields.count == 3, let accessibility = KeychainOptions.Accessibility(rawValue: String(fields[1])),
                let presence = KeychainOptions.UserPresence(rawValue: String(fields[2]))
            {
                protection = KeychainProtection(accessibility: accessibility, userPresence: presence)
            }
            return
        }
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data), stored.latchkey == 2 else { return }
        if let accessibility = KeychainOptions.Accessibility(rawValue: stored.accessibility),
            let presence = KeychainOptions.UserPresence(rawValue: stored.user_presence)
        {
            protection = KeychainProtection(accessibility: accessibility, userPresence: presence)
        }
        biometry = stored.biometry.flatMap { Data(base64Encoded: $0) }
        signOut = stored.sign_out
    }

    /// The label as stored.
    package var encoded: Data {
        let stored = Stored(
            latchkey: 2, accessibility: protection?.accessibility.rawValue ?? "", user_presence: protection?.userPresence.rawValue ?? "",
            biometry: biometry?.base64EncodedString(), sign_out: signOut)
        // Encoding strings, optionals and StoredTokens cannot fail.
        return (try? JSONEncoder().encode(stored)) ?? Data()
    }

    /// The digest a label keeps of a biometric domain state.
    package static func biometryDigest(_ state: Data) -> Data {
        Data(SHA256Digest(hashing: state).bytes)
    }

    private struct Stored: Codable {
        var latchkey: Int
        var accessibility: String
        var user_presence: String
        var biometry: String?
        var sign_out: StoredTokens?
    }
}
