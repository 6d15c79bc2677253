import LatchkeyCore
import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

extension SQLStore {
    /// The columns of a passkey with its account's user handle, read from `passkeys p JOIN passkey_users u`.
    private static var passkeyColumns: String {
        """
        p.credential_id, p.account_id, p.public_key, p.algorithm, p.sign_count, p.backup_eligible, p.backup_state, p.transports,
        p.aaguid, p.attestation_format, p.name, p.created_at, p.last_used_at, u.user_handle
        """
    }

    private static var passkeyJoin: String { "passkeys p JOIN passkey_users u ON u.account_id = p.account_id" }

    package func passkeyUserHandle(accountID: String, creating: Data) throws -> Data? {
        let handle = try database.transaction { connection -> String? in
            try lockAccount(accountID, using: connection)
            guard !(try connection.query("SELECT 1 AS found FROM accounts WHERE id = ?", [.text(accountID)]).isEmpty) else { return nil }
            if let stored = try connection.query("SELECT user_handle FROM passkey_users WHERE account_id = ?", [.text(accountID)]).first {
                return try stored.text("user_handle")
            }
            let handle = Base64URL.encode(creating)
            try connection.execute(
                "INSERT INTO passkey_users (account_id, user_handle, created_at) VALUES (?, ?, ?)",
                [.text(accountID), .text(handle), .integer(StorageEncoding.milliseconds(clock.now()))])
            return handle
        }
        return try handle.map { try Self.bytes(base64URL: $0, column: "user_handle") }
    }

