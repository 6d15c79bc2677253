import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyStorage
import LatchkeyRedis
import LatchkeyMail
import LatchkeyWeb
import LatchkeyPasswordStrength
import LatchkeyServer
import Testing

/// The operator documentation says what the code does.
@Suite struct DocumentationTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("docs/deploy.md's settings table lists exactly the settings the server reads, in the same order")
    func settingsTable() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("docs/deploy.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Settings\n").last)
        let documented = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `LATCHKEY_") else { return nil }
            return line.dropFirst(3).split(separator: "`").first.map(String.init)
        }
        // LATCHKEY_ISSUER is read by the client commands, not by the server.
        #expect(documented.filter { $0 != "LATCHKEY_ISSUER" } == Configuration.variableNames)
    }
}
