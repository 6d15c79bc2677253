import Foundation
import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Testing

/// A database password never shows in an error, and taking it out never garbles the message:
/// libpq's text is scrubbed by its form (``CredentialScrubber``), not by searching for the
/// password, which once turned "Is the server running" into "Is the <redacted> running" for
/// the password `server`.
@Suite struct PostgresRedactionTests {
    @Test("an unreachable database's error reads as libpq wrote it, whatever word the password is", arguments: [
        "server", "5432", "localhost", "postgres", "127.0.0.1", "running", "p@ss", "%40",
    ])
    func unreachableDatabase(password: String) throws {
        let encoded = try #require(password.addingPercentEncoding(withAllowedCharacters: .urlPasswordAllowed))
        let url = try PostgresURL("postgres://latchkey:\(encoded)@127.0.0.1:1/latchkey?connect_timeout=2")
        let error = try #require(throws: LatchkeyError.self) { try PostgresStore(url: url, mailBox: .forTests).migrate() }
        #expect(error.code == .storageUnavailable)
        let detail = try #require(error.detail)
        #expect(detail.hasPrefix("postgres://latchkey:<redacted>@127.0.0.1:1/latchkey?connect_timeout=2: "))
        #expect(detail.contains("Is the server running on that host and accepting TCP/IP connections?"))
        #expect(detail.contains("connection to server at \"127.0.0.1\", port 1 failed"))
        // The one placeholder is where the URL's password was.
        #expect(detail.components(separatedBy: "<redacted>").count == 2)
        for text in [error.message, detail, "\(error)", String(reflecting: error)] {
            #expect(!text.contains(":\(password)@") && !text.contains(":\(encoded)@"))
        }
    }
}
