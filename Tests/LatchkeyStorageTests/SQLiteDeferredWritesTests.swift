import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import Synchronization
import LatchkeyTestSupport
import Testing

/// Writes handed to the committer thread (`deferredWrite`) on a real database and
/// real threads: their callers do not wait, and each settles only once it is committed.
@Suite struct SQLiteDeferredWritesTests {
    @Test("writes handed over return before their commit, commit together, and each is visible to a reader when it settles")
    func writesSettleAfterTheirCommit() throws {
        let scratch = try ScratchDatabase()
        let database = scratch.database
        let held = try #require(HeldWriteTransaction(on: database, inserting: "first"))
        let count = 20
        let settled = DispatchGroup()
        let seenWhenSettled = Mutex<[Int: Bool]>([:])
        var writes: [DeferredWrite] = []
        for index in 0..<count {
            settled.enter()
            let write = database.deferredWrite { connection in
                try connection.execute("INSERT INTO notes (body) VALUES (?)", [.text("write \(index)")])
            }
            write.whenSettled { outcome in
                let seen = try? database.read {
                    try $0.query("SELECT COUNT(*) AS notes FROM notes WHERE body = ?", [.text("write \(index)")]).first?.integer("notes")
                }
                seenWhenSettled.withLock { $0[index] = (try? outcome.get()) != nil && seen == 1 }
                settled.leave()
            }
            writes.append(write)
        }
        // Every caller got its write back while the writer was held: none has settled.
        #expect(writes.allSatisfy { $0.outcome == nil })
        #expect(held.commit())
        #expect(settled.wait(timeout: .now() + 10) == .success)
        #expect(seenWhenSettled.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, true) }))
        // The committer took the first write (alone or with a few) before the writer was free,
        // then the rest as one batch: not a commit each.
        #expect(database.deferredWriteBatches <= 2)
        #expect(try scratch.noteCount() == Int64(count) + 1)
    }

    @Test("16 threads released at once hand over 50 writes each beside blocking transactions: every write settles committed, none is lost or doubled, and they share commits")
    func racingWritersAllCommit() throws {
        let scratch = try ScratchDatabase()
        let database = scratch.database
        let start = DispatchSemaphore(value: 0)
        let failures = Recorded<String>()
        let done = DispatchGroup()
        for thread in 0..<16 {
            done.enter()
            Thread.detachNewThread {
                start.wait()
                var writes: [DeferredWrite] = []
                for index in 0..<50 {
                    let body = "thread \(thread) write \(index)"
                    writes.append(database.deferredWrite { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text(body)]) })
                    if index.isMultiple(of: 10) {
                        do {
                            try database.transaction { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text(body + " blocking")]) }
                        } catch {
                            failures.append("\(error)")
                        }
                    }
                }
                for write in writes {
                    if case .failure(let error) = write.wait() { failures.append("\(error)") }
                }
                done.leave()
            }
        }
        for _ in 0..<16 { start.signal() }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(failures.all.isEmpty)
        let distinct = try database.read { try $0.query("SELECT COUNT(DISTINCT body) AS notes FROM notes", []).first?.integer("notes") }
        #expect(distinct == Int64(16 * 55))
        #expect(try scratch.noteCount() == Int64(16 * 55))
        #expect(database.deferredWriteBatches < 16 * 50)
    }

    @Test("a write that throws is undone alone and settles with its own error; the others in its batch commit")
    func failureIsUndoneAlone() throws {
        let scratch = try ScratchDatabase()
        let database = scratch.database
        let held = try #require(HeldWriteTransaction(on: database, inserting: "first"))
        let writes = (0..<6).map { index in
            database.deferredWrite { connection in
                try connection.execute("INSERT INTO notes (body) VALUES (?)", [.text("write \(index)")])
                if index.isMultiple(of: 2) { throw LatchkeyError(.invalidRequest, "Write \(index) changed its mind.") }
            }
        }
        #expect(held.commit())
        let codes = writes.map { write -> LatchkeyError.Code? in
            guard case .failure(let error) = write.wait() else { return nil }
            return error.code
        }
        #expect(codes == [.invalidRequest, nil, .invalidRequest, nil, .invalidRequest, nil])
        let bodies = try database.read { try $0.query("SELECT body FROM notes ORDER BY body", []).map { try $0.text("body") } }
        #expect(bodies == ["first", "write 1", "write 3", "write 5"])
        #expect(database.deferredWriteBatches <= 2)
    }

    @Test("with the queue full, a caller runs its write itself and gets it back settled; nothing is dropped")
    func fullQueueRunsTheWriteOnItsCaller() throws {
        let scratch = try ScratchDatabase(deferredWriteLimit: 2)
        let database = scratch.database
        let held = try #require(HeldWriteTransaction(on: database, inserting: "first"))
        let insert: @Sendable (String) -> DeferredWrite = { body in
            database.deferredWrite { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text(body)]) }
        }
        let taken = insert("taken")
        // The committer took it and waits for the writer behind the held transaction.
        #expect(eventually { database.queuedWriteTransactions == 1 })
        let queued = [insert("queued 1"), insert("queued 2")]
        let overflow = Mutex<DeferredWrite?>(nil)
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let write = insert("overflow")
            overflow.withLock { $0 = write }
            returned.signal()
        }
        // Past the limit the caller's own transaction queues for the writer.
        #expect(eventually { database.queuedWriteTransactions == 2 })
        #expect(overflow.withLock { $0 } == nil)
        #expect(held.commit())
        #expect(returned.wait(timeout: .now() + 10) == .success)
        let ranOnItsCaller = try #require(overflow.withLock { $0 })
        #expect(ranOnItsCaller.outcome.map { (try? $0.get()) != nil } == true)
        for write in [taken] + queued {
            #expect((try? write.wait().get()) != nil)
        }
        #expect(try scratch.noteCount() == 5)
    }
}
