package import Foundation
package import LatchkeyCrypto
import Synchronization

/// What verifying a password costs across the accounts, so that a sign-in for an address
/// with no account costs what one for a real account costs — whatever the configured
/// Argon2 parameters, and whatever parameters stored (imported, or older) hashes carry.
///
/// The profile is a random sample of the stored hashes' costs (``VerificationCostSampling``
/// refreshes it). An unknown address gets the cost of one sampled hash, chosen by a keyed hash
/// of the address: the same address always costs the same, as a real account does, and across
/// addresses the costs are distributed as the accounts' are. Before the first sample, and with
/// no accounts, the configured cost applies.
package final class VerificationCostProfile: Sendable {
    private let hasher: PasswordHasher
    private let key: AddressKey
    private let sample = Mutex<[PasswordHasher.VerificationCost]>([])

    /// A profile for `hasher`'s configured cost, choosing with `key` (the address key, so every
    /// instance chooses alike).
    package init(hasher: PasswordHasher, key: Redacted<Data>) {
        self.hasher = hasher
        self.key = AddressKey(key)
    }

    /// Replaces the sample with the costs of `hashes` (malformed ones are skipped).
    package func update(from hashes: [String]) {
        let costs = hashes.compactMap(hasher.verificationCost(of:))
        sample.withLock { $0 = costs }
    }

    /// The cost to spend on `address` (a normalised email, or the text given for one).
    package func cost(for address: String) -> PasswordHasher.VerificationCost {
        let costs = sample.withLock { $0 }
        guard !costs.isEmpty else { return hasher.configuredCost }
        let mac = key.code(for: address)
        let index = mac.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % UInt64(costs.count)
        return costs[Int(index)]
    }
}

/// The background job that samples the stored hashes' costs into a
/// ``VerificationCostProfile``: at start, then every hour.
package struct VerificationCostSampling: BackgroundJob {
    /// How many hashes a sample takes.
    package static let sampleSize = 256

    private let store: any AccountStore
    private let profile: VerificationCostProfile
    private let logger: Logger

    /// The job for `profile` over `store`.
    package init(store: any AccountStore, profile: VerificationCostProfile, logger: Logger) {
        self.store = store
        self.profile = profile
        self.logger = logger
    }

    /// `verification_cost_sampling`.
    package var name: String { "verification_cost_sampling" }
    /// Every hour, with up to a minute of jitter.
    package var schedule: JobSchedule { JobSchedule(interval: 3600, jitter: 60) }

    /// Samples the hashes; on failure the previous sample stays.
    package func run(isStopping: () -> Bool) {
        do {
            profile.update(from: try store.samplePasswordHashes(limit: Self.sampleSize))
        } catch {
            logger.error("verification_cost_sampling_failed", ["error": .string("\(error)")])
        }
    }
}
