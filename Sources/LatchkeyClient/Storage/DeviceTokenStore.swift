public import Foundation

/// Where the device's ``DeviceToken`` for each server lives between launches: an item of its
/// own beside the session's tokens, in the same medium — the Keychain (``KeychainTokenStore``,
/// `AfterFirstUnlockThisDeviceOnly`, never synchronized), the 0600 file (``FileTokenStore``),
/// or memory (``InMemoryTokenStore``).
///
/// Promises: one token per server (``DeviceToken/serverKey(_:)``), shared by every account
/// signed in from this device; ``TokenStore/clear()`` — a sign-out — leaves it, since it names
/// the device and not the session; only ``forgetDevice(for:)`` removes it. ``FirstPartyLogin``
/// and ``PasskeySignIn`` read it before each sign-in and keep the token the server answers.
public protocol DeviceTokenStore: Sendable {
    /// The device token kept for `server`, or nil when none is kept. Never writes, never shows UI.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_corrupted`, `token_store_locked`,
    ///   `token_store_failed`.
    func deviceToken(for server: URL) throws -> DeviceToken?

    /// Keeps `token` as the device token for `server`, replacing the one kept before.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked`, `token_store_failed`.
    func saveDeviceToken(_ token: DeviceToken, for server: URL) throws

    /// Forgets the device token for `server` ("forget this device"): the next sign-in there is
    /// from a new device, which the server may announce by mail. Succeeds when none is kept.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked`, `token_store_failed`.
    func forgetDevice(for server: URL) throws
}

extension DeviceTokenStore {
    /// The token to present to `server`; nil when none is kept or it cannot be read now (the
    /// sign-in then counts as one from a new device, which is never less safe).
    func presentedDeviceToken(for server: URL) -> DeviceToken? {
        try? deviceToken(for: server)
    }

    /// Keeps `answered` (the `device_token` of a sign-in's reply) for `server` when it differs
    /// from the kept one. A store that cannot write now loses only the recognition: the
    /// sign-in it came with has succeeded and is not undone for it.
    func keepDeviceToken(_ answered: DeviceToken, for server: URL) {
        guard presentedDeviceToken(for: server) != answered else { return }
        try? saveDeviceToken(answered, for: server)
    }
}
