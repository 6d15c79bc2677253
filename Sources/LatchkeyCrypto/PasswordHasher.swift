import Foundation

/// Hashes and verifies passwords with Argon2id (RFC 9106) in PHC string format, compatible
/// with the hashes Directus (node-argon2) and the Argon2 reference implementation write.
///
/// The hasher hashes exactly the UTF-8 bytes of the password it is given; normalising the
/// password (Unicode NFC) is the caller's job and must be the same when setting and when
/// checking a password.
///
/// Argon2 is deliberately slow and memory-hungry: each call to ``hash(_:)``,
/// ``verify(_:against:)`` or ``verifyAgainstDummy(_:)`` takes tens of milliseconds and
/// ``Argon2Parameters/memoryKiB`` of memory. Call them from worker threads, never while
/// holding a lock.
package struct PasswordHasher: Sendable {
    /// Length of the random salt of new hashes, in bytes.
    package static let saltLength = 16
    /// Length of the tag of new hashes, in bytes.
    package static let tagLength = 32

    /// The cost of new hashes, and the floor below which ``needsRehash(_:)`` says yes.
    package let parameters: Argon2Parameters
    /// Creates a hasher that makes new hashes with `parameters`.
    package init(parameters: Argon2Parameters = .owaspMinimum) {
        self.parameters = parameters
    }

    /// Hashes `password` with Argon2id v1.3, the configured parameters, a fresh 16-byte salt
    /// from the CSPRNG and a 32-byte tag, giving a PHC string such as
    /// `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<tag>`.
    ///
    /// - Throws: ``LatchkeyCryptoError`` with code `argon2_failure` if libargon2 cannot run
    ///   (for example memory cannot be allocated).
    package func hash(_ password: Redacted<String>) throws -> String {
        let salt = SecureRandom.bytes(Self.saltLength)
        let tag = try configuredTag(of: password, salt: salt)
        return PHCString(variant: .argon2id, parameters: parameters, salt: salt, tag: tag).encoded
    }

    /// Whether `password` matches the PHC string `phc`.
    ///
    /// Accepts argon2id, argon2i and argon2d hashes, versions 1.3 (`v=19`) and 1.0 (`v=16`
    /// or no `v=`), with the hash's own parameters, salt and tag length. The tags are
    /// compared in constant time. A malformed string, or one whose costs exceed the
    /// ``Argon2Parameters`` limits, gives `false`; this method never throws or traps.
    package func verify(_ password: Redacted<String>, against phc: String) -> Bool {
        guard let stored = PHCString(parsing: phc),
            let computed = try? argon2Tag({
                try LibArgon2.tag(
                    stored.variant, version: stored.version, password: Data(password.exposed.utf8),
                    salt: stored.salt, associatedData: stored.associatedData,
                    parameters: stored.parameters, tagLength: stored.tag.count)
            })
        else { return false }
        return ConstantTime.equals(computed, stored.tag)
    }

    /// What verifying a password against a stored hash costs: its variant, version, costs
    /// and tag length (the salt's length does not matter).
    package struct VerificationCost: Sendable, Hashable {
        /// The Argon2 variant.
        package let variant: Argon2Variant
        /// The Argon2 version.
        package let version: Argon2Version
        /// Memory, passes and lanes.
        package let parameters: Argon2Parameters
        /// The tag's length in bytes.
        package let tagLength: Int
    }

    /// What verifying against a hash this hasher makes costs.
    package var configuredCost: VerificationCost {
        VerificationCost(variant: .argon2id, version: .v13, parameters: parameters, tagLength: Self.tagLength)
    }

    /// What verifying against the PHC string `phc` costs; nil for a malformed one (which
    /// ``verify(_:against:)`` refuses without hashing).
    package func verificationCost(of phc: String) -> VerificationCost? {
        PHCString(parsing: phc).map {
            VerificationCost(variant: $0.variant, version: $0.version, parameters: $0.parameters, tagLength: $0.tag.count)
        }
    }

    /// Does the work of ``verify(_:against:)`` for a hash of `cost` (default: one this hasher
    /// makes), and returns `false`.
    ///
    /// Call it when there is no account (or no password hash) for the given email, so that
    /// the response takes as long as a wrong password for an existing account and timing
    /// does not reveal which emails have accounts.
    package func verifyAgainstDummy(_ password: Redacted<String>, cost: VerificationCost? = nil) -> Bool {
        let cost = cost ?? configuredCost
        let dummyTag = SecureRandom.bytes(cost.tagLength)
        let salt = SecureRandom.bytes(Self.saltLength)
        guard let computed = try? argon2Tag({
            try LibArgon2.tag(
                cost.variant, version: cost.version, password: Data(password.exposed.utf8), salt: salt,
                parameters: cost.parameters, tagLength: cost.tagLength)
        })
        else { return false }
        // A random tag cannot match (probability 2^-256); comparing keeps the work identical.
        _ = ConstantTime.equals(computed, dummyTag)
        return false
    }

    /// Whether `phc` should be replaced by a fresh ``hash(_:)`` after the next successful
    /// sign-in: it is malformed, not argon2id, not version 1.3, any cost is below the
    /// configured ``parameters``, its salt or tag is shorter than this hasher makes, or it
    /// carries associated data (`data=`), which new hashes do not.
    package func needsRehash(_ phc: String) -> Bool {
        guard let stored = PHCString(parsing: phc) else { return true }
        return stored.variant != .argon2id || stored.version != .v13
            || !stored.parameters.isAtLeast(parameters) || stored.salt.count < Self.saltLength
            || stored.tag.count < Self.tagLength || !stored.associatedData.isEmpty
    }

    /// The Argon2id v1.3 tag of `password` with this hasher's parameters and tag length.
    private func configuredTag(of password: Redacted<String>, salt: Data) throws -> Data {
        let parameters = parameters
        return try argon2Tag {
            try LibArgon2.tag(
                .argon2id, password: Data(password.exposed.utf8), salt: salt, parameters: parameters,
                tagLength: Self.tagLength)
        }
    }

    /// The tag `argon2` computes on a thread of its own (``ComputationThread``) that gives the
    /// processor up while it computes (``YieldingComputation``): a hash must not keep a
    /// request thread waiting for the core.
    private func argon2Tag(_ argon2: @escaping @Sendable () throws -> Data) throws -> Data {
        try ComputationThread.run { Result(catching: argon2) }.get()
    }
}
