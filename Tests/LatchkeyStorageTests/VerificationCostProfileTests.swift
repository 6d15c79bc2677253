import Foundation
@testable import LatchkeyCore
import LatchkeyCrypto
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Testing

/// ASVS V6.3.8: a sign-in for an address with no account costs what one for a real account
/// costs. The dummy verification's cost comes from the stored hashes (sampled by
/// ``VerificationCostSampling``), never from the configured parameters when the stored hashes
/// carry others; these tests fail if the two drift apart.
@Suite struct VerificationCostProfileTests {
    @Test("an unknown address costs what one of the stored hashes costs, not the configured cost, and always the same", arguments: StoreFactory.all)
    func dummyCostFollowsStoredHashes(factory: StoreFactory) throws {
        let fixture = try factory.make()
        let store = try fixture.migratedStore()
        // Stored hashes of two other strengths (an import, an older setting); the configured cost is a third.
        let older = PasswordHasher(parameters: try Argon2Parameters(memoryKiB: 19_456, iterations: 2, parallelism: 1))
        let stronger = PasswordHasher(parameters: try Argon2Parameters(memoryKiB: 24_576, iterations: 3, parallelism: 1))
        let configured = PasswordHasher(parameters: try Argon2Parameters(memoryKiB: 32_768, iterations: 2, parallelism: 1))
        for (index, hasher) in [older, older, stronger].enumerated() {
            try store.createAccount(Account(
                id: UUID().uuidString.lowercased(), email: "person\(index)@example.com",
                passwordHash: try hasher.hash(Redacted("correct horse battery staple")), status: .active, credentialVersion: 1,
                locale: "en", createdAt: fixture.clock.now()))
        }
        let profile = VerificationCostProfile(hasher: configured, key: Redacted(Data(repeating: 7, count: 32)))
        #expect(profile.cost(for: "nobody@example.com") == configured.configuredCost)

        VerificationCostSampling(store: store, profile: profile, logger: Logger(sink: MemoryLogSink())).run { false }

        let stored: Set = [older.configuredCost, stronger.configuredCost]
        let addresses = (0..<200).map { "nobody\($0)@example.com" }
        let costs = addresses.map(profile.cost(for:))
        #expect(costs.allSatisfy(stored.contains), "a dummy cost that no stored hash has")
        #expect(Set(costs) == stored, "every stored strength is chosen for some addresses")
        #expect(addresses.map(profile.cost(for:)) == costs, "an address always costs the same")
        // About two in three addresses cost what two of the three accounts cost.
        let olderShare = Double(costs.filter { $0 == older.configuredCost }.count) / Double(costs.count)
        #expect((0.5...0.82).contains(olderShare), "\(olderShare)")
    }

    @Test("malformed stored hashes are skipped: the dummy cost is a well-formed stored hash's")
    func malformedHashesSkipped() throws {
        let configured = PasswordHasher(parameters: try Argon2Parameters(memoryKiB: 32_768, iterations: 2, parallelism: 1))
        let stored = PasswordHasher(parameters: try Argon2Parameters(memoryKiB: 19_456, iterations: 2, parallelism: 1))
        let profile = VerificationCostProfile(hasher: configured, key: Redacted(Data(repeating: 1, count: 32)))
        profile.update(from: ["not a hash", try stored.hash(Redacted("correct horse battery staple")), "$argon2id$v=19$m=x"])
        #expect((0..<50).map { profile.cost(for: "a\($0)@example.com") }.allSatisfy { $0 == stored.configuredCost })
    }
}
