import LatchkeyCore
import Foundation

extension SQLStore {
    package func secondFactor(accountID: String) throws -> SecondFactorRecord? {
        let rows = try database.read { connection in
            try connection.query(
                "SELECT account_id, sealed_secret, last_step, enabled_at FROM second_factors WHERE account_id = ?", [.text(accountID)])
        }
        return try rows.first.map { row in
            SecondFactorRecord(
                accountID: try row.text("account_id"), sealedSecret: try row.text("sealed_secret"), lastStep: try row.integer("last_step"),
                enabledAt: StorageEncoding.date(milliseconds: try row.integer("enabled_at")))
        }
    }

    package func savePendingSecondFactor(accountID: String, sealedSecret: String, now: Date, expiresAt: Date) throws {
        try database.transaction { connection in
            try connection.execute(
                """
                INSERT INTO pending_second_factors (account_id, sealed_secret, created_at, expires_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (account_id) DO UPDATE SET sealed_secret = excluded.sealed_secret, created_at = excluded.created_at,
                    expires_at = excluded.expires_at
                """,
                [
                    .text(accountID), .text(sealedSecret), .integer(StorageEncoding.milliseconds(now)),
                    .integer(StorageEncoding.milliseconds(expiresAt)),
                ])
        }
    }

    package func pendingSecondFactor(accountID: String, now: Date) throws -> String? {
        try database.read { connection in
            try connection.query(
                "SELECT sealed_secret FROM pending_second_factors WHERE account_id = ? AND expires_at > ?",
                [.text(accountID), .integer(StorageEncoding.milliseconds(now))]
            ).first?.text("sealed_secret")
        }
    }

