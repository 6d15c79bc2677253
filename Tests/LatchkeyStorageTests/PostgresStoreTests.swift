import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
@testable import LatchkeyServer
import Synchronization
import Testing
import LatchkeyTestSupport

/// What is particular to the PostgreSQL store: connection loss, timeouts, and the race
/// guarantees between several servers (stores) on one database. The shared behaviour is
/// in StoreContractTests, which runs against PostgreSQL too.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, "needs LATCHKEY_TEST_DATABASE_URL (make test sets it)"))
struct PostgresStoreTests {
    @Test("a statement is prepared once per connection and then reused, whatever its values")
    func preparedStatements() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        let sql = "SELECT $1::bigint + 1 AS value"
        for value in [Int64(1), 41] {
            #expect(try connection.query(sql, [.integer(value)]).first?.integer("value") == value + 1)
        }
        let prepared = try connection.query(
            "SELECT COUNT(*) AS value FROM pg_prepared_statements WHERE statement = $1", [.text(sql)])
        #expect(try prepared.first?.integer("value") == 1)
    }

    @Test("a text value with a NUL is refused, never cut short at the NUL by libpq")
    func nulIsRefused() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let store = PostgresStore(url: database.url, mailBox: .forTests)
        try store.migrate()
        let account = try makeAccount(in: store, email: "carol@example.com")
        let error = #expect(throws: LatchkeyError.self) { try store.account(email: account.email + "\u{0}x") }
        #expect(error?.code == .storage)
    }

    @Test("after the database ends every session, the next read and write reconnect")
    func reconnectsAfterSessionsEnd() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let store = PostgresStore(url: database.url, mailBox: .forTests)
        try store.migrate()
        let account = try makeAccount(in: store, email: "before@example.com")

        #expect(try database.terminateSessions() >= 1)
        #expect(try store.account(email: account.email) == account)

        #expect(try database.terminateSessions() >= 1)
        let second = try makeAccount(in: store, email: "after@example.com", createdAt: account.createdAt.addingTimeInterval(1))
        #expect(try store.allAccounts() == [account, second])
    }

    @Test("while the PostgreSQL server is down calls fail and readiness is false; after it restarts the next call reconnects")
    func survivesServerRestart() throws {
        let server = try PostgresTestServer()
        let store = PostgresStore(url: server.url, mailBox: .forTests)
        try store.migrate()
        let account = try makeAccount(in: store, email: "restart@example.com")

        try server.restart()
        #expect(try store.account(email: account.email) == account)

        try server.stop()
        #expect(!store.isReady())
        let error = try #require(throws: LatchkeyError.self) { try store.pendingMailCount() }
        #expect(error.code == .storageUnavailable)

        try server.restart()
        #expect(store.isReady())
        #expect(try store.account(email: account.email) == account)
    }

    @Test("a statement blocked past the statement timeout fails with storage_unavailable instead of hanging")
    func statementTimeout() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let store = PostgresStore(url: database.url, mailBox: .forTests, statementTimeout: 0.3)
        try store.migrate()
        let account = try makeAccount(in: store, email: "locked@example.com")

        let blocker = try database.connect()
        try blocker.execute("BEGIN")
        try blocker.execute("LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE")
        let error = try #require(throws: LatchkeyError.self) { try store.account(email: account.email) }
        #expect(error.code == .storageUnavailable)
        #expect(error.detail?.contains("SQLSTATE 57014") == true)
        try blocker.execute("ROLLBACK")

        #expect(try store.account(email: account.email) == account)
    }

    @Test("a call that finds every pooled connection in use fails with storage_unavailable after the wait")
    func exhaustedPool() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let store = PostgresStore(url: database.url, mailBox: .forTests, poolSize: 1, statementTimeout: 0.2)
        try store.migrate()

        try store.database.read { _ in
            let error = try #require(throws: LatchkeyError.self) { try store.pendingMailCount() }
            #expect(error.code == .storageUnavailable && error.retryAfter == 1)
            #expect(error.message == "The database is busy.")
        }
        #expect(try store.pendingMailCount() == 0)
    }

    @Test("100 racing resets of one token through two stores have exactly one winner")
    func racingResetsOnTwoStores() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let clock = ManualClock()
        let stores = try twoServers(on: database, clock: clock)
        let account = try makeAccount(in: stores[0], email: "race@example.com")
        let digest = randomDigest()
        let now = clock.now()
        try stores[1].issueResetToken(
            ResetTokenRecord(digest: digest, accountID: account.id, createdAt: now, expiresAt: now.addingTimeInterval(600)),
            mail: try mail(to: account.email), now: now)

        let winners = Mutex<[Int]>([])
        let failures = Mutex<[String]>([])
        runOnThreads(100) { index in
            do {
                let updated = try stores[index % 2].completeReset(
                    digest: digest, newPasswordHash: "$argon2id$winner-\(index)", now: now,
                    notification: { try mail(to: $0.email) })
                if updated != nil { winners.withLock { $0.append(index) } }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }

        #expect(failures.withLock { $0 } == [])
        let winner = try #require(winners.withLock { $0 }.only)
        let stored = try #require(try stores[1].account(id: account.id))
        #expect(stored.passwordHash == "$argon2id$winner-\(winner)")
        #expect(stored.credentialVersion == 1)
        // The reset mail and exactly one "password changed" mail.
        #expect(try stores[0].pendingMailCount() == 2)
    }

    @Test("logins racing a reset on another store leave no live token of the old password")
    func loginsRacingAReset() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let clock = ManualClock()
        let stores = try twoServers(on: database, clock: clock)
        let account = try makeAccount(in: stores[0], email: "login-race@example.com")
        let digest = randomDigest()
        let now = clock.now()
        try stores[0].issueResetToken(
            ResetTokenRecord(digest: digest, accountID: account.id, createdAt: now, expiresAt: now.addingTimeInterval(600)),
            mail: try mail(to: account.email), now: now)
        let failures = Mutex<[String]>([])

        runOnThreads(24) { index in
            do {
                if index == 12 {
                    _ = try stores[1].completeReset(
                        digest: digest, newPasswordHash: "$argon2id$new", now: now, notification: { try mail(to: $0.email) })
                } else {
                    _ = try stores[index % 2].createRefreshToken(
                        digest: randomDigest(), accountID: account.id, familyID: UUID().uuidString.lowercased(),
                        clientID: nil, scope: [], credentialVersion: 0, assurance: .signedIn(at: now), origin: .test, now: now,
                        idleExpiresAt: now.addingTimeInterval(600), absoluteExpiresAt: now.addingTimeInterval(3600),
                        liveFamilyLimit: 100)
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }

        #expect(failures.withLock { $0 } == [])
        #expect(try stores[0].account(id: account.id)?.credentialVersion == 1)
        #expect(try liveSessionCount(in: database, accountID: account.id) == 0)
    }

    @Test("refreshes racing a reset on another store leave no live token of the old password")
    func refreshesRacingAReset() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let clock = ManualClock()
        let stores = try twoServers(on: database, clock: clock)
        let account = try makeAccount(in: stores[0], email: "refresh-race@example.com")
        let now = clock.now()
        let resetDigest = randomDigest()
        try stores[0].issueResetToken(
            ResetTokenRecord(digest: resetDigest, accountID: account.id, createdAt: now, expiresAt: now.addingTimeInterval(600)),
            mail: try mail(to: account.email), now: now)
        let refreshDigests = (0..<16).map { _ in randomDigest() }
        for digest in refreshDigests {
            _ = try stores[0].createRefreshToken(
                digest: digest, accountID: account.id, familyID: UUID().uuidString.lowercased(), clientID: nil, scope: [],
                credentialVersion: 0, assurance: .signedIn(at: now), origin: .test, now: now, idleExpiresAt: now.addingTimeInterval(600),
                absoluteExpiresAt: now.addingTimeInterval(3600), liveFamilyLimit: 100)
        }
        let failures = Mutex<[String]>([])

        runOnThreads(refreshDigests.count + 1) { index in
            do {
                if index == refreshDigests.count / 2 {
                    _ = try stores[1].completeReset(
                        digest: resetDigest, newPasswordHash: "$argon2id$new", now: now,
                        notification: { try mail(to: $0.email) })
                } else {
                    let digest = refreshDigests[index > refreshDigests.count / 2 ? index - 1 : index]
                    _ = try stores[index % 2].rotateRefreshToken(
                        presentedDigest: digest, newDigest: randomDigest(), now: now, idleTTL: 600, reuseGrace: 0, accepts: { _ in true })
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }

        #expect(failures.withLock { $0 } == [])
        #expect(try stores[0].account(id: account.id)?.credentialVersion == 1)
        #expect(try liveSessionCount(in: database, accountID: account.id) == 0)
    }

    @Test("workers on two stores deliver every mail exactly once")
    func outboxDeliveredOnce() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let clock = ManualClock()
        let stores = try twoServers(on: database, clock: clock)
        var queued: Set<String> = []
        for index in 0..<60 {
            let message = try mail(subject: "message \(index)")
            try stores[index % 2].enqueue(message, now: clock.now())
            queued.insert(message.id)
        }
        let now = clock.now()
        let delivered = Mutex<[String]>([])
        let failures = Mutex<[String]>([])

        runOnThreads(8) { index in
            let store = stores[index % 2]
            do {
                // Bounded, so a store that hands out a message twice fails the test instead of hanging it.
                for _ in 0..<60 {
                    let batch = try store.leaseDueMail(now: now, lease: 300, limit: 4)
                    if batch.isEmpty { return }
                    for entry in batch {
                        delivered.withLock { $0.append(entry.message.id) }
                        try store.markSent(id: entry.message.id, now: now)
                    }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }

        #expect(failures.withLock { $0 } == [])
        let ids = delivered.withLock { $0 }
        #expect(ids.count == 60)
        #expect(Set(ids) == queued)
        #expect(try stores[1].pendingMailCount() == 0)
    }

    @Test("a lease that expired is taken over by another store, and not before")
    func expiredLeaseIsTakenOver() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let clock = ManualClock()
        let first = PostgresStore(url: database.url, mailBox: .forTests, clock: clock)
        let second = PostgresStore(url: database.url, mailBox: .forTests, clock: clock)
        try first.migrate()
        let message = try mail()
        try first.enqueue(message, now: clock.now())

        #expect(try first.leaseDueMail(now: clock.now(), lease: 30, limit: 10).map(\.message.id) == [message.id])
        clock.advance(by: 29)
        #expect(try second.leaseDueMail(now: clock.now(), lease: 30, limit: 10) == [])
        clock.advance(by: 1)
        #expect(try second.leaseDueMail(now: clock.now(), lease: 30, limit: 10).map(\.message.id) == [message.id])
    }

    @Test("stores migrating one database at the same time apply each migration once")
    func concurrentMigrations() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let stores = (0..<4).map { _ in PostgresStore(url: database.url, mailBox: .forTests) }
        let applied = Mutex<[Int]>([])
        let failures = Mutex<[String]>([])

        runOnThreads(stores.count) { index in
            do {
                let versions = try stores[index].migrate()
                applied.withLock { $0 += versions }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }

        #expect(failures.withLock { $0 } == [])
        #expect(applied.withLock { $0 }.sorted() == Migrations.all.map(\.version))
        let direct = try database.connect()
        let recorded = try direct.query("SELECT COUNT(*) AS value FROM schema_migrations").first?.integer("value")
        #expect(recorded == Int64(Migrations.all.count))
    }

    @Test("a wrong password fails with storage_unavailable that never contains the password")
    func passwordNeverInErrors() throws {
        let secret = "wrong-\(UUID().uuidString.lowercased())"
        let adminURL = try #require(PostgresTestDatabase.adminURLText)
        var components = try #require(URLComponents(string: adminURL))
        components.password = secret
        let url = try PostgresURL(try #require(components.string))
        let store = PostgresStore(url: url, mailBox: .forTests)

        let error = try #require(throws: LatchkeyError.self) { try store.migrate() }
        #expect(error.code == .storageUnavailable)
        #expect(error.detail?.contains("password authentication failed") == true)
        for text in [error.message, error.detail ?? "", "\(error)", String(reflecting: error), "\(url)"] {
            #expect(!text.contains(secret))
        }
        #expect(!store.isReady())
    }

    @Test("a constraint violation names the constraint but quotes no row values")
    func errorsQuoteNoValues() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let clock = ManualClock()
        let store = PostgresStore(url: database.url, mailBox: .forTests, clock: clock)
        try store.migrate()
        let account = try makeAccount(in: store, email: "private.person@example.com")
        let digest = randomDigest()
        let now = clock.now()
        let token = ResetTokenRecord(digest: digest, accountID: account.id, createdAt: now, expiresAt: now.addingTimeInterval(600))
        try store.issueResetToken(token, mail: try mail(to: account.email), now: now)

        let error = try #require(throws: LatchkeyError.self) {
            try store.issueResetToken(token, mail: try mail(to: account.email), now: now)
        }
        #expect(error.code == .storage)
        #expect(error.detail?.contains("SQLSTATE 23505") == true)
        #expect(error.detail?.contains("reset_tokens_pkey") == true)
        #expect(error.detail?.contains(StorageEncoding.hex(digest)) == false)
        #expect(error.detail?.contains(account.id) == false)
        #expect(try store.pendingMailCount() == 1)
    }

    @Test("LATCHKEY_DATABASE_URL makes the server open and migrate a PostgreSQL store")
    func configurationSelectsPostgres() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let configuration = try Configuration.load(environment: [
            "LATCHKEY_DATABASE_URL": database.urlText,
            "LATCHKEY_DATABASE_POOL_SIZE": "2",
            "LATCHKEY_DATA_DIR": FileManager.default.temporaryDirectory
                .appendingPathComponent("latchkey-unused-\(UUID().uuidString.lowercased())").path,
        ])
        let store = try ServerApplication.openStore(configuration, mailBox: .forTests)
        #expect(store is PostgresStore)
        #expect(try store.migrate() == [])
        #expect(!FileManager.default.fileExists(atPath: configuration.dataDirectory.path))
    }

    /// Creates and stores an active account.
    /// Two stores on one migrated database, sharing `clock`, as two servers would be.
    private func twoServers(on database: PostgresTestDatabase, clock: ManualClock) throws -> [PostgresStore] {
        let stores = [PostgresStore(url: database.url, mailBox: .forTests, clock: clock), PostgresStore(url: database.url, mailBox: .forTests, clock: clock)]
        try stores[0].migrate()
        return stores
    }

    /// The account's unrevoked sessions (refresh tokens and browser sessions), read directly.
    private func liveSessionCount(in database: PostgresTestDatabase, accountID: String) throws -> Int64? {
        let rows = try database.connect().query(
            "SELECT COUNT(*) AS value FROM sessions WHERE account_id = $1 AND revoked_at IS NULL", [.text(accountID)])
        return try rows.first?.integer("value")
    }

    private func makeAccount(
        in store: PostgresStore, email: String, createdAt: Date = Date(timeIntervalSince1970: 1_800_000_000.5)
    ) throws -> Account {
        let account = Account(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: "$argon2id$old", status: .active,
            credentialVersion: 0, locale: "en", createdAt: createdAt)
        try store.createAccount(account)
        return account
    }
}

/// A message with a fresh id.
private func mail(to recipient: String = "person@example.com", subject: String = "Hello") throws -> MailMessage {
    try MailMessage(
        id: UUID().uuidString.lowercased(), to: recipient, subject: subject, textBody: "Text of \(subject)",
        htmlBody: "<p>HTML of \(subject)</p>", locale: "en")
}

extension Array {
    /// The single element, or nil when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
