/// The cost parameters of an Argon2 hash: memory, passes over memory, and lanes.
///
/// Values are checked when created, so a `PasswordHasher` never starts with parameters
/// libargon2 would reject, and a PHC string with absurd costs (a denial-of-service risk
/// when verifying) is refused rather than computed.
package struct Argon2Parameters: Sendable, Hashable {
    /// Memory cost in KiB (`m`).
    package let memoryKiB: Int
    /// Number of passes over memory (`t`).
    package let iterations: Int
    /// Number of lanes, and of threads used (`p`).
    package let parallelism: Int

    /// OWASP's minimum recommendation for Argon2id: 19 MiB, 2 iterations, 1 lane.
    package static let owaspMinimum = Argon2Parameters(
        checkedMemoryKiB: 19_456, iterations: 2, parallelism: 1)

    /// The largest memory cost accepted: 1 GiB.
    package static let maximumMemoryKiB = 1_048_576
    /// The largest number of iterations accepted.
    package static let maximumIterations = 64
    /// The largest number of lanes accepted.
    package static let maximumParallelism = 64

    /// Creates parameters after checking them: `parallelism` in 1…``maximumParallelism``,
    /// `iterations` in 1…``maximumIterations``, and `memoryKiB` from 8 × `parallelism`
    /// (Argon2's minimum) to ``maximumMemoryKiB``.
    ///
    /// - Throws: ``LatchkeyCryptoError`` with code `invalid_parameters` naming the value.
    package init(memoryKiB: Int, iterations: Int, parallelism: Int) throws {
        guard (1...Self.maximumParallelism).contains(parallelism) else {
            throw LatchkeyCryptoError(
                .invalidParameters,
                "Argon2 parallelism must be between 1 and \(Self.maximumParallelism).")
        }
        guard (1...Self.maximumIterations).contains(iterations) else {
            throw LatchkeyCryptoError(
                .invalidParameters,
                "Argon2 iterations must be between 1 and \(Self.maximumIterations).")
        }
        guard (8 * parallelism...Self.maximumMemoryKiB).contains(memoryKiB) else {
            throw LatchkeyCryptoError(
                .invalidParameters,
                "Argon2 memory must be between \(8 * parallelism) KiB (8 × parallelism) and \(Self.maximumMemoryKiB) KiB."
            )
        }
        self.init(checkedMemoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism)
    }

    /// Stores values already known to be within the limits.
    private init(checkedMemoryKiB memoryKiB: Int, iterations: Int, parallelism: Int) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// Whether every cost is at least the corresponding cost of `other`.
    func isAtLeast(_ other: Argon2Parameters) -> Bool {
        memoryKiB >= other.memoryKiB && iterations >= other.iterations
            && parallelism >= other.parallelism
    }
}
