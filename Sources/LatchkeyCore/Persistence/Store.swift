package import Foundation

/// Housekeeping shared by every store.
package protocol MaintenanceStore: Sendable {
    /// Applies every pending migration (each in its own transaction, recorded in
    /// `schema_migrations`); returns the versions applied, empty when up to date. Throws
    /// `storage_error` when the database was migrated by a newer version of Latchkey.
    @discardableResult func migrate() throws -> [Int]
    /// How far the schema is: the highest migration applied (0 for a database without
    /// Latchkey's tables) and the highest this build has. Changes nothing.
    func schemaVersions() throws -> (applied: Int, latest: Int)
    /// Deletes reset tokens and address-change tokens that expired, were used or were superseded before `cutoff`,
    /// sessions that expired or were revoked before it, authorization codes that expired
    /// before it, mail sent or given up before it (pending mail is kept), reset and sign-up
    /// requests still pending since before it, registrations that expired, were used or
    /// were superseded before it, and unconfirmed authenticator secrets and second-factor
    /// challenges that expired before it, and passkey challenges that expired before it;
    /// returns how many rows were removed.
    @discardableResult func purge(before cutoff: Date) throws -> Int
    /// Whether the database answers a trivial query.
    func isReady() -> Bool
}

/// Everything the server persists. SQLite is the embedded implementation, PostgreSQL the
/// one several servers share. Instants are stored to the millisecond; every
/// implementation is safe to use from many threads.
package typealias Store = AccountStore & ResetTokenStore & OutboxStore & ClientStore & SessionStore
    & AuthorizationStore & RegistrationStore & AccountChangeStore & EmailChangeStore & MaintenanceStore
    & SecondFactorStore & RecognisedDeviceStore & PasskeyStore
