import Foundation
import LatchkeyClient

/// An ``InMemoryTokenStore`` that another writer changes right after one chosen `load()`
/// — a sign-out or a new sign-in landing while a refresh request is on the wire — so a
/// test can put that interleaving at an exact point instead of racing for it.
final class InterleavingTokenStore: TokenStore, @unchecked Sendable {
    private let tokens: InMemoryTokenStore
    private let lock = NSLock()
    private var reads = 0
    private let changedAfterRead: Int
    private let change: @Sendable (InMemoryTokenStore) -> Void

    /// A store holding `initial`; `change` runs on its tokens right after read number
    /// `changedAfterRead` (counting from 1) has taken its value.
    init(_ initial: StoredTokens, changedAfterRead: Int, change: @escaping @Sendable (InMemoryTokenStore) -> Void) {
        tokens = InMemoryTokenStore(initial)
        self.changedAfterRead = changedAfterRead
        self.change = change
    }

    func load() -> StoredTokens? {
        lock.lock()
        defer { lock.unlock() }
        let loaded = tokens.load()
        reads += 1
        if reads == changedAfterRead { change(tokens) }
        return loaded
    }

    func save(_ tokens: StoredTokens) { self.tokens.save(tokens) }

    func clear() { tokens.clear() }
}
