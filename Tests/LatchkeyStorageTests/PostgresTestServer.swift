import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage

/// A PostgreSQL server of the test's own (scripts/postgres-test-server.sh), for the tests
/// that stop and restart it without disturbing the shared test server. Stopped and deleted
/// when released.
final class PostgresTestServer: Sendable {
    /// The superuser's URL on the server's `postgres` database.
    let url: PostgresURL
    private let directory: URL

    /// Starts the server (a few seconds: initdb, then start-up).
    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-postgres-server-\(UUID().uuidString.lowercased())")
        let output = try Self.run("start", directory)
        url = try PostgresURL(output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    deinit {
        _ = try? Self.run("stop", directory)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the server; its port then refuses connections.
    func stop() throws {
        try Self.run("stop", directory)
    }

    /// Restarts the server, or starts it again after ``stop()``, on the same port.
    func restart() throws {
        try Self.run("restart", directory)
    }

    /// Runs the script with `command` and `directory`; returns its standard output.
    @discardableResult
    private static func run(_ command: String, _ directory: URL) throws -> String {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/postgres-test-server.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, command, directory.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LatchkeyError(.storage, "postgres-test-server.sh \(command) failed (status \(process.terminationStatus)).")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
