package import LatchkeyCore
package import LatchkeyCrypto
package import Foundation

/// The ``Store`` for several servers sharing one PostgreSQL database (libpq, a bounded
/// connection pool).
///
/// Every multi-statement change is one transaction. The changes that must have a single
/// winner even across servers are single conditional statements that PostgreSQL
/// serialises on the row: consuming a reset or refresh token is an
/// `UPDATE … WHERE used_at IS NULL … RETURNING`, leasing mail picks rows with
/// `FOR UPDATE SKIP LOCKED`. Every transaction that issues, consumes or revokes an
/// account's tokens locks the account row first (`FOR NO KEY UPDATE`), so a reset or
/// revocation racing a login or refresh on another server leaves no live token behind,
/// and such transactions queue instead of deadlocking.
/// Migrations take a transaction-scoped advisory lock, so servers starting together
/// migrate once. The store logic, schema and value encoding are the SQLite store's (see
/// ``SQLStore`` and ``Migrations``), so both behave identically to the millisecond.
package final class PostgresStore: Sendable, SQLStore {
    let database: PostgresConnectionPool
    let clock: any WallClock
    let mailBox: SecretBox

    /// A store on the database `url` names, with at most `poolSize` connections; each
    /// statement may run `statementTimeout` seconds, and a call waits as long for a free
    /// connection. Connects lazily: nothing is opened until the first call, so this
    /// never fails; call ``migrate()`` before use (it fails when the database cannot be
    /// reached). `mailBox` seals the bodies of waiting mail (see ``SQLStore/mailBox``);
    /// `clock` stamps the few changes whose methods take no `now`.
    package init(
        url: PostgresURL, mailBox: SecretBox, poolSize: Int = 8, statementTimeout: TimeInterval = 5,
        clock: any WallClock = SystemClock()
    ) {
        database = PostgresConnectionPool(
            url: url, size: max(1, poolSize), statementTimeout: statementTimeout, connectTimeout: 5,
            acquireTimeout: statementTimeout)
        self.clock = clock
        self.mailBox = mailBox
    }
}

extension PostgresStore: AccountStore, ResetTokenStore, OutboxStore, ClientStore, SessionStore, AuthorizationStore,
    RegistrationStore, AccountChangeStore, EmailChangeStore, MaintenanceStore, SecondFactorStore, RecognisedDeviceStore,
    PasskeyStore {}
