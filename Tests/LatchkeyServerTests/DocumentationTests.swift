import Foundation
import LatchkeyCore
import LatchkeyServer
import Testing

/// The operator documentation says what the code does.
@Suite struct DocumentationTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// docs/deploy.md's settings section.
    private static func settingsSection() throws -> String {
        let text = try String(contentsOf: repository.appendingPathComponent("docs/deploy.md"), encoding: .utf8)
        return try #require(text.components(separatedBy: "\n## Settings\n").last)
    }

    @Test("docs/deploy.md's settings table lists exactly the settings the server reads, in the same order")
    func settingsTable() throws {
        let documented = try Self.settingsSection().split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `LATCHKEY_") else { return nil }
            return line.dropFirst(3).split(separator: "`").first.map(String.init)
        }
        // LATCHKEY_ISSUER is read by the client commands, not by the server.
        #expect(documented.filter { $0 != "LATCHKEY_ISSUER" } == Setting.all.filter { $0.scope == .server }.map(\.name))
    }

    @Test("docs/deploy.md's settings table is the one generated from the settings table in the code")
    func settingsTableIsGenerated() throws {
        let documented = try Self.settingsSection().split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("| variable ") }.prefix { $0.hasPrefix("|") }.joined(separator: "\n")
        // On failure, print only the table to paste (an #expect would print both tables in full).
        if documented != Setting.markdownTable {
            Issue.record("docs/deploy.md's settings table is out of date; replace it with (`latchkey settings --markdown`):\n\(Setting.markdownTable)")
        }
    }

    @Test("the README's token endpoint row and docs/oauth.md name every grant the token endpoint offers")
    func grantsDocumented() throws {
        let app = try makeApplication()
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let tokenRow = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `POST /oauth/token`") })
        let oauth = try String(contentsOf: Self.repository.appendingPathComponent("docs/oauth.md"), encoding: .utf8)
        for grantType in app.grants.grantTypes {
            #expect(tokenRow.contains(grantType), "README: \(grantType)")
            #expect(oauth.contains("grant_type=" + grantType), "docs/oauth.md: \(grantType)")
        }
    }
}
