/// The three Argon2 variants, named as in PHC strings.
package enum Argon2Variant: String, Sendable, Hashable {
    /// Data-dependent memory access; only met in hashes made elsewhere.
    case argon2d
    /// Data-independent memory access; older Directus/node-argon2 default.
    case argon2i
    /// The hybrid RFC 9106 recommends; what Latchkey produces.
    case argon2id
}

/// The Argon2 versions found in PHC strings.
package enum Argon2Version: UInt32, Sendable, Hashable {
    /// Version 1.0 (`v=16`), the default when a PHC string has no `v=` field.
    case v10 = 0x10
    /// Version 1.3 (`v=19`), RFC 9106; what Latchkey produces.
    case v13 = 0x13
}
