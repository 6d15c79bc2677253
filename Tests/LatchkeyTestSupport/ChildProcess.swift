package import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs command-line tools (openssl, curl, the repository's scripts) from tests.
///
/// posix_spawn rather than Foundation's Process: the child gets an empty signal mask (test
/// threads block signals, and a daemon that inherited that mask could not be stopped with
/// a signal), and waitpid cannot miss the exit.
package enum ChildProcess {
    package struct Failed: Error, CustomStringConvertible {
        package let description: String
    }

    /// The root of the repository (for `scripts/…`).
    package static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `executable` (looked up on PATH unless it has a slash) with stdin from
    /// /dev/null; returns its exit status and everything it wrote to stdout and stderr.
    package static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-child-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw Failed(description: "cannot run \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return (status, text)
    }

    /// Runs it and returns its output; throws when it exits with a failure.
    @discardableResult
    package static func succeed(_ executable: String, _ arguments: [String]) throws -> String {
        let (status, output) = try run(executable, arguments)
        guard status == 0 else {
            throw Failed(description: "\(executable) \(arguments.joined(separator: " ")) failed (\(status)): \(output)")
        }
        return output
    }
}
