import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import Testing

@Suite struct SQLiteDatabaseTests {
    @Test("every bound value is stored and read back unchanged, and every storage class is read")
    func valuesRoundTrip() throws {
        let (database, directory) = try openScratchDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let values: [SQLValue] = [
            .text(""), .text("ação — عربى \u{1F512}"), .text("before\u{0}after"), .text(nil),
            .integer(.min), .integer(0), .integer(.max), .integer(nil),
        ]
        let stored = try database.withConnection { connection in
            try connection.execute("CREATE TABLE samples (position INTEGER PRIMARY KEY, sample)")
            for (position, value) in values.enumerated() {
                try connection.execute("INSERT INTO samples (position, sample) VALUES (?, ?)", [.integer(Int64(position)), value])
            }
            return try connection.query("SELECT sample FROM samples ORDER BY position")
        }
        let expected: [SQLiteValue] = [
            .text(""), .text("ação — عربى \u{1F512}"), .text("before\u{0}after"), .null,
            .integer(.min), .integer(0), .integer(.max), .null,
        ]
        #expect(try stored.map { try $0.value("sample") } == expected)
        let literals = try database.withConnection { try $0.query("SELECT -1.5 AS real, X'0001feff' AS blob, X'' AS empty") }
        let row = try #require(literals.first)
        #expect(try row.value("real") == .real(-1.5))
        #expect(try row.value("blob") == .blob(Data([0, 1, 0xfe, 0xff])))
        #expect(try row.value("empty") == .blob(Data()))
    }

    @Test("the writer and every reader use WAL, NORMAL sync, secure delete, foreign keys, temporary files in memory and a busy timeout")
    func configuration() throws {
        let (database, directory) = try openScratchDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        func settings(_ connection: borrowing SQLiteDatabase.Connection) throws -> [String: Int64] {
            let journal = try connection.query("PRAGMA journal_mode").first?.text("journal_mode")
            var settings: [String: Int64] = ["wal": journal == "wal" ? 1 : 0]
            for (pragma, column) in [
                ("synchronous", "synchronous"), ("secure_delete", "secure_delete"), ("foreign_keys", "foreign_keys"),
                ("busy_timeout", "timeout"), ("query_only", "query_only"), ("temp_store", "temp_store"),
            ] {
                settings[pragma] = try connection.query("PRAGMA \(pragma)").first?.integer(column)
            }
            return settings
        }
        let expected: [String: Int64] = [
            "wal": 1, "synchronous": 1, "secure_delete": 1, "foreign_keys": 1,
            "busy_timeout": Int64(SQLiteDatabase.busyTimeoutMilliseconds), "query_only": 0,
            // 2: MEMORY, where a batch's savepoint journal stays (see SQLiteConnection.init).
            "temp_store": 2,
        ]
        #expect(try database.withConnection { try settings($0) } == expected)
        var readerExpected = expected
        readerExpected["query_only"] = 1
        #expect(try database.withReader { try settings($0) } == readerExpected)
    }

    @Test("sustained writes keep the WAL bounded: once a commit leaves it at 1 000 frames the writer copies it back, and every row is there after a reopen")
    func walStaysBounded() throws {
        let (database, directory) = try openScratchDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("test.sqlite").path
        try database.withConnection { try $0.execute("CREATE TABLE pages (body BLOB NOT NULL)") }
        // Each row fills a leaf cell and an overflow page or two: 3 000 commits write some
        // 9 000 frames, nine times the checkpoint's mark.
        for _ in 0..<3_000 {
            try database.transaction { try $0.execute("INSERT INTO pages (body) VALUES (randomblob(6000))", []) }
        }
        let walBytes = try #require(FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
        // The WAL's header, and at most the mark plus the frames of the commit that reached it.
        #expect(walBytes <= 32 + (1_000 + 16) * (24 + 4_096))
        let reopened = try SQLiteDatabase(path: path)
        #expect(try reopened.withReader { try $0.query("SELECT count(*) AS rows FROM pages", []).first?.integer("rows") } == 3_000)
    }

    @Test("a transaction whose body throws leaves no trace, and one that returns commits")
    func transactionRollsBack() throws {
        let (database, directory) = try openScratchDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        try database.withConnection { try $0.execute("CREATE TABLE notes (body TEXT NOT NULL)") }
        let error = try #require(throws: LatchkeyError.self) {
            try database.transaction { connection in
                try connection.execute("INSERT INTO notes (body) VALUES (?)", [.text("lost")])
                throw LatchkeyError(.internalError, "The body failed.")
            }
        }
        #expect(error.code == .internalError)
        try database.transaction { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("kept")]) }
        let rows = try database.withConnection { try $0.query("SELECT body FROM notes") }
        #expect(try rows.map { try $0.text("body") } == ["kept"])
    }

    @Test("a failing statement throws storage_error with SQLite's message only in the detail")
    func errors() throws {
        let (database, directory) = try openScratchDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        try database.withConnection { try $0.execute("CREATE TABLE people (email TEXT NOT NULL UNIQUE)") }
        try database.withConnection { try $0.execute("INSERT INTO people (email) VALUES ('a@example.com')") }

        let duplicate = try #require(throws: LatchkeyError.self) {
            try database.withConnection { try $0.execute("INSERT INTO people (email) VALUES ('a@example.com')") }
        }
        #expect(duplicate.code == .storage)
        #expect(!duplicate.message.contains("UNIQUE"))
        #expect(duplicate.detail?.contains("UNIQUE constraint failed: people.email") == true)

        let syntax = try #require(throws: LatchkeyError.self) {
            try database.withConnection { try $0.query("SELEC 1") }
        }
        #expect(syntax.code == .storage)
        #expect(syntax.detail?.contains("syntax error") == true)
    }

    @Test("a call with two statements or the wrong number of values is refused")
    func misuse() throws {
        let (database, directory) = try openScratchDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let twoStatements = try #require(throws: LatchkeyError.self) {
            try database.withConnection { try $0.execute("CREATE TABLE a (x); CREATE TABLE b (y)") }
        }
        #expect(twoStatements.code == .storage)
        let tables = try database.withConnection { try $0.query("SELECT name FROM sqlite_master") }
        #expect(tables.isEmpty)

        let missingValue = try #require(throws: LatchkeyError.self) {
            try database.withConnection { try $0.query("SELECT ? AS one, ? AS two", [.integer(1)]) }
        }
        #expect(missingValue.code == .storage)
    }

    @Test("reading a column as the wrong type or by a missing name throws storage_error")
    func rowTypeChecks() throws {
        let (database, directory) = try openScratchDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let row = try #require(try database.withConnection { try $0.query("SELECT 'text' AS word, NULL AS missing") }.first)
        #expect(try row.text("word") == "text")
        #expect(try row.optionalInteger("missing") == nil)
        #expect(throws: LatchkeyError.self) { try row.integer("word") }
        #expect(throws: LatchkeyError.self) { try row.text("missing") }
        #expect(throws: LatchkeyError.self) { try row.text("absent") }
    }

    @Test("a database that cannot be opened throws storage_error")
    func unopenable() throws {
        let error = try #require(throws: LatchkeyError.self) {
            try SQLiteDatabase(path: "/nonexistent-\(UUID().uuidString)/latchkey.sqlite")
        }
        #expect(error.code == .storage)
    }

    private func openScratchDatabase() throws -> (SQLiteDatabase, URL) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-sqlite-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (try SQLiteDatabase(path: directory.appendingPathComponent("test.sqlite").path), directory)
    }
}
