import Foundation
import LatchkeyCore
import LatchkeyStorage
import LatchkeyTestSupport
import Testing

/// What is particular to the SQLite store; the shared behaviour is in StoreContractTests.
@Suite struct SQLiteStoreTests {
    @Test("opening creates missing directories 0700 and the database file 0600")
    func createsPrivateFiles() throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-sqlite-store-\(UUID().uuidString.lowercased())")
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("nested/data/latchkey.sqlite").path

        let store = try SQLiteStore(path: path, mailBox: .forTests)
        try store.migrate()

        let directory = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("nested/data").path)
        let file = try FileManager.default.attributesOfItem(atPath: path)
        #expect((directory[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("a path whose directory cannot be created throws storage_error")
    func unusablePath() throws {
        let blocker = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-blocker-\(UUID().uuidString.lowercased())")
        try Data().write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }

        let error = try #require(throws: LatchkeyError.self) {
            try SQLiteStore(path: blocker.appendingPathComponent("data/latchkey.sqlite").path, mailBox: .forTests)
        }
        #expect(error.code == .storage)
    }

    @Test("data written by one store is read by another opened later on the same file")
    func persists() throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-sqlite-store-\(UUID().uuidString.lowercased())")
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("latchkey.sqlite").path
        let account = Account(
            id: UUID().uuidString.lowercased(), email: "kept@example.com", passwordHash: "$argon2id$x",
            status: .active, credentialVersion: 3, locale: "pt", createdAt: Date(timeIntervalSince1970: 1_800_000_000.123))

        do {
            let store = try SQLiteStore(path: path, mailBox: .forTests)
            try store.migrate()
            try store.createAccount(account)
        }
        let reopened = try SQLiteStore(path: path, mailBox: .forTests)
        #expect(try reopened.migrate() == [])
        #expect(try reopened.account(email: "kept@example.com") == account)
    }
}
