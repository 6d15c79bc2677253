public import Foundation

/// A ``TokenStore`` (and ``DeviceTokenStore``) that keeps tokens in memory only, for previews,
/// tests and sessions that must not outlive the process. ``clear()`` leaves the device tokens.
// `Mutex` would need iOS 18, so an `NSLock` guards the stored properties instead.
public final class InMemoryTokenStore: TokenStore, DeviceTokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: StoredTokens?
    private var deviceTokens: [String: DeviceToken] = [:]

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

    /// The device token held for `server`.
    public func deviceToken(for server: URL) -> DeviceToken? {
        lock.lock()
        defer { lock.unlock() }
        return deviceTokens[DeviceToken.serverKey(server)]
    }

    /// Holds `token` for `server`.
    public func saveDeviceToken(_ token: DeviceToken, for server: URL) {
        lock.lock()
        defer { lock.unlock() }
        deviceTokens[DeviceToken.serverKey(server)] = token
    }

    /// Forgets the device token held for `server`.
    public func forgetDevice(for server: URL) {
        lock.lock()
        defer { lock.unlock() }
        deviceTokens[DeviceToken.serverKey(server)] = nil
    }
}