    package func passkeys(accountID: String) throws -> [Passkey] {
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT \(Self.passkeyColumns) FROM \(Self.passkeyJoin) WHERE p.account_id = ?
                ORDER BY p.created_at DESC, p.credential_id \(database.dialect.byteOrder)
                """, [.text(accountID)])
        }
        return try rows.map(Self.passkey(from:))
    }

    package func passkey(credentialID: Data) throws -> Passkey? {
        let rows = try database.read { connection in
            try connection.query(
                "SELECT \(Self.passkeyColumns) FROM \(Self.passkeyJoin) WHERE p.credential_id = ?", [.text(Base64URL.encode(credentialID))])
        }
        return try rows.first.map(Self.passkey(from:))
    }

    package func addPasskey(
        _ passkey: Passkey, by login: LoginReference, limit: Int, notice: (Account) throws -> MailMessage
    ) throws -> PasskeyAddition {
        let credential = passkey.credential
        let transports = String(decoding: try JSONEncoder().encode(credential.transports), as: UTF8.self)
        guard passkey.accountID == login.accountID else { return .signInEnded }
        return try database.transaction { connection -> PasskeyAddition in
            // Under the account's lock, so two registrations at once cannot pass the limit, and a
            // reset or sign-out either ends the login first or waits for the passkey.
            try lockAccount(passkey.accountID, using: connection)
            guard try Self.isLive(login, now: .integer(StorageEncoding.milliseconds(passkey.createdAt)), using: connection),
                let owner = try connection.query("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?", [.text(passkey.accountID)]).first
            else { return .signInEnded }
            let counted = try connection.query("SELECT COUNT(*) AS counted FROM passkeys WHERE account_id = ?", [.text(passkey.accountID)])
            guard try counted.first?.integer("counted") ?? 0 < Int64(limit) else { return .limitReached }
            // The primary key decides between racing registrations of one credential, on any server.
            let inserted = try connection.execute(
                """
                INSERT INTO passkeys (credential_id, account_id, public_key, algorithm, sign_count, backup_eligible, backup_state,
                    transports, aaguid, attestation_format, name, created_at, last_used_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (credential_id) DO NOTHING
                """,
                [
                    .text(Base64URL.encode(credential.id)), .text(passkey.accountID), .text(Base64URL.encode(credential.publicKey)),
                    .integer(credential.algorithm.rawValue), .integer(Int64(credential.signCount)),
                    .integer(credential.backupEligible ? 1 : 0), .integer(credential.backupState ? 1 : 0), .text(transports),
                    .text(StorageEncoding.hex(credential.aaguid)), .text(credential.attestationFormat), .text(passkey.name),
                    .integer(StorageEncoding.milliseconds(passkey.createdAt)),
                    .integer(passkey.lastUsedAt.map(StorageEncoding.milliseconds)),
                ])
            guard inserted == 1 else { return .exists }
            try Self.insertMail(
                try notice(try Self.account(from: owner)), sealedBy: mailBox, now: .integer(StorageEncoding.milliseconds(passkey.createdAt)),
                using: connection)
            return .added
        }
    }

    package func recordPasskeyUse(credentialID: Data, signCount: UInt32, backupState: Bool, now: Date) throws -> Bool {
        try database.transaction { connection in
            // The counter never goes down, whatever order racing sign-ins commit in.
            try connection.execute(
                """
                UPDATE passkeys SET sign_count = CASE WHEN sign_count < ? THEN ? ELSE sign_count END, backup_state = ?, last_used_at = ?
                WHERE credential_id = ?
                """,
                [
                    .integer(Int64(signCount)), .integer(Int64(signCount)), .integer(backupState ? 1 : 0),
                    .integer(StorageEncoding.milliseconds(now)), .text(Base64URL.encode(credentialID)),
                ])
        } == 1
    }

    package func renamePasskey(accountID: String, credentialID: Data, name: String) throws -> Passkey? {
        let id = SQLValue.text(Base64URL.encode(credentialID))
        let rows = try database.transaction { connection in
            guard try connection.execute("UPDATE passkeys SET name = ? WHERE account_id = ? AND credential_id = ?", [.text(name), .text(accountID), id]) == 1
            else { return [] as [any SQLRow] }
            return try connection.query("SELECT \(Self.passkeyColumns) FROM \(Self.passkeyJoin) WHERE p.credential_id = ?", [id])
        }
        return try rows.first.map(Self.passkey(from:))
    }

    package func deletePasskey(
        by login: LoginReference, credentialID: Data, now: Date, notice: (Account, _ name: String) throws -> MailMessage
    ) throws -> PasskeyDeletion {
        let accountID = login.accountID
        return try database.transaction { connection -> PasskeyDeletion in
            // Under the account's lock: a password removed or another passkey deleted at the
            // same time cannot leave the account with no way in, and an ended login deletes nothing.
            try lockAccount(accountID, using: connection)
            guard try Self.isLive(login, now: .integer(StorageEncoding.milliseconds(now)), using: connection),
                let row = try connection.query("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?", [.text(accountID)]).first
            else { return .signInEnded }
            let owner = try Self.account(from: row)
            let id = SQLValue.text(Base64URL.encode(credentialID))
            guard let passkey = try connection.query("SELECT name FROM passkeys WHERE account_id = ? AND credential_id = ?", [.text(accountID), id]).first
            else { return .notFound }
            let counted = try connection.query("SELECT COUNT(*) AS counted FROM passkeys WHERE account_id = ?", [.text(accountID)])
            if owner.passwordHash == nil, try counted.first?.integer("counted") ?? 0 <= 1 {
                return .lastSignInMethod
            }
            try connection.execute("DELETE FROM passkeys WHERE account_id = ? AND credential_id = ?", [.text(accountID), id])
            try Self.insertMail(
                try notice(owner, try passkey.text("name")), sealedBy: mailBox, now: .integer(StorageEncoding.milliseconds(now)),
                using: connection)
            return .deleted
        }
    }

    package func createPasskeyChallenge(_ challenge: PasskeyChallengeRecord) throws {
        try database.transaction { connection in
            // Expired ones go as new ones come, so the table stays as small as the limits keep it.
            try connection.execute(
                "DELETE FROM passkey_challenges WHERE expires_at <= ?", [.integer(StorageEncoding.milliseconds(challenge.createdAt))])
            try connection.execute(
                """
                INSERT INTO passkey_challenges (challenge_digest, purpose, account_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)
                """,
                [
                    .text(challenge.digest), .text(challenge.purpose.rawValue), .text(challenge.accountID),
                    .integer(StorageEncoding.milliseconds(challenge.createdAt)), .integer(StorageEncoding.milliseconds(challenge.expiresAt)),
                ])
        }
    }

    package func consumePasskeyChallenge(digest: String, purpose: PasskeyChallengeRecord.Purpose, now: Date) throws
        -> PasskeyChallengeRecord?
    {
        let rows = try database.transaction { connection in
            try connection.query(
                """
                DELETE FROM passkey_challenges WHERE challenge_digest = ? AND purpose = ? AND expires_at > ?
                RETURNING challenge_digest, purpose, account_id, created_at, expires_at
                """,
                [.text(digest), .text(purpose.rawValue), .integer(StorageEncoding.milliseconds(now))])
        }
        return try rows.first.map { row in
            guard let purpose = PasskeyChallengeRecord.Purpose(rawValue: try row.text("purpose")) else {
                throw LatchkeyError(.storage, "The database holds unexpected data.", detail: "passkey challenge purpose")
            }
            return PasskeyChallengeRecord(
                digest: try row.text("challenge_digest"), purpose: purpose, accountID: try row.optionalText("account_id"),
                createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")),
                expiresAt: StorageEncoding.date(milliseconds: try row.integer("expires_at")))
        }
    }

    /// The passkey in `row` (``passkeyColumns``).
    private static func passkey(from row: any SQLRow) throws -> Passkey {
        let algorithmValue = try row.integer("algorithm")
        guard let algorithm = COSEAlgorithm(rawValue: algorithmValue) else { throw Self.unexpected("algorithm") }
        let transports: [String]
        do {
            transports = try JSONDecoder().decode([String].self, from: Data(try row.text("transports").utf8))
        } catch {
            throw Self.unexpected("transports")
        }
        let signCount = try row.integer("sign_count")
        guard let count = UInt32(exactly: signCount) else { throw Self.unexpected("sign_count") }
        let credential = CredentialRecord(
            id: try bytes(base64URL: try row.text("credential_id"), column: "credential_id"),
            publicKey: try bytes(base64URL: try row.text("public_key"), column: "public_key"), algorithm: algorithm, signCount: count,
            backupEligible: try row.integer("backup_eligible") == 1, backupState: try row.integer("backup_state") == 1,
            userVerifiedAtRegistration: true, transports: transports, aaguid: try StorageEncoding.bytes(hex: try row.text("aaguid")),
            attestationFormat: try row.text("attestation_format"))
        return Passkey(
            credential: credential, accountID: try row.text("account_id"),
            userHandle: try bytes(base64URL: try row.text("user_handle"), column: "user_handle"), name: try row.text("name"),
            createdAt: StorageEncoding.date(milliseconds: try row.integer("created_at")),
            lastUsedAt: try row.optionalInteger("last_used_at").map(StorageEncoding.date(milliseconds:)))
    }

    /// The bytes of the base64url `text` read from `column`.
    private static func bytes(base64URL text: String, column: String) throws -> Data {
        guard let bytes = Base64URL.decode(text) else { throw unexpected(column) }
        return bytes
    }

    private static func unexpected(_ column: String) -> LatchkeyError {
        LatchkeyError(.storage, "The database holds unexpected data.", detail: "passkeys column \(column)")
    }
}
