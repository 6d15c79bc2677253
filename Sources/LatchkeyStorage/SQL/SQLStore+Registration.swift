import Foundation
import LatchkeyCore
import LatchkeyCrypto

extension SQLStore {
    package func acceptRegistrationRequest(_ request: PendingRegistrationRequest) throws {
        _ = try database.transaction { connection in
            try connection.execute(
                """
                INSERT INTO registration_requests (id, email, password_hash, verification_url, locale, accept_language, accepted_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(request.id), .text(request.email), .text(request.passwordHash), .text(request.verificationURL),
                    .text(request.locale), .text(request.acceptLanguage), .integer(StorageEncoding.milliseconds(request.acceptedAt)),
                ])
        }
    }

    package func pendingRegistrationRequestIDs(acceptedBefore cutoff: Date, limit: Int) throws -> [String] {
        try database.read { connection in
            // The key is the time-ordered id: the range below the cutoff's time prefix.
            try connection.query(
                "SELECT id FROM registration_requests WHERE id < ? ORDER BY id LIMIT ?",
                [.text(SecureRandom.identifierTimePrefix(cutoff)), .integer(Int64(limit))])
        }.map { try $0.text("id") }
    }

    package func processRegistrationRequest(
        id: String, now: Date, handle: (PendingRegistrationRequest, Account?) throws -> RegistrationOutcome
    ) throws -> Bool {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection in
            // The DELETE takes the row: a racing worker waits for it and then finds nothing.
            let taken = try connection.query(
                """
                DELETE FROM registration_requests WHERE id = ?
                RETURNING email, password_hash, verification_url, locale, accept_language, accepted_at
                """,
                [.text(id)])
            guard let row = taken.first else { return false }
            let request = PendingRegistrationRequest(
                id: id, email: try row.text("email"), passwordHash: try row.text("password_hash"),
                verificationURL: try row.optionalText("verification_url"), locale: try row.optionalText("locale"),
                acceptLanguage: try row.optionalText("accept_language"),
                acceptedAt: StorageEncoding.date(milliseconds: try row.integer("accepted_at")))
            let accounts = try connection.query(
                "SELECT \(Self.accountColumns) FROM accounts WHERE email = ?", [.text(request.email)])
            switch try handle(request, try accounts.first.map(Self.account(from:))) {
            case .verify(let registration, let mail):
                try connection.execute(
                    "UPDATE registrations SET superseded_at = ? WHERE email = ? AND used_at IS NULL AND superseded_at IS NULL",
                    [nowValue, .text(registration.email)])
                try connection.execute(
                    """
                    INSERT INTO registrations (token_digest, email, password_hash, locale, created_at, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(StorageEncoding.hex(registration.digest)), .text(registration.email), .text(registration.passwordHash),
                        .text(registration.locale), .integer(StorageEncoding.milliseconds(registration.createdAt)),
                        .integer(StorageEncoding.milliseconds(registration.expiresAt)),
                    ])
                try Self.insertMail(mail, sealedBy: mailBox, now: nowValue, using: connection)
            case .notify(let mail):
                try Self.insertMail(mail, sealedBy: mailBox, now: nowValue, using: connection)
            case .drop:
                break
            }
            return true
        }
    }

    package func completeRegistration(digest: Data, accountID: String, now: Date) throws -> Account? {
        let nowValue = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection -> Account? in
            // One conditional UPDATE: racing callers wait for the row lock and then find used_at set.
            let used = try connection.query(
                """
                UPDATE registrations SET used_at = ?
                WHERE token_digest = ? AND used_at IS NULL AND superseded_at IS NULL AND expires_at > ?
                RETURNING email, password_hash, locale
                """,
                [nowValue, .text(StorageEncoding.hex(digest)), nowValue])
            guard let row = used.first else { return nil }
            let email = try row.text("email")
            // Queued with an address change to the same address, which checks the address is
            // free before it takes it (see lockAddress).
            try lockAddress(email, using: connection)
            try connection.execute(
                "UPDATE registrations SET superseded_at = ? WHERE email = ? AND used_at IS NULL AND superseded_at IS NULL",
                [nowValue, .text(email)])
            // ON CONFLICT: an address that has an account meanwhile keeps it, and gets no second one.
            let inserted = try connection.execute(
                """
                INSERT INTO accounts (id, email, password_hash, status, credential_version, locale, created_at, updated_at)
                VALUES (?, ?, ?, 'active', 1, ?, ?, ?)
                ON CONFLICT (email) DO NOTHING
                """,
                [.text(accountID), .text(email), .text(try row.text("password_hash")), .text(try row.optionalText("locale")), nowValue, nowValue])
            guard inserted == 1 else { return nil }
            return try connection.query("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?", [.text(accountID)])
                .first.map(Self.account(from:))
        }
    }
}
