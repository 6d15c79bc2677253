import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport

/// One outbox row as the worker tests check it, read straight from the real SQLite store.
struct OutboxRow {
    let attempts: Int
    let dueAt: Date
    let sentAt: Date?
    let gaveUp: Bool
    let lastError: String?
}

extension SQLiteStore {
    /// A fresh, migrated store in `directory`.
    static func migrated(in directory: URL, clock: any WallClock) throws -> SQLiteStore {
        let store = try SQLiteStore(path: directory.appendingPathComponent("outbox.sqlite3").path, mailBox: .forTests, clock: clock)
        try store.migrate()
        return store
    }

    /// The outbox row with this id, without leasing it.
    func row(_ id: String) -> OutboxRow? {
        try? database.withConnection { connection in
            try connection.query(
                "SELECT attempts, next_attempt_at, sent_at, status, last_error FROM outbox WHERE id = ?", [.text(id)]
            ).first.map { row in
                OutboxRow(
                    attempts: Int(try row.integer("attempts")),
                    dueAt: StorageEncoding.date(milliseconds: try row.integer("next_attempt_at")),
                    sentAt: try row.optionalInteger("sent_at").map { StorageEncoding.date(milliseconds: $0) },
                    gaveUp: try row.text("status") == "failed",
                    lastError: try row.optionalText("last_error"))
            }
        }
    }
}
