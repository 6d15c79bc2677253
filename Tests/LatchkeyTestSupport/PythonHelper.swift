package import Foundation

/// A helper server written in Python (under `e2e/`), run for one test with the Python
/// `make test` names in `LATCHKEY_TEST_PYTHON`. The helper prints `READY <port>` once it
/// listens and stops when its standard input closes — when this value goes away, or when
/// the test process dies.
package final class PythonHelper: Sendable {
    /// Why a helper could not be started.
    package struct StartFailed: Error, CustomStringConvertible {
        /// What went wrong, with the helper's standard error when there is one.
        package let description: String
    }

    /// The Python `make test` provides (a venv with the e2e requirements), if any.
    package static let python = ProcessInfo.processInfo.environment["LATCHKEY_TEST_PYTHON"]

    /// The port the helper listens on.
    package let port: Int
    private let process: Process
    /// The helper's standard input; closing it stops the helper.
    private let lifeline = Pipe()

    /// Starts `e2e/<script>` with `arguments` and waits for its `READY <port>` line;
    /// standard error goes to `errorLog` when given (its text is quoted when start-up fails).
    package init(script: String, arguments: [String] = [], errorLog: URL? = nil) throws {
        guard let python = Self.python else { throw StartFailed(description: "LATCHKEY_TEST_PYTHON is not set") }
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [ChildProcess.repository.appendingPathComponent("e2e").appendingPathComponent(script).path] + arguments
        let output = Pipe()
        process.standardInput = lifeline
        process.standardOutput = output
        if let errorLog {
            _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errorLog)
        }
        try process.run()

        // EOF before a whole line means the helper died.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count == 2, words[0] == "READY", let port = Int(words[1]) else {
            try? lifeline.fileHandleForWriting.close()
            process.terminate()
            process.waitUntilExit()
            let log = errorLog.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
            throw StartFailed(description: "\(script) did not start: \(log)")
        }
        self.port = port
    }

    deinit {
        try? lifeline.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }
}
