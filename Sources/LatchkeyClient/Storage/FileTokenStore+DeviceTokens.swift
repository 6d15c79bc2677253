public import Foundation

extension FileTokenStore: DeviceTokenStore {
    /// The file holding the device token for `server`: `device-<32 hex digits>.json`, named by
    /// the SHA-256 of ``DeviceToken/serverKey(_:)`` (any server name makes a short, safe name).
    public static func deviceFileName(for server: URL) -> String {
        "device-" + SHA256Digest(hashing: Array(DeviceToken.serverKey(server).utf8)).hexString.prefix(32) + ".json"
    }

    /// The Data Protection class of a device-token file: readable from the first unlock on, as
    /// the Keychain item's `AfterFirstUnlockThisDeviceOnly`.
    static let deviceTokenProtection = FileProtection(matching: .afterFirstUnlockThisDeviceOnly)

    /// The device token kept for `server`; nil when there is no file for it.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_corrupted` when the file is not a device
    ///   token for `server`, `token_store_failed`, `token_store_locked`.
    public func deviceToken(for server: URL) throws -> DeviceToken? {
        guard let data = try read(named: Self.deviceFileName(for: server)) else { return nil }
        guard data.count <= Self.maximumFileSize, let kept = try? JSONDecoder().decode(KeptDeviceToken.self, from: data),
            kept.server == DeviceToken.serverKey(server), let token = DeviceToken(kept.deviceToken)
        else { throw LatchkeyClientError(.tokenStoreCorrupted) }
        return token
    }

    /// Atomically replaces the device-token file for `server`: created with mode 0600 (and its
    /// Data Protection class) before the token is written, in the 0700 directory.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`, `token_store_locked`.
    public func saveDeviceToken(_ token: DeviceToken, for server: URL) throws {
        let data: Data
        do {
            data = try JSONEncoder().encode(KeptDeviceToken(server: DeviceToken.serverKey(server), deviceToken: token.value.exposed))
        } catch {
            throw LatchkeyClientError(.tokenStoreFailed)
        }
        try write(data, named: Self.deviceFileName(for: server), protection: Self.deviceTokenProtection)
    }

    /// Deletes the device-token file for `server`; succeeds when there is none.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`.
    public func forgetDevice(for server: URL) throws {
        try remove(named: Self.deviceFileName(for: server))
    }
}

/// A device-token file: `{"server", "device_token"}`, the server named so that the file tells
/// what it is for.
private struct KeptDeviceToken: Codable {
    var server: String
    var deviceToken: String

    enum CodingKeys: String, CodingKey {
        case server
        case deviceToken = "device_token"
    }
}
