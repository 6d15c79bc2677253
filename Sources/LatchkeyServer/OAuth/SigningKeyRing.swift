public import Foundation
public import LatchkeyJOSE
import Synchronization

/// The server's token-signing keys, kept in one file in the data directory (mode 0600).
///
/// Promises: the first start creates an ES256 key; ``rotate(now:)`` adds a new active key
/// and keeps every older key published (``publishedKeys(now:)``) until every token it can
/// have signed has expired (`retiredAt + maximumTokenLifetime`), then drops it. Only public
/// parts are ever published.
public final class SigningKeyRing: Sendable {
    /// One stored key and its lifetime.
    struct Entry: Codable {
        var jwk: JWK
        var createdAt: Date
        var retiredAt: Date?
    }

    private let file: URL
    private let maximumTokenLifetime: TimeInterval
    private let state: Mutex<(entries: [Entry], active: SigningKey, verifiers: [String: VerificationKey])>

    /// Loads the key file at `file`, creating it with a fresh ES256 key when absent.
    /// `maximumTokenLifetime` is the longest lifetime of a token the keys sign.
    public init(file: URL, maximumTokenLifetime: TimeInterval, now: Date) throws {
        self.file = file
        self.maximumTokenLifetime = maximumTokenLifetime
        if let data = FileManager.default.contents(atPath: file.path) {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .millisecondsSince1970
            guard let stored = try? decoder.decode([Entry].self, from: data),
                  let current = stored.last(where: { $0.retiredAt == nil }), let active = try? SigningKey(jwk: current.jwk),
                  stored.allSatisfy({ (try? SigningKey(jwk: $0.jwk)) != nil }) else {
                throw LatchkeyError(.invalidConfiguration, "The signing key file \(file.path) is damaged; restore it from a backup")
            }
            state = Mutex((entries: stored, active: active, verifiers: try Self.verifiers(stored)))
        } else {
            let (entry, key) = try Self.newEntry(now: now)
            state = Mutex((entries: [entry], active: key, verifiers: try Self.verifiers([entry])))
            try save()
        }
    }

    /// The key new tokens are signed with.
    public var activeKey: SigningKey {
        state.withLock { $0.active }
    }

    /// The public keys a verifier needs at `now`: the active key and retired keys whose
    /// tokens may still be valid.
    public func publishedKeys(now: Date) -> JWKSet {
        state.withLock { state in
            JWKSet(keys: state.entries.filter { Self.isPublished($0, now: now, lifetime: maximumTokenLifetime) }.map(\.jwk.publicKey))
        }
    }

    /// The keys that verify this server's tokens at `now` (those ``publishedKeys(now:)``
    /// lists), each allowing ES256 only.
    public func verificationKeys(now: Date) -> [VerificationKey] {
        state.withLock { state in
            state.entries.filter { Self.isPublished($0, now: now, lifetime: maximumTokenLifetime) }
                .compactMap { $0.jwk.kid.flatMap { state.verifiers[$0] } }
        }
    }

    /// Adds a new active ES256 key, retires the current one at `now`, drops keys whose
    /// tokens have all expired, and saves the file. Returns the new key's `kid`.
    @discardableResult
    public func rotate(now: Date) throws -> String {
        let (entry, key) = try Self.newEntry(now: now)
        let verifier = try Self.verifiers([entry])
        state.withLock { state in
            for index in state.entries.indices where state.entries[index].retiredAt == nil { state.entries[index].retiredAt = now }
            state.entries.removeAll { !Self.isPublished($0, now: now, lifetime: maximumTokenLifetime) }
            state.entries.append(entry)
            state.active = key
            state.verifiers.merge(verifier) { $1 }
            let kept = Set(state.entries.compactMap(\.jwk.kid))
            state.verifiers = state.verifiers.filter { kept.contains($0.key) }
        }
        try save()
        return key.kid
    }

    /// Every stored key's `kid`, creation time and retirement time, oldest first.
    public func describe() -> [(kid: String, createdAt: Date, retiredAt: Date?)] {
        state.withLock { $0.entries.map { ($0.jwk.kid ?? "", $0.createdAt, $0.retiredAt) } }
    }

    private static func isPublished(_ entry: Entry, now: Date, lifetime: TimeInterval) -> Bool {
        entry.retiredAt.map { now < $0.addingTimeInterval(lifetime) } ?? true
    }

    private static func verifiers(_ entries: [Entry]) throws -> [String: VerificationKey] {
        var verifiers: [String: VerificationKey] = [:]
        for entry in entries {
            let key = try VerificationKey(jwk: entry.jwk.publicKey, allowedAlgorithms: [.es256])
            verifiers[key.kid] = key
        }
        return verifiers
    }

    private static func newEntry(now: Date) throws -> (Entry, SigningKey) {
        let key = try SigningKey.generate(.es256)
        return (Entry(jwk: key.privateJWK, createdAt: now, retiredAt: nil), key)
    }

    private func save() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try state.withLock { try encoder.encode($0.entries) }
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw LatchkeyError(.invalidConfiguration, "Cannot write the signing key file in \(file.deletingLastPathComponent().path)")
        }
        // rename(2) replaces the file atomically: a crash leaves the old or the new keys, never half.
        guard rename(temporary.path, file.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw LatchkeyError(.invalidConfiguration, "Cannot replace the signing key file \(file.path)")
        }
    }
}
