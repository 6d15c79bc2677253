import Foundation

/// A ``TokenStore`` that keeps tokens in memory only, for previews, tests and sessions
/// that must not outlive the process.
// `Mutex` would need iOS 18, so an `NSLock` guards the one stored property instead.
public final class InMemoryTokenStore: TokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: StoredTokens?

    /// A store holding `tokens` (none by default).
    public init(_ tokens: StoredTokens? = nil) {
        self.tokens = tokens
    }

    /// The tokens last saved, or nil.
    public func load() -> StoredTokens? {
        lock.lock()
        defer { lock.unlock() }
        return tokens
    }

    /// Replaces the held tokens.
    public func save(_ tokens: StoredTokens) {
        lock.lock()
        defer { lock.unlock() }
        self.tokens = tokens
    }

    /// Forgets the held tokens.
    public func clear() {
        lock.lock()
        defer { lock.unlock() }
        tokens = nil
    }
}
