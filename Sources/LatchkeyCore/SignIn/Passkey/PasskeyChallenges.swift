package import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// The challenges of the passkey ceremonies (W3C Web Authentication Level 3 §13.4.3): 32
/// random bytes from the OS CSPRNG, kept only as their SHA-256, accepted once, by the ceremony
/// they were issued for, for ``lifetime``.
///
/// Promises:
/// - A challenge is taken out of the store by one statement before its response is checked,
///   so of any number of concurrent uses (on any server sharing the database) one gets it;
///   a used, expired or unknown challenge is never accepted.
/// - Issuing is limited per client address (an IPv4 address, an IPv6 /64): beyond the
///   policy, `rate_limited` with the seconds to wait. Expired challenges are swept as new
///   ones are kept, so the table holds at most what the limit lets in over ``lifetime``.
package struct PasskeyChallenges: Sendable {
    /// How long a challenge is accepted: five minutes, the options' `timeout`.
    package static let lifetime: TimeInterval = 300
    /// The bytes of a challenge.
    package static let length = 32

    private let store: any PasskeyStore
    private let limiter: any RateLimiter
    private let policy: RateLimitPolicy
    private let clock: any WallClock
    private let logger: Logger

    /// Challenges kept in `store`, issued at most as `policy` allows per client address.
    package init(store: any PasskeyStore, limiter: any RateLimiter, policy: RateLimitPolicy, clock: any WallClock, logger: Logger) {
        self.store = store
        self.limiter = limiter
        self.policy = policy
        self.clock = clock
        self.logger = logger
    }

    /// A new challenge for `purpose` (a registration's for `accountID`), asked for from
    /// `clientIP`. Throws `rate_limited` beyond the address's limit.
    package func issue(_ purpose: PasskeyChallengeRecord.Purpose, accountID: String?, clientIP: String) throws -> Data {
        let now = clock.now()
        if case .limited(let retryAfter) = try limiter.consume(
            "passkey-options:" + IPAddress.rateLimitKey(clientIP), policy: policy, now: now)
        {
            logger.info("passkey_options_limited", [
                "ip": .string(IPAddress.truncatedForLogs(clientIP)), "retry_after": .int(retryAfter),
            ])
            throw LatchkeyError.rateLimited(retryAfter: retryAfter)
        }
        let challenge = SecureRandom.bytes(Self.length)
        try store.createPasskeyChallenge(
            PasskeyChallengeRecord(
                digest: Hex.encode(SHA256.hash(challenge)), purpose: purpose, accountID: accountID, createdAt: now,
                expiresAt: now.addingTimeInterval(Self.lifetime)))
        return challenge
    }

    /// Takes out the challenge the client data `clientDataJSON` names, if it was issued for
    /// `purpose` and is unused and unexpired: its bytes (for the ceremony to compare) and its
    /// record. Throws ``WebAuthnError`` when the client data is not client data; nil when it
    /// names no such challenge.
    package func consume(clientDataJSON: Data, purpose: PasskeyChallengeRecord.Purpose) throws -> (
        challenge: Data, record: PasskeyChallengeRecord
    )? {
        let clientData = try ClientData.parse(bytes: clientDataJSON)
        guard let challenge = Base64URL.decode(clientData.challenge), challenge.count == Self.length,
            let record = try store.consumePasskeyChallenge(
                digest: Hex.encode(SHA256.hash(challenge)), purpose: purpose, now: clock.now())
        else { return nil }
        return (challenge, record)
    }
}
