/// A JWK Set (RFC 7517 §5): the document served at a `jwks_uri`.
package struct JWKSet: Sendable, Hashable, Codable {
    /// The keys, in order.
    package var keys: [JWK]

    /// Creates a set of `keys`.
    package init(keys: [JWK]) {
        self.keys = keys
    }

    /// The same set with every private member removed, fit for publishing.
    package var publicKeys: JWKSet {
        JWKSet(keys: keys.map(\.publicKey))
    }
}
