import Foundation
package import LatchkeyCrypto

/// A device's credential of its own (the OWASP authentication cheat sheet's "device cookie"):
/// 32 CSPRNG bytes as 43 base64url characters, which the server keeps only as a SHA-256
/// digest (``RecognisedDeviceStore``). It names a device, not a session: apps keep it across
/// sign-outs, browsers in an `HttpOnly` `__Host-` cookie. It proves nothing by itself; with the
/// right password it lets the device past the account-wide cap on failures.
package struct DeviceToken: Sendable {
    /// The token as sent.
    package let value: Redacted<String>
    /// Its SHA-256, lowercase hex: what the store holds.
    package let digest: String

    /// A presented token, when `text` is shaped like one we issue; nil for anything else
    /// (absent, too long, not base64url, control characters), which is treated as no token.
    package init?(presented text: Redacted<String>?) {
        guard let text, let digest = OpaqueToken.wellFormedDigest(text) else { return nil }
        self.init(value: text, digest: digest)
    }

    /// A new token from the CSPRNG.
    package static func generate() -> DeviceToken {
        let value = SecureRandom.token()
        return DeviceToken(value: value, digest: OpaqueToken.digest(value))
    }

    private init(value: Redacted<String>, digest: Data) {
        self.value = value
        self.digest = Hex.encode(digest)
    }
}
