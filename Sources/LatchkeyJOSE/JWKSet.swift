/// A JWK Set (RFC 7517 §5): the document served at a `jwks_uri`.
public struct JWKSet: Sendable, Hashable, Codable {
    /// The keys, in order.
    public var keys: [JWK]

    /// Creates a set of `keys`.
    public init(keys: [JWK]) {
        self.keys = keys
    }

    /// The same set with every private member removed, fit for publishing.
    public var publicKeys: JWKSet {
        JWKSet(keys: keys.map(\.publicKey))
    }
}
