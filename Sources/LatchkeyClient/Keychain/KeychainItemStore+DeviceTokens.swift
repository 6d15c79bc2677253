package import Foundation

extension KeychainItemStore: DeviceTokenStore {
    /// The Keychain service of the device tokens: the token store's, with `.device` added, so a
    /// sign-out (``clear()``, which deletes the token items of ``KeychainOptions/service``)
    /// never touches them, and every ``KeychainOptions/account`` of the app shares them.
    package var deviceService: String { options.service + ".device" }

    /// How a device-token item is kept, whatever the options say for the session's tokens:
    /// readable from the first unlock on, never leaving this device (not synchronized, not
    /// restored from a backup elsewhere), no Face ID — the token alone proves nothing, and a
    /// sign-in must be able to present it.
    package static var deviceTokenProtection: KeychainProtection {
        KeychainProtection(accessibility: .afterFirstUnlockThisDeviceOnly, userPresence: .none)
    }

    /// The device token kept for `server` (the newest item `<server key>#<n>` of
    /// ``deviceService``); nil when none. Never shows UI, never writes.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_corrupted`, `token_store_locked`,
    ///   `token_store_failed`.
    package func deviceToken(for server: URL) throws -> DeviceToken? {
        let context = access.makeContext()
        guard let newest = try deviceItems(for: server, context: context).max(by: { $0.generation < $1.generation }) else { return nil }
        let data: Data
        do {
            data = try access.data(of: newest.id, context: context)
        } catch where error.status == KeychainStatus.itemNotFound {
            // Replaced or forgotten between the listing and the read.
            return nil
        } catch {
            throw Self.deviceError(error)
        }
        guard let token = DeviceToken(String(decoding: data, as: UTF8.self)) else { throw LatchkeyClientError(.tokenStoreCorrupted) }
        return token
    }

    /// Adds `token` as the next item for `server`, then deletes the older ones: stopped or
    /// failing between the calls, the Keychain holds the old token or the new one.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked`, `token_store_failed`.
    package func saveDeviceToken(_ token: DeviceToken, for server: URL) throws {
        let context = access.makeContext()
        let stored = try deviceItems(for: server, context: context)
        let key = DeviceToken.serverKey(server)
        let protection = Self.deviceTokenProtection
        let label = KeychainItemLabel(protection: protection, biometry: nil, signOut: nil).encoded
        let data = Data(token.value.exposed.utf8)
        var generation = (stored.map(\.generation).max() ?? 0) + 1
        do {
            try access.add(deviceItemID(key, generation), protection: protection, label: label, data: data, context: context)
        } catch where error.status == KeychainStatus.duplicateItem {
            // Another writer added this generation meanwhile.
            generation = (try deviceItems(for: server, context: context).map(\.generation).max() ?? generation) + 1
            do {
                try access.add(deviceItemID(key, generation), protection: protection, label: label, data: data, context: context)
            } catch {
                throw Self.deviceError(error)
            }
        } catch {
            throw Self.deviceError(error)
        }
        for item in stored {
            _ = try? access.delete(item.id, context: context)
        }
    }

    /// Deletes every device-token item for `server`, in every access group; succeeds when none.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_locked`, `token_store_failed`.
    package func forgetDevice(for server: URL) throws {
        let context = access.makeContext()
        for item in try deviceItems(for: server, context: context) {
            do {
                try access.delete(item.id, context: context)
            } catch where error.status == KeychainStatus.itemNotFound {
                continue
            } catch {
                throw Self.deviceError(error)
            }
        }
    }

    /// The device-token items for `server`, with their generations.
    private func deviceItems(for server: URL, context: Access.Context) throws -> [(id: KeychainItemID, generation: Int)] {
        let key = DeviceToken.serverKey(server)
        let listed: [KeychainItemAttributes]
        do {
            listed = try access.items(service: deviceService, context: context)
        } catch where error.status == KeychainStatus.itemNotFound {
            return []
        } catch {
            throw Self.deviceError(error)
        }
        return listed.compactMap { attributes in
            // Generation 0 (the bare key) is never written, so only `<key>#<n>` counts.
            guard let generation = Self.generation(of: attributes.id.account, in: key), generation > 0 else { return nil }
            return (attributes.id, generation)
        }
    }

    private func deviceItemID(_ key: String, _ generation: Int) -> KeychainItemID {
        KeychainItemID(service: deviceService, account: "\(key)#\(generation)", accessGroup: options.accessGroup)
    }

    private static func deviceError(_ failure: KeychainFailure) -> LatchkeyClientError {
        KeychainStatus.error(for: failure.status) ?? LatchkeyClientError(.tokenStoreFailed)
    }
}
