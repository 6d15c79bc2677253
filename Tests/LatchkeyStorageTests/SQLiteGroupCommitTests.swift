import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import Synchronization
import LatchkeyTestSupport
import Testing

/// Group commit on real threads: transactions that queue behind a running one commit
/// together, and the outcome is still that of running them one after another.
@Suite struct SQLiteGroupCommitTests {
    @Test("transactions queued behind a running one commit as one batch, each seeing those before it, each answered after the commit")
    func queuedTransactionsCommitTogether() throws {
        let scratch = try ScratchDatabase()
        let database = scratch.database
        let held = try #require(HeldWriteTransaction(on: database, inserting: "first"))
        let batchesBefore = database.writeBatches
        let callers = 8
        let outcomes = Mutex<[(seen: Int64, visibleAfter: Bool)]>([])
        let running = startThreads(callers) { index in
            let seen = try? database.transaction { connection in
                let seen = try connection.query("SELECT COUNT(*) AS notes FROM notes", []).first?.integer("notes") ?? -1
                try connection.execute("INSERT INTO notes (body) VALUES (?)", [.text("caller \(index)")])
                return seen
            }
            // Answered only after the commit: a reader sees the caller's note now.
            let visible = try? database.read {
                try $0.query("SELECT COUNT(*) AS notes FROM notes WHERE body = ?", [.text("caller \(index)")]).first?.integer("notes")
            }
            outcomes.withLock { $0.append((seen ?? -1, visible == 1)) }
        }
        #expect(eventually { database.queuedWriteTransactions == callers })
        #expect(held.commit())
        running.wait()
        let results = outcomes.withLock { $0 }
        // Each saw the held note and the notes of those before it in its batch.
        #expect(results.map(\.seen).sorted() == Array(1...Int64(callers)))
        #expect(results.filter(\.visibleAfter).count == callers)
        #expect(try scratch.noteCount() == Int64(callers) + 1)
        // The held transaction's batch, then one for all the callers that queued behind it.
        #expect(database.writeBatches - batchesBefore == 2)
    }

    @Test("a transaction that throws in a batch is undone alone and gets its own error; the others commit")
    func failureIsUndoneAlone() throws {
        let scratch = try ScratchDatabase()
        let database = scratch.database
        let held = try #require(HeldWriteTransaction(on: database, inserting: "first"))
        let callers = 6
        let errors = Mutex<[Int: LatchkeyError.Code]>([:])
        let running = startThreads(callers) { index in
            do {
                try database.transaction { connection in
                    try connection.execute("INSERT INTO notes (body) VALUES (?)", [.text("caller \(index)")])
                    if index.isMultiple(of: 2) { throw LatchkeyError(.invalidRequest, "Caller \(index) changed its mind.") }
                }
            } catch let error as LatchkeyError {
                errors.withLock { $0[index] = error.code }
            } catch {
                errors.withLock { $0[index] = .internalError }
            }
        }
        #expect(eventually { database.queuedWriteTransactions == callers })
        #expect(held.commit())
        running.wait()
        #expect(errors.withLock { $0 } == [0: .invalidRequest, 2: .invalidRequest, 4: .invalidRequest])
        let bodies = try database.read { try $0.query("SELECT body FROM notes ORDER BY body", []).map { try $0.text("body") } }
        #expect(bodies == ["caller 1", "caller 3", "caller 5", "first"])
    }

    @Test("when a batch's commit fails, every caller in it gets the error and nothing of the batch is kept")
    func failedCommitFailsTheBatch() throws {
        let scratch = try ScratchDatabase()
        let database = scratch.database
        // A deferred foreign key is checked at COMMIT: one dangling row fails the whole commit.
        try database.withConnection { connection in
            try connection.execute("CREATE TABLE parents (id INTEGER PRIMARY KEY)")
            try connection.execute(
                "CREATE TABLE children (parent_id INTEGER REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)")
        }
        let held = try #require(HeldWriteTransaction(on: database, inserting: "first"))
        let callers = 4
        let failures = Atomic<Int>(0)
        let running = startThreads(callers) { index in
            do {
                try database.transaction { connection in
                    try connection.execute("INSERT INTO notes (body) VALUES (?)", [.text("caller \(index)")])
                    if index == 2 { try connection.execute("INSERT INTO children (parent_id) VALUES (?)", [.integer(42)]) }
                }
            } catch let error as LatchkeyError where error.code == .storage {
                failures.add(1, ordering: .relaxed)
            } catch {}
        }
        #expect(eventually { database.queuedWriteTransactions == callers })
        #expect(held.commit())
        running.wait()
        #expect(failures.load(ordering: .relaxed) == callers)
        #expect(try scratch.noteCount() == 1)
        // The writer is usable again.
        try database.transaction { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("after")]) }
        #expect(try scratch.noteCount() == 2)
    }

    @Test("a writer alone, one transaction after another, never waits for others to share its commit")
    func loneWriterNeverGathers() throws {
        let scratch = try ScratchDatabase()
        let database = scratch.database
        let batchesBefore = database.writeBatches
        for index in 0..<300 {
            try database.transaction { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("note \(index)")]) }
        }
        #expect(database.writeBatches - batchesBefore == 300)
        #expect(database.gatheredWriteBatches == 0)
        #expect(try scratch.noteCount() == 300)
    }

    @Test("a transaction alone at the writer just after writers met waits for those coming, and they share its commit")
    func leaderGathersWhileWritersMeet() throws {
        // A window far longer than the threads below take to queue, so they are in time, and
        // writers counted as meeting for longer than this test takes to get its leader going.
        let scratch = try ScratchDatabase(gathering: .init(window: 1_000_000, contentionMemory: .seconds(60)))
        let database = scratch.database
        let held = try #require(HeldWriteTransaction(on: database, inserting: "held"))
        // It queues behind the held transaction (writers meet), then leads alone.
        let leader = startThreads(1) { _ in
            _ = try? database.transaction { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("leader")]) }
        }
        #expect(eventually { database.queuedWriteTransactions == 1 })
        #expect(held.commit())
        #expect(eventually { database.gatheredWriteBatches == 1 })
        let batchesBefore = database.writeBatches
        let late = 4
        let followers = startThreads(late) { index in
            _ = try? database.transaction { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("follower \(index)")]) }
        }
        leader.wait()
        followers.wait()
        #expect(try scratch.noteCount() == Int64(late) + 2)
        #expect(database.writeBatches - batchesBefore == 1, "the leader's batch took the followers")
        #expect(database.gatheredWriteBatches == 1)
    }

    @Test("many threads incrementing one counter at once lose no update")
    func noLostUpdates() throws {
        let scratch = try ScratchDatabase()
        let database = scratch.database
        try database.withConnection { connection in
            try connection.execute("CREATE TABLE counter (value INTEGER NOT NULL)")
            try connection.execute("INSERT INTO counter (value) VALUES (0)")
        }
        let failures = Atomic<Int>(0)
        runOnThreads(32) { _ in
            for _ in 0..<50 {
                do {
                    try database.transaction { connection in
                        let value = try connection.query("SELECT value FROM counter", []).first?.integer("value") ?? 0
                        try connection.execute("UPDATE counter SET value = ?", [.integer(value + 1)])
                    }
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(try database.read { try $0.query("SELECT value FROM counter", []).first?.integer("value") } == 32 * 50)
        // Real concurrency: some of those transactions shared a commit.
        #expect(database.writeBatches < 32 * 50)
    }
}

/// Starts `count` threads, each running `body` with its index; the group is left when all
/// have returned.
private func startThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread.detachNewThread {
            body(index)
            done.leave()
        }
    }
    return done
}
