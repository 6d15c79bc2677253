import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Synchronization
import Testing

/// The SQLite database's readers and writer on real threads: reads never wait for a write,
/// every pool is bounded, and statements are prepared once per connection.
@Suite struct SQLiteConnectionPoolTests {
    @Test("reads proceed on real threads while a write transaction is open, and see only committed data")
    func readersDoNotWaitForTheWriter() throws {
        let scratch = try ScratchDatabase()
        let database = scratch.database
        // Held open until the reads below are done; a read that waited for it would only
        // return after it gives up, and then see the row.
        let held = try #require(HeldWriteTransaction(on: database, inserting: "pending"))

        let counts = Mutex<[Int64]>([])
        runOnThreads(4) { _ in
            let count = try? database.read { try $0.query("SELECT COUNT(*) AS notes FROM notes", []).first?.integer("notes") }
            counts.withLock { $0.append(count ?? -1) }
        }
        #expect(counts.withLock { $0 } == [0, 0, 0, 0])

        #expect(held.commit())
        #expect(try scratch.noteCount() == 1)
    }

    @Test("a write transaction waits its turn for the writer, and past the busy timeout fails with storage_unavailable")
    func writerWaitIsBounded() throws {
        let scratch = try ScratchDatabase(busyTimeoutMilliseconds: 200)
        let database = scratch.database
        let held = try #require(HeldWriteTransaction(on: database, inserting: "first"))

        let error = try #require(throws: LatchkeyError.self) {
            try database.transaction { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("second")]) }
        }
        #expect(error.code == .storageUnavailable)
        #expect(error.message == "The database is busy.")
        #expect(try scratch.noteCount() == 0)

        #expect(held.commit())
        try database.transaction { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("third")]) }
        #expect(try scratch.noteCount() == 2)
    }

    @Test("no more reader connections than the limit are ever open or lent at once")
    func readerPoolIsBounded() throws {
        let scratch = try ScratchDatabase(readers: 2)
        let database = scratch.database
        let lent = Mutex((now: 0, most: 0))
        let everyoneIn = DispatchSemaphore(value: 0)
        let threads = 6
        let failures = Atomic<Int>(0)
        runOnThreads(threads) { _ in
            do {
                try database.read { connection in
                    let now = lent.withLock { lent in
                        lent.now += 1
                        lent.most = max(lent.most, lent.now)
                        return lent.now
                    }
                    _ = try connection.query("SELECT COUNT(*) AS notes FROM notes", [])
                    // Each holds its reader until all are in (only an unbounded pool lets them)
                    // or half a second passed; then the waiting ones take their turn.
                    if now == threads {
                        for _ in 0..<threads { everyoneIn.signal() }
                    }
                    _ = everyoneIn.wait(timeout: .now() + .milliseconds(500))
                    lent.withLock { $0.now -= 1 }
                }
            } catch {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(lent.withLock { $0.most } == 2)
        #expect(database.openReaders == 2)
    }

    @Test("a statement is prepared once per connection and reused by every later call with the same SQL")
    func statementsArePreparedOnce() throws {
        let scratch = try ScratchDatabase()
        let database = scratch.database
        let insert = "INSERT INTO notes (body) VALUES (?)"
        let select = "SELECT body FROM notes WHERE body = ?"
        for index in 0..<50 {
            try database.transaction { try $0.execute(insert, [.text("note \(index)")]) }
        }
        for index in 0..<50 {
            let rows = try database.read { try $0.query(select, [.text("note \(index)")]) }
            #expect(try rows.map { try $0.text("body") } == ["note \(index)"])
        }
        let writer = try database.withConnection { connection in
            (insert: connection.runs(ofCached: insert), begin: connection.runs(ofCached: "BEGIN IMMEDIATE"),
             commit: connection.runs(ofCached: "COMMIT"))
        }
        #expect(writer.insert == 50)
        #expect(writer.begin == 50)
        #expect(writer.commit == 50)
        // One thread reads, so it is lent the same reader every time.
        #expect(database.openReaders == 1)
        #expect(try database.withReader { $0.runs(ofCached: select) } == 50)
    }

    @Test("texts alike but in the middle are two statements, each prepared once and answering its own query")
    func statementsAlikeAtBothEnds() throws {
        let scratch = try ScratchDatabase()
        // The cache hashes a text's length and its first and last 32 bytes only.
        let opening = "SELECT /* the same first thirty-two bytes */ "
        let closing = " AS value /* and the same last thirty-two bytes */"
        let texts = [opening + "'left'" + closing, opening + "'rite'" + closing]
        let (values, runs) = try scratch.database.withConnection { connection in
            let values = try (0..<3).flatMap { _ in
                try texts.map { try connection.query($0, []).first?.text("value") }
            }
            return (values, texts.map { connection.runs(ofCached: $0) })
        }
        #expect(values == ["left", "rite", "left", "rite", "left", "rite"])
        #expect(runs == [3, 3])
    }

    @Test("a row's value is read by its column's name: of two alike the last, and a missing name throws")
    func columnsByName() throws {
        let scratch = try ScratchDatabase()
        let row = try #require(try scratch.database.read { try $0.query("SELECT 1 AS first, 2 AS twice, 3 AS twice", []) }.first)
        #expect(try row.integer("first") == 1)
        #expect(try row.integer("twice") == 3)
        let error = try #require(throws: LatchkeyError.self) { try row.integer("third") }
        #expect(error.code == .storage)
    }

    @Test("a connection keeps a bounded number of statements prepared; the rest run unprepared, correctly")
    func statementCacheIsBounded() throws {
        let scratch = try ScratchDatabase()
        let limit = SQLiteConnection.statementCacheLimit
        let results = try scratch.database.withConnection { connection in
            try (0..<(limit + 44)).map { number in
                try connection.query("SELECT \(number) AS number", []).first?.integer("number")
            }
        }
        #expect(results == (0..<(limit + 44)).map { Int64($0) })
        #expect(try scratch.database.withConnection { $0.cachedStatementCount } == limit)
    }

    @Test("a reader refuses to write, so every change goes through the writer")
    func readersOnlyRead() throws {
        let scratch = try ScratchDatabase()
        let error = try #require(throws: LatchkeyError.self) {
            try scratch.database.read { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("sneaked")]) }
        }
        #expect(error.code == .storage)
        #expect(error.detail?.contains("readonly") == true)
        #expect(try scratch.noteCount() == 0)
    }

    @Test("a connection given back inside a transaction is rolled back before anyone else uses it")
    func leftoverTransactionIsRolledBack() throws {
        let scratch = try ScratchDatabase()
        try scratch.database.withConnection { connection in
            try connection.execute("BEGIN IMMEDIATE")
            try connection.execute("INSERT INTO notes (body) VALUES (?)", [.text("abandoned")])
        }
        try scratch.database.transaction { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("kept")]) }
        let bodies = try scratch.database.read { try $0.query("SELECT body FROM notes", []).map { try $0.text("body") } }
        #expect(bodies == ["kept"])
    }
}

