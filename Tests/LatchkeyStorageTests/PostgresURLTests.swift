import LatchkeyCrypto
import LatchkeyCore
import LatchkeyStorage
import LatchkeyServer
import Testing

/// Parsing `LATCHKEY_DATABASE_URL`, and keeping its password out of every text.
@Suite struct PostgresURLTests {
    @Test("a full URL gives host, port, user, decoded password, database and options")
    func parsesEveryPart() throws {
        let url = try PostgresURL("postgresql://latchkey:p%40ss%2Fw0rd@db.example.com:6432/accounts?sslmode=verify-full")
        #expect(url.host == "db.example.com")
        #expect(url.port == 6432)
        #expect(url.user == "latchkey")
        #expect(url.password?.exposed == "p@ss/w0rd")
        #expect(url.database == "accounts")
        #expect(url.options == ["sslmode": "verify-full"])
    }

    @Test("the port defaults to 5432 and an IPv6 host loses its brackets")
    func defaults() throws {
        let url = try PostgresURL("postgres://[::1]/latchkey")
        #expect(url.host == "::1")
        #expect(url.port == 5432)
        #expect(url.user == nil)
        #expect(url.password == nil)
        #expect(url.description == "postgres://[::1]:5432/latchkey")
    }

    @Test("the description shows the password as <redacted>")
    func descriptionRedacts() throws {
        let url = try PostgresURL("postgres://app:hunter2-secret@127.0.0.1:5432/latchkey?sslmode=require")
        #expect(url.description == "postgres://app:<redacted>@127.0.0.1:5432/latchkey?sslmode=require")
        #expect(!String(reflecting: url).contains("hunter2-secret"))
    }

    @Test(
        "a malformed URL is refused with invalid_configuration, never quoting the URL",
        arguments: [
            "mysql://app:hunter2-secret@db/latchkey",
            "postgres://app:hunter2-secret@/latchkey",
            "postgres://app:hunter2-secret@db:70000/latchkey",
            "postgres://app:hunter2-secret@db",
            "postgres://app:hunter2-secret@db/a/b",
            "postgres://app:hunter2-secret@db/latchkey?options=-c%20x",
            "postgres://app:hunter2-secret@db/latchkey?sslmode=",
            "postgres://app:hunter2-secret@db/latchkey?sslmode=verify",
            "postgres://app:hunter2-secret@db/latchkey?connect_timeout=1",
            "postgres://app:hunter2-secret@db/latchkey?connect_timeout=301",
            "postgres://app:hunter2-secret@db/latchkey?target_session_attrs=primary-only",
            "postgres://app:hunter2-secret@db/latchkey?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem",
            "postgres://app:hunter2-secret@db/latchkey?sslmode=require&sslrootcert=/etc/hostname",
        ])
    func malformed(text: String) throws {
        let error = try #require(throws: LatchkeyError.self) { try PostgresURL(text) }
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.hasPrefix("LATCHKEY_DATABASE_URL "))
        #expect(!"\(error)".contains("hunter2-secret"))
    }

    @Test("the libpq parameters operators use are accepted with the values libpq takes")
    func acceptedParameters() throws {
        let url = try PostgresURL(
            "postgres://app:pw@db/latchkey?sslmode=verify-full&sslrootcert=/etc/hostname&connect_timeout=3&target_session_attrs=read-write")
        #expect(url.options == [
            "sslmode": "verify-full", "sslrootcert": "/etc/hostname", "connect_timeout": "3", "target_session_attrs": "read-write",
        ])
        for mode in ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"] {
            #expect(try PostgresURL("postgres://app:pw@db/latchkey?sslmode=\(mode)").options["sslmode"] == mode)
        }
    }

    @Test("the configuration reads the URL, pool size and statement timeout")
    func configuration() throws {
        let unset = try Configuration.load(environment: [:])
        #expect(unset.databaseURL == nil)
        #expect(unset.databasePoolSize == 8)
        #expect(unset.databaseStatementTimeout == 5)

        let set = try Configuration.load(environment: [
            "LATCHKEY_DATABASE_URL": "postgres://app:hunter2-secret@db:5433/latchkey",
            "LATCHKEY_DATABASE_POOL_SIZE": "20", "LATCHKEY_DATABASE_STATEMENT_TIMEOUT": "2",
        ])
        #expect(set.databaseURL == (try PostgresURL("postgres://app:hunter2-secret@db:5433/latchkey")))
        #expect(set.databasePoolSize == 20)
        #expect(set.databaseStatementTimeout == 2)

        let error = try #require(throws: LatchkeyError.self) {
            try Configuration.load(environment: ["LATCHKEY_DATABASE_URL": "postgres://app:hunter2-secret@db"])
        }
        #expect(error.code == .invalidConfiguration)
        #expect(!"\(error)".contains("hunter2-secret"))
    }
}
