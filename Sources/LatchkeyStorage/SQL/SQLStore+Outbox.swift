import LatchkeyCore
import LatchkeyCrypto
import Foundation

extension SQLStore {
    package func enqueue(_ message: MailMessage, now: Date) throws {
        try database.transaction { connection in
            try Self.insertMail(message, sealedBy: mailBox, now: .integer(StorageEncoding.milliseconds(now)), using: connection)
        }
    }

    package func leaseDueMail(now: Date, lease: TimeInterval, limit: Int) throws -> [OutboxEntry] {
        guard limit > 0 else { return [] }
        let leaseUntil = StorageEncoding.milliseconds(now.addingTimeInterval(lease))
        let stamp = SQLValue.integer(StorageEncoding.milliseconds(now))
        // One UPDATE chooses and leases the rows. Where rows lock, SKIP LOCKED lets each worker
        // take rows no other worker is taking; a row another worker leased meanwhile is
        // re-checked after its lock and skipped as still leased.
        let rows = try database.transaction { connection in
            try connection.query(
                """
                UPDATE outbox SET lease_until = ?
                WHERE id IN (
                    SELECT id FROM outbox
                    WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
                    ORDER BY next_attempt_at, created_at, id \(database.dialect.byteOrder)
                    LIMIT ?
                    \(database.dialect.updateLockSkippingLocked))
                RETURNING id, recipient, subject, text_body, html_body, sealed, locale, attempts, created_at
                """,
                [.integer(leaseUntil), stamp, stamp, .integer(Int64(limit))])
        }
        var entries: [OutboxEntry] = []
        for row in rows {
            let id = try row.text("id")
            let sealed = try row.integer("sealed") != 0
            let bodies: (text: String, html: String)
            do {
                bodies = sealed
                    ? (try Self.openMailBody(try row.text("text_body"), part: "text", id: id, box: mailBox),
                        try Self.openMailBody(try row.text("html_body"), part: "html", id: id, box: mailBox))
                    : (try row.text("text_body"), try row.text("html_body"))
            } catch let error as LatchkeyCryptoError {
                // No later attempt can open it: given up at once, with why, for `outbox list`.
                try markFailed(id: id, error: "not sent: \(error.message)", retryAt: nil, now: now)
                continue
            }
            entries.append(
                OutboxEntry(
                    message: try MailMessage(
                        id: id, to: try row.text("recipient"), subject: try row.text("subject"),
                        textBody: bodies.text, htmlBody: bodies.html, locale: try row.text("locale")),
                    attempts: Int(try row.integer("attempts")),
                    createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at"))))
        }
        // RETURNING yields rows in no promised order.
        return entries.sorted { ($0.createdAt, $0.message.id) < ($1.createdAt, $1.message.id) }
    }

    package func markSent(id: String, now: Date) throws {
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        try updateMail(
            id: id,
            """
            UPDATE outbox SET status = 'sent', sent_at = ?, last_attempt_at = ?, lease_until = NULL, text_body = '', html_body = ''
            WHERE id = ?
            """,
            [now, now, .text(id)])
    }

    /// Also clears the lease, so a message due again is not held back by it. Only a pending
    /// message changes: one another worker already delivered stays sent.
    package func markFailed(id: String, error: String, retryAt: Date?, now: Date) throws {
        let lastError = SQLValue.text(String(error.prefix(StorageEncoding.lastErrorLimit)))
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        if let retryAt {
            try updateMail(
                id: id,
                """
                UPDATE outbox
                SET attempts = attempts + 1, last_error = ?, last_attempt_at = ?, next_attempt_at = ?, lease_until = NULL
                WHERE id = ? AND status = 'pending'
                """,
                [lastError, now, .integer(StorageEncoding.milliseconds(retryAt)), .text(id)])
        } else {
            try updateMail(
                id: id,
                """
                UPDATE outbox
                SET attempts = attempts + 1, last_error = ?, last_attempt_at = ?, status = 'failed', lease_until = NULL
                WHERE id = ? AND status = 'pending'
                """,
                [lastError, now, .text(id)])
        }
    }

    package func pendingMailCount() throws -> Int {
        try count("SELECT COUNT(*) AS counted FROM outbox WHERE status = 'pending'")
    }

    package func outboxListing(status: OutboxListing.Status?, limit: Int) throws -> [OutboxListing] {
        guard limit > 0 else { return [] }
        let filter = status == nil ? "" : "WHERE status = ?"
        let values: [SQLValue] = (status.map { [SQLValue.text($0.rawValue)] } ?? []) + [.integer(Int64(limit))]
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT id, status, recipient, subject, attempts, created_at, next_attempt_at, last_attempt_at, last_error
                FROM outbox \(filter) ORDER BY created_at, id \(database.dialect.byteOrder) LIMIT ?
                """,
                values)
        }
        return try rows.map { row in
            OutboxListing(
                id: try row.text("id"), status: OutboxListing.Status(rawValue: try row.text("status")) ?? .pending,
                recipient: try row.text("recipient"), subject: try row.text("subject"), attempts: Int(try row.integer("attempts")),
                createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")),
                nextAttemptAt: StorageEncoding.date(milliseconds: try row.integer("next_attempt_at")),
                lastAttemptAt: try row.optionalInteger("last_attempt_at").map(StorageEncoding.date(milliseconds:)),
                lastError: try row.optionalText("last_error"))
        }
    }

    package func retryMail(id: String, now: Date) throws -> OutboxChange {
        try database.transaction { connection in
            let changed = try connection.execute(
                """
                UPDATE outbox SET status = 'pending', next_attempt_at = ?
                WHERE id = ? AND status IN ('pending', 'failed') AND text_body <> ''
                """,
                [.integer(StorageEncoding.milliseconds(now)), .text(id)])
            return changed > 0 ? .done : try Self.whyUnchanged(id: id, now: now, using: connection)
        }
    }

    package func dropMail(id: String, now: Date) throws -> OutboxChange {
        try database.transaction { connection in
            let changed = try connection.execute(
                "DELETE FROM outbox WHERE id = ? AND status IN ('pending', 'failed') AND (lease_until IS NULL OR lease_until <= ?)",
                [.text(id), .integer(StorageEncoding.milliseconds(now))])
            return changed > 0 ? .done : try Self.whyUnchanged(id: id, now: now, using: connection)
        }
    }

    /// Why the message `id` was not retried or dropped: it does not exist, was sent, is being
    /// sent at `now`, or has no text left.
    private static func whyUnchanged(id: String, now: Date, using connection: borrowing any SQLConnection & ~Copyable) throws -> OutboxChange {
        guard let row = try connection.query(
            "SELECT status, lease_until, text_body FROM outbox WHERE id = ?", [.text(id)]).first
        else { return .noSuchMail }
        if try row.text("status") == OutboxListing.Status.sent.rawValue { return .alreadySent }
        if let lease = try row.optionalInteger("lease_until"), lease > StorageEncoding.milliseconds(now) { return .beingSent }
        return try row.text("text_body").isEmpty ? .textErased : .beingSent
    }

    /// Runs `sql` (an UPDATE of the message `id`); throws when no message has that id.
    private func updateMail(id: String, _ sql: String, _ values: [SQLValue]) throws {
        try database.transaction { connection in
            guard try connection.execute(sql, values) == 0 else { return }
            let exists = try connection.query("SELECT 1 AS present FROM outbox WHERE id = ?", [.text(id)])
            guard !exists.isEmpty else {
                throw LatchkeyError(.storage, "The outbox has no message with this id.", detail: "outbox id \(id)")
            }
        }
    }

    /// Queues `message` as a pending outbox row due at once, on `connection` (inside the
    /// caller's transaction), its bodies sealed by `box` for this row (they hold live links).
    static func insertMail(
        _ message: MailMessage, sealedBy box: SecretBox, now: SQLValue, using connection: borrowing any SQLConnection & ~Copyable
    ) throws {
        try connection.execute(
            """
            INSERT INTO outbox (id, recipient, subject, text_body, html_body, sealed, locale, status, attempts,
                                next_attempt_at, created_at)
            VALUES (?, ?, ?, ?, ?, 1, ?, 'pending', 0, ?, ?)
            """,
            [
                .text(message.id), .text(message.to), .text(message.subject),
                .text(box.seal(Data(message.textBody.utf8), purpose: mailPurpose + "text", binding: message.id)),
                .text(box.seal(Data(message.htmlBody.utf8), purpose: mailPurpose + "html", binding: message.id)),
                .text(message.locale), now, now,
            ])
    }

    /// The purpose a mail body is sealed for, followed by the part (`text`, `html`).
    private static var mailPurpose: String { "outbox-mail-" }

    /// The `part` body (`text` or `html`) of the mail `id`, sealed by
    /// ``insertMail(_:sealedBy:now:using:)``.
    static func openMailBody(_ sealed: String, part: String, id: String, box: SecretBox) throws -> String {
        String(decoding: try box.open(sealed, purpose: mailPurpose + part, binding: id).exposed, as: UTF8.self)
    }
}