/// A write transaction held open on a thread of its own: it has inserted one note and
/// waits (at most 10 s) for ``commit()``.
final class HeldWriteTransaction: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let committed = DispatchSemaphore(value: 0)

    /// Starts the transaction on `database`, inserting a note `body`; nil when it did not
    /// open within 10 s.
    init?(on database: SQLiteDatabase, inserting body: String) {
        let inside = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [release, committed] in
            _ = try? database.transaction { connection in
                try connection.execute("INSERT INTO notes (body) VALUES (?)", [.text(body)])
                inside.signal()
                _ = release.wait(timeout: .now() + 10)
            }
            committed.signal()
        }
        guard inside.wait(timeout: .now() + 10) == .success else { return nil }
    }

    /// Lets the transaction commit; whether it finished within 10 s.
    func commit() -> Bool {
        release.signal()
        return committed.wait(timeout: .now() + 10) == .success
    }
}

/// A fresh database file with one table, `notes (body TEXT NOT NULL)`, removed afterwards.
struct ScratchDatabase {
    let directory: TemporaryDirectory
    let database: SQLiteDatabase

    init(readers: Int = SQLiteDatabase.defaultReaderLimit,
         busyTimeoutMilliseconds: Int32 = SQLiteDatabase.busyTimeoutMilliseconds,
         gathering: SQLiteGroupCommit.Gathering = .standard, deferredWriteLimit: Int = 1024) throws {
        directory = try TemporaryDirectory(prefix: "latchkey-sqlite-pool")
        database = try SQLiteDatabase(
            path: directory.url.appendingPathComponent("test.sqlite").path, readers: readers,
            busyTimeoutMilliseconds: busyTimeoutMilliseconds, gathering: gathering, deferredWriteLimit: deferredWriteLimit)
        try database.withConnection { try $0.execute("CREATE TABLE notes (body TEXT NOT NULL)") }
    }

    /// How many notes a reader sees committed now.
    func noteCount() throws -> Int64? {
        try database.read { try $0.query("SELECT COUNT(*) AS notes FROM notes", []).first?.integer("notes") }
    }
}
