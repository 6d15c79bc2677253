package import Foundation
package import LatchkeyJOSE
import Synchronization

/// The server's token-signing keys, kept in one file (mode 0600; by default in the data
/// directory, `LATCHKEY_SIGNING_KEYS_FILE` to share one file between instances): one active
/// key for each of ``algorithms`` — ES256 signs access tokens, and ID tokens are signed with
/// the algorithm their client is registered for (RS256 unless told otherwise).
///
/// Promises: the first start creates a key for every algorithm, and of several instances
/// starting at once on one file exactly one creates them; a file written before an algorithm
/// was offered gets its key added once (under a lock, re-read inside it); ``rotate(now:)``
/// adds a new active key for every algorithm and keeps every older key published
/// (``publishedKeyDocument(now:)``) until every token it can have signed has expired
/// (`retiredAt + maximumTokenLifetime`), then drops it; ``reloadIfChanged()`` picks up a
/// rotation made by another process. Only public parts are ever published.
package final class SigningKeyRing: Sendable {
    /// The algorithms the ring keeps an active key for, in the order metadata lists them:
    /// RS256 first, as OpenID Connect makes it the default for ID tokens.
    package static let algorithms: [JWSAlgorithm] = [.rs256, .es256, .edDSA]

    /// One stored key and its lifetime.
    struct Entry: Codable {
        var jwk: JWK
        var createdAt: Date
        var retiredAt: Date?
    }

    /// The keys as last read or written, with what is derived from them.
    private struct Keys {
        let entries: [Entry]
        let active: [JWSAlgorithm: SigningKey]
        /// The ES256 keys that verify access tokens, by kid.
        let accessTokenVerifiers: [String: VerificationKey]
        /// Every key, each verifying its own algorithm only, by kid: what verifies an ID token.
        let idTokenVerifiers: [String: VerificationKey]
        /// The file's bytes these keys came from.
        let data: Data
        /// The last ``publishedKeyDocument(now:)``, with the instants between which it lists
        /// the keys to publish: from the last time a key aged out until the next (nil: no
        /// key is left to age out).
        var document: (body: Data, since: Date, until: Date?)?
    }

    private let file: URL
    private let maximumTokenLifetime: TimeInterval
    private let state: Mutex<Keys>

    /// Loads the key file at `file`, creating it with a fresh key for every algorithm when
    /// absent, and adding a key for an algorithm the file has none for.
    /// `maximumTokenLifetime` is the longest lifetime of a token the keys sign.
    package init(file: URL, maximumTokenLifetime: TimeInterval, now: Date) throws {
        self.file = file
        self.maximumTokenLifetime = maximumTokenLifetime
        if FileManager.default.contents(atPath: file.path) == nil {
            let created = try Self.encode(try Self.algorithms.map { try Self.newEntry($0, now: now) })
            // link(2) fails when the file exists, so of racing first starts one set of keys
            // wins and every instance loads that one.
            try KeyFile.write(created, to: file, replacing: false)
        }
        var keys = try Self.keys(from: try Self.read(file), file: file)
        if Self.algorithms.contains(where: { keys.active[$0] == nil }) {
            keys = try KeyFile.whileLocked(file) {
                // Another instance may have added the keys while this one waited.
                var entries = try Self.keys(from: try Self.read(file), file: file).entries
                for algorithm in Self.algorithms where !entries.contains(where: { Self.isActive($0, algorithm) }) {
                    entries.append(try Self.newEntry(algorithm, now: now))
                }
                return try Self.save(entries, to: file)
            }
        }
        state = Mutex(keys)
    }

    /// The key new access tokens are signed with (ES256).
    package var activeKey: SigningKey {
        activeKey(for: .es256)
    }

    /// The key that signs new tokens with `algorithm`, one of ``algorithms``.
    package func activeKey(for algorithm: JWSAlgorithm) -> SigningKey {
        state.withLock { keys in
            guard let key = keys.active[algorithm] else {
                preconditionFailure("the key ring holds an active key for every algorithm it offers")
            }
            return key
        }
    }

    /// The public keys a verifier needs at `now` — the active keys and retired keys whose
    /// tokens may still be valid, of every algorithm — as the JWK Set document
    /// `/.well-known/jwks.json` serves (sorted keys, slashes unescaped). Encoded once for
    /// each set of published keys (a rotation, a reload or a retired key ageing out makes a
    /// new one), so a request in between only compares two instants.
    package func publishedKeyDocument(now: Date) throws -> Data {
        try state.withLock { keys in
            if let document = keys.document, document.since <= now, document.until.map({ now < $0 }) ?? true {
                return document.body
            }
            let published = publishedEntries(of: keys, at: now)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = try encoder.encode(JWKSet(keys: published.map(\.jwk.publicKey)))
            // The set is the same from the last time a key aged out until the next.
            let agingOut = keys.entries.compactMap { $0.retiredAt?.addingTimeInterval(maximumTokenLifetime) }
            keys.document = (body, agingOut.filter { $0 <= now }.max() ?? .distantPast, agingOut.filter { $0 > now }.min())
            return body
        }
    }

    /// The keys that verify this server's access tokens at `now`: the ES256 keys that
    /// ``publishedKeyDocument(now:)`` lists, each allowing ES256 only.
    package func verificationKeys(now: Date) -> [VerificationKey] {
        state.withLock { keys in
            publishedEntries(of: keys, at: now).compactMap { $0.jwk.kid.flatMap { keys.accessTokenVerifiers[$0] } }
        }
    }

    /// The keys that verify this server's ID tokens at `now`: every key
    /// ``publishedKeyDocument(now:)`` lists, of every algorithm, each allowing its own only.
    package func idTokenVerificationKeys(now: Date) -> [VerificationKey] {
        state.withLock { keys in
            publishedEntries(of: keys, at: now).compactMap { $0.jwk.kid.flatMap { keys.idTokenVerifiers[$0] } }
        }
    }

    /// Adds a new active key for every algorithm, retires the current ones at `now`, drops
    /// keys whose tokens have all expired, and saves the file (reading it again under the
    /// file's lock, so a rotation by another process is never lost). Returns the new keys,
    /// in the order of ``algorithms``.
    @discardableResult
    package func rotate(now: Date) throws -> [SigningKey] {
        let keys = try KeyFile.whileLocked(file) {
            var entries = try Self.keys(from: try Self.read(file), file: file).entries
            for index in entries.indices where entries[index].retiredAt == nil { entries[index].retiredAt = now }
            entries.removeAll { !Self.isPublished($0, now: now, lifetime: maximumTokenLifetime) }
            entries += try Self.algorithms.map { try Self.newEntry($0, now: now) }
            return try Self.save(entries, to: file)
        }
        state.withLock { $0 = keys }
        return Self.algorithms.compactMap { keys.active[$0] }
    }

    /// Removes the key `kid` from the file at once — for a key that may have leaked: it is no
    /// longer published, and tokens it signed stop verifying here now and on every instance
    /// sharing the file at its next ``reloadIfChanged()`` (``SigningKeyReload``: within a
    /// second). When it is the active key of its algorithm, a new key of that algorithm takes
    /// its place first, so signing goes on. Saved under the file's lock, as ``rotate(now:)``.
    /// Returns the revoked key's algorithm and the new key, if one was made. Throws
    /// `invalid_request` when no stored key has this kid.
    @discardableResult
    package func revoke(kid: String, now: Date) throws -> (algorithm: String, replacement: SigningKey?) {
        let (keys, algorithm, wasActive) = try KeyFile.whileLocked(file) { () throws -> (Keys, String, Bool) in
            var entries = try Self.keys(from: try Self.read(file), file: file).entries
            guard let index = entries.firstIndex(where: { $0.jwk.kid == kid }) else {
                throw LatchkeyError(.invalidRequest, "No signing key has the kid \(kid); `latchkey keys list` shows them.")
            }
            let entry = entries.remove(at: index)
            let algorithm = entry.jwk.alg ?? ""
            if entry.retiredAt == nil, let replaced = Self.algorithms.first(where: { $0.rawValue == algorithm }) {
                entries.append(try Self.newEntry(replaced, now: now))
            }
            return (try Self.save(entries, to: file), algorithm, entry.retiredAt == nil)
        }
        state.withLock { $0 = keys }
        let replacement = wasActive ? Self.algorithms.first { $0.rawValue == algorithm }.flatMap { keys.active[$0] } : nil
        return (algorithm, replacement)
    }

    /// Reads the file again and, when another process changed it (a rotation), uses its keys.
    /// Returns whether anything changed. Throws when the file became unreadable or damaged;
    /// the keys in use are then kept.
    @discardableResult
    package func reloadIfChanged() throws -> Bool {
        let data = try Self.read(file)
        guard data != state.withLock({ $0.data }) else { return false }
        let keys = try Self.keys(from: data, file: file)
        state.withLock { $0 = keys }
        return true
    }

    /// Every stored key's `kid`, algorithm, creation time and retirement time, oldest first.
    package func describe() -> [(kid: String, algorithm: String, createdAt: Date, retiredAt: Date?)] {
        state.withLock { $0.entries.map { ($0.jwk.kid ?? "", $0.jwk.alg ?? "", $0.createdAt, $0.retiredAt) } }
    }

    /// The entries of `keys` published at `now` (see ``isPublished(_:now:lifetime:)``).
    private func publishedEntries(of keys: Keys, at now: Date) -> [Entry] {
        keys.entries.filter { Self.isPublished($0, now: now, lifetime: maximumTokenLifetime) }
    }

    private static func isPublished(_ entry: Entry, now: Date, lifetime: TimeInterval) -> Bool {
        entry.retiredAt.map { now < $0.addingTimeInterval(lifetime) } ?? true
    }

    private static func isActive(_ entry: Entry, _ algorithm: JWSAlgorithm) -> Bool {
        entry.retiredAt == nil && entry.jwk.alg == algorithm.rawValue
    }

    private static func read(_ file: URL) throws -> Data {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw LatchkeyError(.invalidConfiguration, "The signing key file \(file.path) cannot be read")
        }
        return data
    }

    /// Writes `entries` over the file and returns them loaded.
    private static func save(_ entries: [Entry], to file: URL) throws -> Keys {
        let data = try encode(entries)
        try KeyFile.write(data, to: file, replacing: true)
        return try keys(from: data, file: file)
    }

    /// The keys in `data`. Every entry must be a valid private key whose `alg` is its key's;
    /// the active key of an algorithm is its newest unretired entry.
    private static func keys(from data: Data, file: URL) throws -> Keys {
        let damaged = LatchkeyError(.invalidConfiguration, "The signing key file \(file.path) is damaged; restore it from a backup")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        guard let entries = try? decoder.decode([Entry].self, from: data) else { throw damaged }
        var active: [JWSAlgorithm: SigningKey] = [:]
        var accessTokenVerifiers: [String: VerificationKey] = [:]
        var idTokenVerifiers: [String: VerificationKey] = [:]
        for entry in entries {
            guard let key = try? SigningKey(jwk: entry.jwk), entry.jwk.alg == key.algorithm.rawValue else { throw damaged }
            if entry.retiredAt == nil { active[key.algorithm] = key }
            if key.algorithm == .es256 { accessTokenVerifiers[key.kid] = key.verificationKey }
            idTokenVerifiers[key.kid] = key.verificationKey
        }
        guard active[.es256] != nil else { throw damaged }
        return Keys(
            entries: entries, active: active, accessTokenVerifiers: accessTokenVerifiers, idTokenVerifiers: idTokenVerifiers,
            data: data)
    }

    private static func newEntry(_ algorithm: JWSAlgorithm, now: Date) throws -> Entry {
        Entry(jwk: try SigningKey.generate(algorithm).privateJWK, createdAt: now, retiredAt: nil)
    }

    private static func encode(_ entries: [Entry]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(entries)
    }
}
