import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Synchronization
import Testing

/// Checkpoints beside the writes (``SQLiteCheckpointer``), on real files and threads: the
/// writer leaves them to the checkpointer's thread, the data ends up in the database file
/// whole, and the WAL stays bounded when the thread does not run.
@Suite struct SQLiteCheckpointerTests {
    /// A note of about one 4 KiB page, so each committed note adds at least one WAL frame.
    private static let pageOfText = String(repeating: "x", count: 3000)

    @Test("writers racing readers leave the checkpoints to the checkpointer's thread, which copies every note into the database file")
    func checkpointsRunBesideTheWrites() throws {
        let scratch = try CheckpointScratch(requestFrames: 20, writerFrames: 1_000_000)
        let database = scratch.database
        let sizeBefore = try scratch.databaseFileSize()
        let failures = Atomic<Int>(0)
        // Eight writers and four readers released at once, 25 notes each writer.
        runOnThreads(12) { index in
            for note in 0..<25 {
                do {
                    if index < 8 {
                        try database.transaction {
                            try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("\(index)-\(note) " + Self.pageOfText)])
                        }
                    } else {
                        _ = try database.read { try $0.query("SELECT COUNT(*) AS notes FROM notes", []) }
                    }
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        // One more commit after the race asks for a checkpoint that starts after every write.
        try database.transaction { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("last")]) }
        // The notes end up in the database file itself, not only in the WAL: copied by the
        // thread woken from 20 frames on; the writer never checkpointed itself.
        #expect(eventually { ((try? scratch.databaseFileSize()) ?? 0) - sizeBefore >= 200 * 3000 })
        #expect(database.backgroundCheckpoints >= 1)
        #expect(database.writerCheckpoints == 0)
        #expect(try scratch.noteCount() == 201)
        #expect(try database.read { try $0.query("PRAGMA integrity_check", []).first?.text("integrity_check") } == "ok")
    }

    @Test("with nobody answering its requests, the writer checkpoints itself at its limit and the WAL file stays bounded")
    func writerBoundsTheWAL() throws {
        let writerFrames = 40
        let scratch = try CheckpointScratch(requestFrames: .max, writerFrames: writerFrames)
        let database = scratch.database
        for note in 0..<400 {
            try database.transaction { try $0.execute("INSERT INTO notes (body) VALUES (?)", [.text("\(note) " + Self.pageOfText)]) }
        }
        #expect(database.writerCheckpoints >= 5)
        #expect(database.backgroundCheckpoints == 0)
        // A WAL restarted after each of the writer's checkpoints: never much more than its limit
        // (a few frames per commit past it), where 400 notes would take 400 frames and more.
        let frameBytes = 4096 + 24
        #expect(try scratch.walFileSize() <= 32 + (writerFrames + 8) * frameBytes)
        #expect(try scratch.noteCount() == 400)
    }
}

/// A scratch database with a `notes` table and the given checkpoint thresholds.
private struct CheckpointScratch {
    let directory: TemporaryDirectory
    let database: SQLiteDatabase
    private let path: String

    init(requestFrames: Int, writerFrames: Int) throws {
        directory = try TemporaryDirectory(prefix: "latchkey-sqlite-checkpoint")
        path = directory.url.appendingPathComponent("test.sqlite").path
        database = try SQLiteDatabase(path: path, checkpointFrames: (requestFrames, writerFrames))
        try database.withConnection { try $0.execute("CREATE TABLE notes (body TEXT NOT NULL)") }
    }

    /// How many notes a reader sees committed now.
    func noteCount() throws -> Int64? {
        try database.read { try $0.query("SELECT COUNT(*) AS notes FROM notes", []).first?.integer("notes") }
    }

    /// The size of the database file, in bytes.
    func databaseFileSize() throws -> Int { try Self.size(of: path) }

    /// The size of the WAL file, in bytes.
    func walFileSize() throws -> Int { try Self.size(of: path + "-wal") }

    private static func size(of path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }
}
