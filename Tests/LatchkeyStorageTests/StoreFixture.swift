import Foundation
import LatchkeyCrypto
@testable import LatchkeyCore
@testable import LatchkeyStorage
import Testing
import LatchkeyTestSupport

/// A fresh, unmigrated store under test, with what the contract tests need beyond the
/// `Store` protocol: a second connection to the same database (another server process)
/// and direct SQL for fixtures that no store API writes yet (sessions).
final class StoreFixture: Sendable {
    /// The store under test, not yet migrated.
    let store: any Store
    /// The clock tests move; also the store's own clock.
    let clock: ManualClock
    /// Opens another, independent store on the same database, sealing mail with this box.
    let openSealing: @Sendable (SecretBox) throws -> any Store
    /// Runs one portable SQL statement directly against the database.
    let execute: @Sendable (String) throws -> Void
    /// Runs a portable `SELECT` whose single row has an integer column named `value`.
    let integer: @Sendable (String) throws -> Int
    private let tearDown: @Sendable () -> Void

    init(
        store: any Store, clock: ManualClock, openSealing: @escaping @Sendable (SecretBox) throws -> any Store,
        execute: @escaping @Sendable (String) throws -> Void, integer: @escaping @Sendable (String) throws -> Int,
        tearDown: @escaping @Sendable () -> Void
    ) {
        self.store = store
        self.clock = clock
        self.openSealing = openSealing
        self.execute = execute
        self.integer = integer
        self.tearDown = tearDown
    }

    deinit { tearDown() }

    /// Opens another, independent store on the same database (another server process).
    func openAnother() throws -> any Store { try openSealing(.forTests) }

    /// The store, migrated.
    func migratedStore() throws -> any Store {
        try store.migrate()
        return store
    }

    /// `date` as the stores write it (Unix-epoch milliseconds).
    func literal(_ date: Date) -> String { String(StorageEncoding.milliseconds(date)) }

    /// Inserts a session row for `accountID`; returns its id.
    @discardableResult
    func insertSession(accountID: String, expiresAt: Date, revokedAt: Date? = nil) throws -> String {
        let id = UUID().uuidString.lowercased()
        try execute(
            """
            INSERT INTO sessions (id, account_id, kind, token_digest, created_at, expires_at, revoked_at)
            VALUES ('\(id)', '\(accountID)', 'browser', '\(StorageEncoding.hex(randomDigest()))',
                    \(literal(clock.now())), \(literal(expiresAt)), \(revokedAt.map(literal) ?? "NULL"))
            """)
        return id
    }

    /// Inserts a reset token row directly, bypassing the supersession `issueResetToken` does.
    func insertResetToken(
        _ digest: Data, accountID: String, expiresAt: Date, usedAt: Date? = nil, supersededAt: Date? = nil
    ) throws {
        try execute(
            """
            INSERT INTO reset_tokens (token_digest, account_id, created_at, expires_at, used_at, superseded_at)
            VALUES ('\(StorageEncoding.hex(digest))', '\(accountID)', \(literal(clock.now())), \(literal(expiresAt)),
                    \(usedAt.map(literal) ?? "NULL"), \(supersededAt.map(literal) ?? "NULL"))
            """)
    }
}

/// Makes a fixture for one store implementation. Adding an implementation to the
/// contract suite means adding one factory to ``all``.
struct StoreFactory: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let make: @Sendable () throws -> StoreFixture

    /// Every implementation the contract suite runs against: SQLite, and PostgreSQL when
    /// a test server is configured (always under `make test`).
    static let all: [StoreFactory] = PostgresTestDatabase.isConfigured ? [.sqlite, .postgres] : [.sqlite]

    /// A SQLite file in a fresh temporary directory, removed with the fixture.
    static let sqlite = StoreFactory(testDescription: "SQLite") {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-store-\(UUID().uuidString.lowercased())")
        let path = directory.appendingPathComponent("data/latchkey.sqlite").path
        let clock = ManualClock()
        let store = try SQLiteStore(path: path, mailBox: .forTests, clock: clock)
        let direct = try SQLiteDatabase(path: path)
        return StoreFixture(
            store: store,
            clock: clock,
            openSealing: { box in try SQLiteStore(path: path, mailBox: box, clock: clock) },
            execute: { sql in _ = try direct.withConnection { try $0.execute(sql) } },
            integer: { sql in
                let value = try direct.withConnection { try $0.query(sql).first?.integer("value") }
                guard let value else { throw LatchkeyError(.storage, "The query returned no row.", detail: sql) }
                return Int(value)
            },
            tearDown: { try? FileManager.default.removeItem(at: directory) })
    }
}

extension StoreFactory {
    /// A fresh database on the test PostgreSQL server, dropped with the fixture.
    static let postgres = StoreFactory(testDescription: "PostgreSQL") {
        let database = try PostgresTestDatabase()
        let clock = ManualClock()
        let direct = try database.connect()
        return StoreFixture(
            store: PostgresStore(url: database.url, mailBox: .forTests, clock: clock),
            clock: clock,
            openSealing: { box in PostgresStore(url: database.url, mailBox: box, clock: clock) },
            execute: { sql in try direct.execute(sql) },
            integer: { sql in
                guard let value = try direct.query(sql).first?.integer("value") else {
                    throw LatchkeyError(.storage, "The query returned no row.", detail: sql)
                }
                return Int(value)
            },
            tearDown: { database.drop() })
    }
}

/// 32 random bytes, the size of a SHA-256 digest.
func randomDigest() -> Data {
    Data((0..<32).map { _ in UInt8.random(in: .min ... .max) })
}

/// A new login (refresh-token family) of the stored account `accountID` at `now`, under its
/// current credential version, as `/auth/login` starts one: for `clientID`, from `origin`, its
/// token valid `idle` seconds unless rotated.
func createLogin(
    of accountID: String, in store: any Store, now: Date, clientID: String? = nil, origin: LoginOrigin = .test,
    idle: TimeInterval = 86400
) throws -> RefreshTokenRecord {
    let current = try #require(try store.account(id: accountID))
    return try #require(try store.createRefreshToken(
        digest: randomDigest(), accountID: accountID, familyID: UUID().uuidString.lowercased(), clientID: clientID, scope: [],
        credentialVersion: current.credentialVersion, assurance: .signedIn(at: now), origin: origin, now: now,
        idleExpiresAt: now.addingTimeInterval(idle), absoluteExpiresAt: now.addingTimeInterval(30 * 86400), liveFamilyLimit: 100))
}

/// A new live login of the stored account `accountID` at `now` (``createLogin(of:in:now:clientID:origin:idle:)``):
/// the reference account changes are made by.
func liveLogin(of accountID: String, in store: any Store, now: Date) throws -> LoginReference {
    let record = try createLogin(of: accountID, in: store, now: now)
    return LoginReference(accountID: accountID, familyID: record.familyID, credentialVersion: record.credentialVersion)
}
