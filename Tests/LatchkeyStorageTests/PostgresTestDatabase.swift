import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage

/// A fresh database on the test PostgreSQL server (`LATCHKEY_TEST_DATABASE_URL`, which
/// `make test` and scripts/with-postgres.sh export), so every test has its own schema;
/// ``drop()`` removes it.
final class PostgresTestDatabase: Sendable {
    /// The test server's admin URL text, or nil when no server is configured.
    static let adminURLText: String? = {
        let text = ProcessInfo.processInfo.environment["LATCHKEY_TEST_DATABASE_URL"] ?? ""
        return text.isEmpty ? nil : text
    }()

    /// Whether a test server is configured; the PostgreSQL tests run only then.
    static var isConfigured: Bool { adminURLText != nil }

    /// The new database's name (`latchkey_` and 32 hex digits).
    let name: String
    /// The URL text of the new database, with the admin login.
    let urlText: String
    /// The parsed URL of the new database.
    let url: PostgresURL
    private let admin: PostgresConnection

    /// Creates the database; throws when no test server is configured or it fails.
    init() throws {
        guard let adminText = Self.adminURLText, var components = URLComponents(string: adminText) else {
            throw LatchkeyError(.storage, "LATCHKEY_TEST_DATABASE_URL is not set.")
        }
        admin = try PostgresConnection(url: try PostgresURL(adminText), statementTimeout: 30, connectTimeout: 5)
        name = "latchkey_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try admin.execute("CREATE DATABASE \(name)")
        components.path = "/" + name
        urlText = components.string ?? ""
        url = try PostgresURL(urlText)
    }

    /// Drops the database; FORCE ends the connections stores under test still hold.
    func drop() {
        _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// A new connection to this database, outside any store.
    func connect(statementTimeout: TimeInterval = 30) throws -> PostgresConnection {
        try PostgresConnection(url: url, statementTimeout: statementTimeout, connectTimeout: 5)
    }

    /// Ends every other session on this database, as a server restart or an operator's
    /// `pg_terminate_backend` would; returns how many were ended.
    @discardableResult
    func terminateSessions() throws -> Int {
        let rows = try admin.query(
            """
            SELECT COUNT(*) AS value FROM (
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()
            ) AS ended
            """, [.text(name)])
        return Int(try rows.first?.integer("value") ?? 0)
    }
}
