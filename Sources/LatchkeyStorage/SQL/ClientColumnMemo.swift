import LatchkeyCore
import Synchronization

/// The decoded JSON columns of an `oauth_clients` row (its redirect URIs, scope descriptions
/// and post-logout redirect URIs), remembered by their stored text.
///
/// Every token request reads its client's row again (a deleted client must stop working at
/// once), and decoding those columns (`JSONDecoder`, then each redirect URI's checks) was
/// a large part of a refresh grant's own work, repeated for the same few clients (measured:
/// docs/performance.md, "Client columns decoded once per text"). The decoded value depends on
/// the text alone, so what the memo returns is exactly what decoding that text gives; the row
/// itself is still read every time. Bounded: once it holds ``limit`` entries it starts over.
final class ClientColumnMemo: Sendable {
    /// The columns, decoded.
    struct Columns: Sendable {
        let redirectURIs: [RedirectURI]
        let scopeDescriptions: [String: String]
        let postLogoutRedirectURIs: [RedirectURI]
    }

    private struct Key: Hashable {
        let redirectURIs: String
        let scopeDescriptions: String
        let postLogoutRedirectURIs: String
    }

    /// The most entries kept; past it the memo is emptied.
    let limit: Int
    private let entries = Mutex<[Key: Columns]>([:])

    /// An empty memo of at most `limit` entries.
    init(limit: Int = 256) {
        precondition(limit > 0, "a memo holds at least one entry")
        self.limit = limit
    }

    /// How many entries it holds now.
    var count: Int { entries.withLock { $0.count } }

    /// The columns stored as `redirectURIs`, `scopeDescriptions` and `postLogoutRedirectURIs`:
    /// remembered, or decoded by `decode` (outside the lock) and remembered. What `decode`
    /// throws is thrown, and nothing remembered.
    func columns(
        redirectURIs: String, scopeDescriptions: String, postLogoutRedirectURIs: String,
        decode: (String, String, String) throws -> Columns
    ) rethrows -> Columns {
        let key = Key(redirectURIs: redirectURIs, scopeDescriptions: scopeDescriptions, postLogoutRedirectURIs: postLogoutRedirectURIs)
        if let known = entries.withLock({ $0[key] }) { return known }
        let decoded = try decode(redirectURIs, scopeDescriptions, postLogoutRedirectURIs)
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = decoded
        }
        return decoded
    }
}
