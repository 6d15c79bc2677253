/// The single-use random values of an OAuth authorization request.
public enum AuthorizationRequestValues {
    /// A fresh `state` value: 32 bytes from the OS CSPRNG, base64url (43 characters).
    /// The callback must carry it back unchanged; it ties the response to this request.
    public static func makeState() -> String {
        Base64URL.randomString(byteCount: 32)
    }

    /// A fresh OpenID Connect `nonce`: 32 bytes from the OS CSPRNG, base64url
    /// (43 characters). The ID token must carry it; it ties the token to this request.
    public static func makeNonce() -> String {
        Base64URL.randomString(byteCount: 32)
    }
}