    package func enableSecondFactor(
        _ enabling: SecondFactorEnabling, sealedSecret: String, acceptedStep: Int64, recoveryCodeDigests: [String], now: Date,
        notice: (Account) throws -> MailMessage
    ) throws -> SecondFactorChangeResult {
        let accountID = enabling.accountID
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection -> SecondFactorChangeResult in
            // Under the account's lock, so two confirmations of one secret queue and one enrols,
            // and a reset, sign-out or disable either ends the sign-in first or waits for the enrolment.
            try lockAccount(accountID, using: connection)
            guard try Self.holds(enabling, now: now, using: connection) else { return .signInEnded }
            guard let row = try connection.query("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?", [.text(accountID)]).first,
                try connection.query("SELECT 1 AS found FROM second_factors WHERE account_id = ?", [.text(accountID)]).isEmpty
            else { return .nothingToChange }
            let taken = try connection.execute(
                "DELETE FROM pending_second_factors WHERE account_id = ? AND sealed_secret = ? AND expires_at > ?",
                [.text(accountID), .text(sealedSecret), now])
            guard taken == 1 else { return .nothingToChange }
            try connection.execute(
                "INSERT INTO second_factors (account_id, sealed_secret, last_step, enabled_at) VALUES (?, ?, ?, ?)",
                [.text(accountID), .text(sealedSecret), .integer(acceptedStep), now])
            try Self.insertRecoveryCodes(recoveryCodeDigests, accountID: accountID, now: now, using: connection)
            try Self.insertMail(try notice(try Self.account(from: row)), sealedBy: mailBox, now: now, using: connection)
            return .changed
        }
    }

    package func advanceSecondFactorStep(accountID: String, to step: Int64) throws -> Bool {
        try database.transaction { connection in
            try connection.execute(
                "UPDATE second_factors SET last_step = ? WHERE account_id = ? AND last_step < ?",
                [.integer(step), .text(accountID), .integer(step)])
        } == 1
    }

    package func consumeRecoveryCode(
        accountID: String, digest: String, now: Date, notice: (Account, _ remaining: Int) throws -> MailMessage
    ) throws -> Int? {
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection -> Int? in
            // One statement takes the code: of racing uses (on any server) one deletes the row.
            let taken = try connection.query(
                "DELETE FROM recovery_codes WHERE account_id = ? AND code_digest = ? RETURNING code_digest",
                [.text(accountID), .text(digest)])
            guard !taken.isEmpty,
                let row = try connection.query("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?", [.text(accountID)]).first
            else { return nil }
            let remaining = Int(
                try connection.query("SELECT COUNT(*) AS counted FROM recovery_codes WHERE account_id = ?", [.text(accountID)])
                    .first?.integer("counted") ?? 0)
            try Self.insertMail(try notice(try Self.account(from: row), remaining), sealedBy: mailBox, now: now, using: connection)
            return remaining
        }
    }

    package func replaceRecoveryCodes(login: LoginReference, digests: [String], now: Date) throws -> SecondFactorChangeResult {
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection -> SecondFactorChangeResult in
            try lockAccount(login.accountID, using: connection)
            guard try Self.isLive(login, now: now, using: connection) else { return .signInEnded }
            guard !(try connection.query("SELECT 1 AS found FROM second_factors WHERE account_id = ?", [.text(login.accountID)]).isEmpty)
            else { return .nothingToChange }
            try connection.execute("DELETE FROM recovery_codes WHERE account_id = ?", [.text(login.accountID)])
            try Self.insertRecoveryCodes(digests, accountID: login.accountID, now: now, using: connection)
            return .changed
        }
    }

    package func recoveryCodeCount(accountID: String) throws -> Int {
        try count("SELECT COUNT(*) AS counted FROM recovery_codes WHERE account_id = ?", [.text(accountID)])
    }

    package func removeSecondFactor(
        _ removal: SecondFactorRemoval, now: Date, notice: (Account) throws -> MailMessage
    ) throws -> SecondFactorChangeResult {
        let accountID = removal.accountID
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        return try database.transaction { connection -> SecondFactorChangeResult in
            try lockAccount(accountID, using: connection)
            if case .byOwner(let login) = removal {
                guard try Self.isLive(login, now: now, using: connection) else { return .signInEnded }
            }
            guard let row = try connection.query("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?", [.text(accountID)]).first,
                try connection.execute("DELETE FROM second_factors WHERE account_id = ?", [.text(accountID)]) == 1
            else { return .nothingToChange }
            for table in ["recovery_codes", "pending_second_factors", "second_factor_challenges"] {
                try connection.execute("DELETE FROM \(table) WHERE account_id = ?", [.text(accountID)])
            }
            try Self.insertMail(try notice(try Self.account(from: row)), sealedBy: mailBox, now: now, using: connection)
            return .changed
        }
    }

    package func createSignInChallenge(_ challenge: SignInChallengeRecord) throws {
        try database.transaction { connection in
            try connection.execute(
                """
                INSERT INTO second_factor_challenges (token_digest, kind, account_id, credential_version, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(challenge.digest), .text(challenge.kind.rawValue), .text(challenge.accountID),
                    .integer(Int64(challenge.credentialVersion)), .integer(StorageEncoding.milliseconds(challenge.createdAt)),
                    .integer(StorageEncoding.milliseconds(challenge.expiresAt)),
                ])
        }
    }

    package func consumeSignInChallenge(digest: String, now: Date) throws -> SignInChallengeRecord? {
        let rows = try database.transaction { connection in
            try connection.query(
                """
                DELETE FROM second_factor_challenges WHERE token_digest = ? AND expires_at > ?
                RETURNING token_digest, kind, account_id, credential_version, created_at, expires_at
                """,
                [.text(digest), .integer(StorageEncoding.milliseconds(now))])
        }
        return try rows.first.map { row in
            guard let kind = SignInChallengeRecord.Kind(rawValue: try row.text("kind")) else {
                throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "second factor challenge kind")
            }
            return SignInChallengeRecord(
                digest: try row.text("token_digest"), kind: kind, accountID: try row.text("account_id"),
                credentialVersion: Int(try row.integer("credential_version")),
                createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")),
                expiresAt: StorageEncoding.date(milliseconds: try row.integer("expires_at")))
        }
    }

    /// Whether `enabling` may still enrol at `now`: its login live (``isLive(_:now:using:)``), or,
    /// for the enrolment page's password step, the account still active with the credential
    /// version the password was checked at. Run after ``lockAccount(_:using:)``.
    private static func holds(
        _ enabling: SecondFactorEnabling, now: SQLValue, using connection: borrowing any SQLConnection & ~Copyable
    ) throws -> Bool {
        switch enabling {
        case .byLogin(let login):
            return try isLive(login, now: now, using: connection)
        case .byPasswordStep(let accountID, let credentialVersion):
            return !(try connection.query(
                "SELECT 1 AS found FROM accounts WHERE id = ? AND status = 'active' AND credential_version = ?",
                [.text(accountID), .integer(Int64(credentialVersion))]
            ).isEmpty)
        }
    }

    /// Inserts the recovery codes `digests` of the account.
    private static func insertRecoveryCodes(
        _ digests: [String], accountID: String, now: SQLValue, using connection: borrowing any SQLConnection & ~Copyable
    ) throws {
        for digest in digests {
            try connection.execute(
                "INSERT INTO recovery_codes (account_id, code_digest, created_at) VALUES (?, ?, ?)", [.text(accountID), .text(digest), now])
        }
    }
}
