import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real `latchkey` binary, run as `latchkey serve` on a free loopback port with its
/// own temporary data directory and `.eml` mail files, for tests of the SDK against the
/// server. Stop it with ``stop()``.
///
/// The binary is `LATCHKEY_BINARY` when set, else `latchkey` next to the test bundle
/// (`swift build --build-tests` builds both into the same directory).
final class LatchkeyServerProcess: @unchecked Sendable {
    let baseURL: URL
    let directory: URL
    let environment: [String: String]
    private let process: Process

    var dataDirectory: URL { directory.appendingPathComponent("data") }
    var outbox: URL { dataDirectory.appendingPathComponent("outbox") }
    var logURL: URL { directory.appendingPathComponent("server.log") }

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["LATCHKEY_BINARY"] { return URL(fileURLWithPath: path) }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On macOS the test binary sits inside `X.xctest/Contents/MacOS`.
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("latchkey")
    }

    /// Starts a server with `settings` added to its environment and waits for `/healthz`.
    /// A port taken between choosing and binding it (other tests, other processes) is
    /// retried on another free port. With `LATCHKEY_TLS_CERT` among the settings the server
    /// speaks HTTPS with a certificate no URLSession trusts: then it is ready once its own log
    /// says it listens, and ``baseURL`` is `https://`.
    init(settings: [String: String] = [:]) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-sdk-server-\(UUID().uuidString)", isDirectory: true)
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let logURL = directory.appendingPathComponent("server.log")
        var started = false
        defer { if !started { try? FileManager.default.removeItem(at: directory) } }
        for _ in 0..<3 {
            let port = try Self.freeLoopbackPort()
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LATCHKEY_") }
            environment["LATCHKEY_LISTEN"] = "127.0.0.1:\(port)"
            environment["LATCHKEY_DATA_DIR"] = directory.appendingPathComponent("data").path
            environment["LATCHKEY_MAIL_TRANSPORT"] = "file"
            environment["LATCHKEY_LOG_LEVEL"] = "info"
            // The smallest Argon2 cost the server accepts keeps logins fast in tests.
            environment["LATCHKEY_ARGON2_MEMORY_KIB"] = "19456"
            environment.merge(settings) { _, new in new }

            _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
            let log = try FileHandle(forWritingTo: logURL)
            let process = Process()
            process.executableURL = Self.binary
            process.arguments = ["serve"]
            process.environment = environment
            process.standardOutput = log
            process.standardError = log
            try process.run()
            try? log.close()

            let tls = settings["LATCHKEY_TLS_CERT"] != nil
            let baseURL = URL(string: "\(tls ? "https" : "http")://127.0.0.1:\(port)")!
            if try await Self.waitUntilHealthy(process, baseURL: baseURL, logURL: logURL, askingHealthz: !tls) {
                self.baseURL = baseURL
                self.environment = environment
                self.process = process
                started = true
                return
            }
        }
        throw HarnessError("no free port for the server: \(Self.log(at: logURL))")
    }

    /// Whether `process` answers `/healthz`; false when it exited because its port was
    /// taken. Throws for any other exit or when it never becomes healthy. Only once its own
    /// log says it listens is a `/healthz` answer its own: until then another test's server,
    /// given the same port after it was chosen, may be the one answering.
    private static func waitUntilHealthy(_ process: Process, baseURL: URL, logURL: URL, askingHealthz: Bool) async throws -> Bool {
        for _ in 0..<600 {
            let log = log(at: logURL)
            guard process.isRunning else {
                if log.contains("already in use") { return false }
                throw HarnessError("server exited: \(log)")
            }
            if !askingHealthz, log.contains("\"http_server_started\"") { return true }
            if log.contains("\"http_server_started\""), let (_, response) = try? await URLSession.shared.data(from: baseURL.appendingPathComponent("healthz")),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return true
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        process.terminate()
        process.waitUntilExit()
        throw HarnessError("server did not become healthy: \(log(at: logURL))")
    }

    /// Stops the server (SIGTERM, then waits) and removes its directory.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    func serverLog() -> String {
        Self.log(at: logURL)
    }

    private static func log(at url: URL) -> String {
        (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    /// Runs `latchkey ARGUMENTS` with this server's environment plus `extra`.
    @discardableResult
    func cli(_ arguments: [String], stdin: String? = nil, extra: [String: String] = [:]) throws -> CommandResult {
        try CommandResult.run(Self.binary, arguments, environment: environment.merging(extra) { _, new in new }, stdin: stdin)
    }

    func createUser(_ email: String, password: String = LatchkeyServerProcess.goodPassword) throws {
        let result = try cli(["users", "create", email, "--password-stdin"], stdin: password + "\n")
        guard result.status == 0 else { throw HarnessError("users create failed: \(result.stderr)") }
    }

    func passwordMatches(_ email: String, _ password: String) throws -> Bool {
        try cli(["users", "verify", email, "--password-stdin"], stdin: password + "\n").status == 0
    }

    static let goodPassword = "correct horse battery staple"

    /// Moves every login's sign-in back by ten minutes in the server's SQLite database, as an
    /// operator's own tool could: past the five minutes in which a login may change the
    /// account without the current password.
    func ageSignIns() throws {
        let python = ProcessInfo.processInfo.environment["LATCHKEY_TEST_PYTHON"] ?? "/usr/bin/python3"
        let script = """
            import sqlite3, sys
            with sqlite3.connect(sys.argv[1], timeout=10) as db:
                db.execute("UPDATE sessions SET auth_time = auth_time - 600000 WHERE kind = 'refresh_family'")
            """
        let result = try CommandResult.run(
            URL(fileURLWithPath: python), ["-c", script, dataDirectory.appendingPathComponent("latchkey.sqlite3").path],
            environment: [:], stdin: nil)
        guard result.status == 0 else { throw HarnessError("ageSignIns failed: \(result.stderr)") }
    }

    /// The decoded text of every `.eml` file in the outbox addressed to `recipient`.
    func mails(to recipient: String) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(at: outbox, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "eml" }.sorted { $0.path < $1.path }.compactMap { file in
            guard let raw = try? String(contentsOf: file, encoding: .utf8), raw.contains("To: \(recipient)") || raw.contains("<\(recipient)>")
            else { return nil }
            return Self.decodeQuotedPrintable(raw)
        }
    }

    /// Waits until `count` mails to `recipient` exist, then returns them.
    func waitForMails(to recipient: String, count: Int = 1) async throws -> [String] {
        for _ in 0..<300 {
            let found = mails(to: recipient)
            if found.count >= count { return found }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw HarnessError("no mail to \(recipient): \(serverLog().suffix(2000))")
    }

    /// The first reset link (`…/reset-password#token=…`) in `mail`.
    static func resetLink(in mail: String) throws -> URL {
        try link("/reset-password", in: mail)
    }

    /// The first link to `path` with a `#token=` of Latchkey's 43 characters in `mail`
    /// (`/verify-email`, `/confirm-email`, …).
    static func link(_ path: String, in mail: String) throws -> URL {
        guard let range = mail.range(of: #"https?://[^\s"<>]+"# + path + #"#token=[A-Za-z0-9_-]{43}"#, options: .regularExpression),
            let url = URL(string: String(mail[range]))
        else { throw HarnessError("no \(path) link in mail") }
        return url
    }

    /// The value of the Prometheus counter `latchkey_http_requests_total{route=…,status=…}`.
    func requestCount(route: String, status: Int) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: baseURL.appendingPathComponent("metrics"))
        let text = String(decoding: data, as: UTF8.self)
        let prefix = "latchkey_http_requests_total{route=\"\(route)\",status=\"\(status)\"} "
        for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
            return Int(line.dropFirst(prefix.count)) ?? 0
        }
        return 0
    }

    /// A port nothing listens on right now (bound to 0, read back, closed).
    private static func freeLoopbackPort() throws -> Int {
        let (descriptor, port) = try boundLoopbackSocket()
        close(descriptor)
        return port
    }

    /// A loopback address where no server answers: its port stays bound (never listening)
    /// for the whole test run, so connecting is refused and no server a test starts can be
    /// given it — a port that was closed again at once could be, and answer.
    static let unreachableBaseURL: URL = {
        guard let (_, port) = try? boundLoopbackSocket() else { preconditionFailure("no loopback port to hold") }
        return URL(string: "http://127.0.0.1:\(port)")!
    }()

    /// A TCP socket bound to a port of the system's choosing on 127.0.0.1, and that port.
    private static func boundLoopbackSocket() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic -> Bool in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw HarnessError("bind failed")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func decodeQuotedPrintable(_ text: String) -> String {
        let bytes = Array(text.replacingOccurrences(of: "=\r\n", with: "").replacingOccurrences(of: "=\n", with: "").utf8)
        var output = [UInt8]()
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "="), index + 2 < bytes.count,
                let value = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                output.append(value)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// A finished child process: exit status and output.
struct CommandResult: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String

    static func run(_ executable: URL, _ arguments: [String], environment: [String: String], stdin: String?) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
