package import Foundation
package import LatchkeyJOSE
import Synchronization

/// The server's token-signing keys, kept in one file (mode 0600; by default in the data
/// directory, `LATCHKEY_SIGNING_KEYS_FILE` to share one file between instances).
///
/// Promises: the first start creates an ES256 key, and of several instances starting at once
/// on one file exactly one creates it; ``rotate(now:)`` adds a new active key and keeps every
/// older key published (``publishedKeys(now:)``) until every token it can have signed has
/// expired (`retiredAt + maximumTokenLifetime`), then drops it; ``reloadIfChanged()`` picks
/// up a rotation made by another process. Only package parts are ever published.
package final class SigningKeyRing: Sendable {
    /// One stored key and its lifetime.
    struct Entry: Codable {
        var jwk: JWK
        var createdAt: Date
        var retiredAt: Date?
    }

    /// The keys as last read or written, with what is derived from them.
    private struct Keys {
        let entries: [Entry]
        let active: SigningKey
        let verifiers: [String: VerificationKey]
        /// The file's bytes these keys came from.
        let data: Data
    }

    private let file: URL
    private let maximumTokenLifetime: TimeInterval
    private let state: Mutex<Keys>

    /// Loads the key file at `file`, creating it with a fresh ES256 key when absent.
    /// `maximumTokenLifetime` is the longest lifetime of a token the keys sign.
    package init(file: URL, maximumTokenLifetime: TimeInterval, now: Date) throws {
        self.file = file
        self.maximumTokenLifetime = maximumTokenLifetime
        if let data = FileManager.default.contents(atPath: file.path) {
            state = Mutex(try Self.keys(from: data, file: file))
        } else {
            let (entry, _) = try Self.newEntry(now: now)
            let created = try Self.encode([entry])
            // link(2) fails when the file exists, so of racing first starts one key wins and
            // every instance loads that one.
            try KeyFile.write(created, to: file, replacing: false)
            state = Mutex(try Self.keys(from: FileManager.default.contents(atPath: file.path) ?? created, file: file))
        }
    }

    /// The key new tokens are signed with.
    package var activeKey: SigningKey {
        state.withLock { $0.active }
    }

    /// The package keys a verifier needs at `now`: the active key and retired keys whose
    /// tokens may still be valid.
    package func publishedKeys(now: Date) -> JWKSet {
        state.withLock { keys in
            JWKSet(keys: keys.entries.filter { Self.isPublished($0, now: now, lifetime: maximumTokenLifetime) }.map(\.jwk.publicKey))
        }
    }

    /// The keys that verify this server's tokens at `now` (those ``publishedKeys(now:)``
    /// lists), each allowing ES256 only.
    package func verificationKeys(now: Date) -> [VerificationKey] {
        state.withLock { keys in
            keys.entries.filter { Self.isPublished($0, now: now, lifetime: maximumTokenLifetime) }
                .compactMap { $0.jwk.kid.flatMap { keys.verifiers[$0] } }
        }
    }

    /// Adds a new active ES256 key, retires the current one at `now`, drops keys whose
    /// tokens have all expired, and saves the file. Returns the new key's `kid`.
    @discardableResult
    package func rotate(now: Date) throws -> String {
        let (entry, key) = try Self.newEntry(now: now)
        var entries = state.withLock { $0.entries }
        for index in entries.indices where entries[index].retiredAt == nil { entries[index].retiredAt = now }
        entries.removeAll { !Self.isPublished($0, now: now, lifetime: maximumTokenLifetime) }
        entries.append(entry)
        let data = try Self.encode(entries)
        try KeyFile.write(data, to: file, replacing: true)
        let keys = try Self.keys(from: data, file: file)
        state.withLock { $0 = keys }
        return key.kid
    }

    /// Reads the file again and, when another process changed it (a rotation), uses its keys.
    /// Returns whether anything changed. Throws when the file became unreadable or damaged;
    /// the keys in use are then kept.
    @discardableResult
    package func reloadIfChanged() throws -> Bool {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw LatchkeyError(.invalidConfiguration, "The signing key file \(file.path) cannot be read")
        }
        guard data != state.withLock({ $0.data }) else { return false }
        let keys = try Self.keys(from: data, file: file)
        state.withLock { $0 = keys }
        return true
    }

    /// Every stored key's `kid`, creation time and retirement time, oldest first.
    package func describe() -> [(kid: String, createdAt: Date, retiredAt: Date?)] {
        state.withLock { $0.entries.map { ($0.jwk.kid ?? "", $0.createdAt, $0.retiredAt) } }
    }

    private static func isPublished(_ entry: Entry, now: Date, lifetime: TimeInterval) -> Bool {
        entry.retiredAt.map { now < $0.addingTimeInterval(lifetime) } ?? true
    }

    private static func keys(from data: Data, file: URL) throws -> Keys {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        guard let entries = try? decoder.decode([Entry].self, from: data),
            let current = entries.last(where: { $0.retiredAt == nil }), let active = try? SigningKey(jwk: current.jwk),
            entries.allSatisfy({ (try? SigningKey(jwk: $0.jwk)) != nil })
        else {
            throw LatchkeyError(.invalidConfiguration, "The signing key file \(file.path) is damaged; restore it from a backup")
        }
        var verifiers: [String: VerificationKey] = [:]
        for entry in entries {
            let key = try VerificationKey(jwk: entry.jwk.publicKey, allowedAlgorithms: [.es256])
            verifiers[key.kid] = key
        }
        return Keys(entries: entries, active: active, verifiers: verifiers, data: data)
    }

    private static func newEntry(now: Date) throws -> (Entry, SigningKey) {
        let key = try SigningKey.generate(.es256)
        return (Entry(jwk: key.privateJWK, createdAt: now, retiredAt: nil), key)
    }

    private static func encode(_ entries: [Entry]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(entries)
    }
}
