import Foundation
import LatchkeyCore
import LatchkeyServer
import Testing
import LatchkeyTestSupport

/// Administration commands never quietly use an empty database or start a key file: only
/// `serve` and `migrate` create them; every other command is told where it looked.
@Suite struct ExistingStoreTests {
    func configuration(_ directory: URL) throws -> Configuration {
        try Configuration.load(environment: ["LATCHKEY_DATA_DIR": directory.path])
    }

    @Test("a data directory without a database is refused, naming the file, and nothing is created")
    func missingDatabase() throws {
        let folder = try TemporaryDirectory()
        let directory = folder.url.appendingPathComponent("data")
        let error = try #require(throws: LatchkeyError.self) { try ServerApplication.openExistingStore(configuration(directory)) }
        #expect(error.message.contains(directory.appendingPathComponent("latchkey.sqlite3").path))
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test("a database without Latchkey's tables, or behind this build, is refused until migrated")
    func unmigratedDatabase() throws {
        let folder = try TemporaryDirectory()
        let configuration = try configuration(folder.url)
        let store = try ServerApplication.openStore(configuration, mailBox: try ServerApplication.openSecretBox(configuration), migrating: false)
        let empty = try #require(throws: LatchkeyError.self) { try ServerApplication.openExistingStore(configuration) }
        #expect(empty.message.contains("has no Latchkey tables"))
        try store.migrate()
        #expect(try ServerApplication.openExistingStore(configuration).allAccounts() == [])
    }

    @Test("keys commands refuse a missing key file, naming it; migrate creates the key files once")
    func keyFiles() throws {
        let folder = try TemporaryDirectory()
        let configuration = try configuration(folder.url)
        let error = try #require(throws: LatchkeyError.self) { try ServerApplication.openKeyRing(configuration, creating: false) }
        #expect(error.message.contains(configuration.signingKeysFile.path))
        #expect(!FileManager.default.fileExists(atPath: configuration.signingKeysFile.path))
        #expect(
            try ServerApplication.createKeyFiles(configuration)
                == [configuration.signingKeysFile.path, configuration.addressKeyFile.path, configuration.secretKeyFile.path])
        #expect(try ServerApplication.createKeyFiles(configuration) == [])
        #expect(try !ServerApplication.openKeyRing(configuration, creating: false).describe().isEmpty)
    }
}
