import Foundation

/// A redis-server of the test's own, started with `scripts/redis-test-server.sh` on a free
/// loopback port (no persistence), so a test can stop and restart it; stopped when the
/// value goes away.
package final class RedisTestServer: Sendable {
    /// The script's output when it was not a URL with a port.
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    private static let script = ChildProcess.repository.appendingPathComponent("scripts/redis-test-server.sh")

    private let directory: URL
    /// `redis://127.0.0.1:PORT/0`.
    package let url: String
    /// The loopback port it listens on.
    package let port: Int

    /// Starts the server (a free port; the script waits until it answers).
    package init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-redis-\(UUID().uuidString)")
        url = try Self.run("start", directory.path)
        guard let port = URLComponents(string: url)?.port else { throw Failed(description: "unexpected URL \(url)") }
        self.port = port
    }

    deinit {
        _ = try? Self.run("stop", directory.path)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the server and waits until it has exited.
    package func stop() throws { _ = try Self.run("stop", directory.path) }

    /// Starts it again on the same port (empty: nothing is persisted).
    package func restart() throws { _ = try Self.run("start", directory.path, String(port)) }

    @discardableResult
    private static func run(_ arguments: String...) throws -> String {
        try ChildProcess.succeed(script.path, arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
