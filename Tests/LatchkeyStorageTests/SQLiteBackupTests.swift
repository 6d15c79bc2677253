import Foundation
import LatchkeyCore
import LatchkeyStorage
import LatchkeyTestSupport
import Synchronization
import Testing

/// `latchkey backup`'s copy: made while the database is written, complete, private, never
/// over an existing file.
@Suite struct SQLiteBackupTests {
    @Test("a copy made while another thread writes holds a consistent state, is mode 0600 and opens as a store")
    func copyWhileWriting() throws {
        let folder = try TemporaryDirectory()
        let source = folder.url.appendingPathComponent("latchkey.sqlite3").path
        let store = try SQLiteStore(path: source, mailBox: .forTests)
        try store.migrate()
        for index in 0..<200 { try store.createAccount(Self.account(index)) }

        let progress = Progress()
        let summaries = Mutex<[SQLiteBackup.Summary]>([])
        let destination = folder.url.appendingPathComponent("backup.sqlite3").path
        runOnThreads(2) { thread in
            if thread == 0 {
                var index = 200
                while progress.writing.load(ordering: .relaxed) {
                    _ = try? store.createAccount(Self.account(index))
                    index += 1
                    progress.written.store(index, ordering: .relaxed)
                }
            } else {
                while progress.written.load(ordering: .relaxed) < 220 { usleep(1000) }
                if let summary = try? SQLiteBackup.copy(databaseAt: source, to: destination) { summaries.withLock { $0.append(summary) } }
                progress.writing.store(false, ordering: .relaxed)
            }
        }
        let summary = try #require(summaries.withLock { $0.first })
        let written = progress.written.load(ordering: .relaxed)

        #expect(summary.pages > 0 && summary.bytes == summary.pages * 4096)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: destination)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let copy = try SQLiteStore(path: destination, mailBox: .forTests, creating: false)
        let accounts = try copy.allAccounts()
        // Every account of one moment: the first 220 at least, and no gap.
        #expect(accounts.count >= 220 && accounts.count <= written)
        #expect(Set(accounts.map(\.id)) == Set((0..<accounts.count).map { "account-\($0)" }))
        #expect(try copy.schemaVersions().applied == store.schemaVersions().applied)
        #expect(try folder.fileNames().filter { $0.contains("partial") } == [])

        let again = #expect(throws: LatchkeyError.self) { try SQLiteBackup.copy(databaseAt: source, to: destination) }
        #expect(again?.message.contains("exists already") == true)
        let missing = #expect(throws: LatchkeyError.self) {
            try SQLiteBackup.copy(databaseAt: folder.url.appendingPathComponent("none.sqlite3").path, to: destination + "2")
        }
        #expect(missing?.code == .storage)
        #expect(!FileManager.default.fileExists(atPath: destination + "2"))
    }

    private static func account(_ index: Int) -> Account {
        Account(
            id: "account-\(index)", email: "person\(index)@example.com", passwordHash: "$argon2id$x", status: .active,
            credentialVersion: 0, locale: nil, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    /// The writer's progress, shared with the thread that backs up.
    private final class Progress: Sendable {
        let writing = Atomic<Bool>(true)
        let written = Atomic<Int>(0)
    }
}
