import Foundation
import LatchkeyCore
import Testing

/// Credentials leave library messages by their form, never by a search for their text.
@Suite struct CredentialScrubberTests {
    static let libpqRefused = """
        connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused
        \tIs the server running on that host and accepting TCP/IP connections?
        """

    @Test("a password that is an ordinary word of the message leaves the message as libpq wrote it", arguments: [
        "server", "5432", "localhost", "postgres", "running", "Connection",
    ])
    func ordinaryWordsStay(password: String) {
        // The message itself holds no credential: nothing changes, whatever the password is.
        #expect(CredentialScrubber.scrub(Self.libpqRefused) == Self.libpqRefused)
        let quoted = "could not connect: postgres://latchkey:\(password)@localhost:5432/latchkey failed. " + Self.libpqRefused
        let scrubbed = CredentialScrubber.scrub(quoted)
        #expect(scrubbed == "could not connect: postgres://latchkey:<redacted>@localhost:5432/latchkey failed. " + Self.libpqRefused)
        #expect(!scrubbed.contains("latchkey:\(password)@"))
        #expect(scrubbed.components(separatedBy: "<redacted>").count == 2)
    }

    @Test("a URL's password goes, even with @, percent-encoded or not; its user and host stay", arguments: [
        ("postgres://app:p%40ss@db.example.com:5432/app", "postgres://app:<redacted>@db.example.com:5432/app"),
        ("postgres://app:p@ss@db.example.com/app?sslmode=require", "postgres://app:<redacted>@db.example.com/app?sslmode=require"),
        ("redis://:hunter2@127.0.0.1:6379/0 refused", "redis://:<redacted>@127.0.0.1:6379/0 refused"),
        ("rediss://default:@@@@cache.internal", "rediss://default:<redacted>@cache.internal"),
        ("smtp://mailer:server@mail.example.com:587", "smtp://mailer:<redacted>@mail.example.com:587"),
        ("postgres://app@db.example.com/app", "postgres://app@db.example.com/app"),
        ("see https://example.com/a@b for help", "see https://example.com/a@b for help"),
    ])
    func urlPasswords(text: String, expected: String) {
        #expect(CredentialScrubber.scrub(text) == expected)
    }

    @Test("password parameters lose their values: libpq's keyword/value form, quoted or not, and URL queries", arguments: [
        ("host=db port=5432 password=server dbname=app", "host=db port=5432 password=<redacted> dbname=app"),
        ("host=db password = 'a b' user=app", "host=db password = <redacted> user=app"),
        ("host=db password='it\\'s secret' user=app", "host=db password=<redacted> user=app"),
        ("postgres://db/app?sslmode=require&password=%40t&application_name=x",
         "postgres://db/app?sslmode=require&password=<redacted>&application_name=x"),
        ("PASSWORD=localhost", "PASSWORD=<redacted>"),
        ("sslpassword=\"x y\" host=h", "sslpassword=<redacted> host=h"),
        ("nopassword=kept passwords=kept", "nopassword=kept passwords=kept"),
        ("password authentication failed for user \"app\"", "password authentication failed for user \"app\""),
    ])
    func parameterPasswords(text: String, expected: String) {
        #expect(CredentialScrubber.scrub(text) == expected)
    }
}
