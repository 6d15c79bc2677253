import LatchkeyCore
import Foundation

extension SQLStore {
    package func isRecognisedDevice(accountID: String, tokenDigest: String, credentialVersion: Int, usedSince: Date) throws -> Bool {
        try database.read { connection in
            try !connection.query(
                """
                SELECT 1 AS found FROM recognised_devices
                WHERE account_id = ? AND token_digest = ? AND credential_version = ? AND last_used_at >= ?
                """,
                [.text(accountID), .text(tokenDigest), .integer(Int64(credentialVersion)), .integer(StorageEncoding.milliseconds(usedSince))]
            ).isEmpty
        }
    }

    package func recordDeviceSignIn(
        accountID: String, credentialVersion: Int, presentedDigest: String?, freshDigest: String, now: Date,
        expiredBefore: Date, keep: Int
    ) throws -> DeviceSignInRecord {
        let account = SQLValue.text(accountID)
        let version = SQLValue.integer(Int64(credentialVersion))
        let now = SQLValue.integer(StorageEncoding.milliseconds(now))
        let expired = SQLValue.integer(StorageEncoding.milliseconds(expiredBefore))
        return try database.transaction { connection -> DeviceSignInRecord in
            // A presented token is ours when some account has it; a made-up one is not adopted.
            var digest = freshDigest
            if let presentedDigest,
                try !connection.query("SELECT 1 AS found FROM recognised_devices WHERE token_digest = ? LIMIT 1", [.text(presentedDigest)])
                    .isEmpty
            {
                digest = presentedDigest
            }
            let hadDevices = try !connection.query("SELECT 1 AS found FROM recognised_devices WHERE account_id = ? LIMIT 1", [account])
                .isEmpty
            let wasRecognised = try !connection.query(
                """
                SELECT 1 AS found FROM recognised_devices
                WHERE account_id = ? AND token_digest = ? AND credential_version = ? AND last_used_at >= ?
                """, [account, .text(digest), version, expired]
            ).isEmpty
            try connection.execute(
                """
                INSERT INTO recognised_devices (account_id, token_digest, credential_version, created_at, last_used_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (account_id, token_digest) DO UPDATE SET credential_version = excluded.credential_version,
                    last_used_at = excluded.last_used_at
                """, [account, .text(digest), version, now, now])
            try connection.execute(
                """
                DELETE FROM recognised_devices WHERE account_id = ? AND (last_used_at < ? OR token_digest NOT IN (
                    SELECT token_digest FROM recognised_devices WHERE account_id = ?
                    ORDER BY last_used_at DESC, token_digest LIMIT ?))
                """, [account, expired, account, .integer(Int64(keep))])
            return DeviceSignInRecord(keptPresented: digest != freshDigest, wasRecognised: wasRecognised, accountHadDevices: hadDevices)
        }
    }
}
