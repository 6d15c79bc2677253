import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// The client commands of the `latchkey` binary against a real server, each run with its
/// own `XDG_STATE_HOME`.
@Suite struct ClientCommandTests {
    /// A server with one account and a state directory for the client commands.
    struct Setup {
        let server: LatchkeyServerProcess
        let state: TemporaryDirectory
        var environment: [String: String] { ["XDG_STATE_HOME": state.url.path, "LATCHKEY_ISSUER": server.baseURL.absoluteString] }
        var store: FileTokenStore { FileTokenStore(directory: state.url.appendingPathComponent("latchkey")) }

        static func start() async throws -> Setup {
            let server = try await LatchkeyServerProcess()
            try server.createUser("jane@example.com")
            return Setup(server: server, state: try TemporaryDirectory())
        }

        func run(_ arguments: [String], stdin: String? = nil) throws -> CommandResult {
            try server.cli(arguments, stdin: stdin, extra: environment)
        }

        func stop() {
            server.stop()
            state.cleanUp()
        }

        /// Makes the stored access token look expired, as if its ten minutes had passed.
        func expireStoredToken() throws {
            let tokens = try #require(try store.load())
            try store.save(StoredTokens(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: Date()))
        }
    }

    @Test("login with a password, then `latchkey token` prints the stored token, and a refreshed one once expired")
    func firstPartyLoginAndToken() async throws {
        let setup = try await Setup.start()
        defer { setup.stop() }
        let login = try setup.run(["login", "--email", "jane@example.com", "--password-stdin"], stdin: LatchkeyServerProcess.goodPassword + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        let stored = try #require(try setup.store.load())
        let first = try setup.run(["token"])
        #expect(first.stdout == stored.accessToken.exposed + "\n")

        try setup.expireStoredToken()
        let second = try setup.run(["token"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout != first.stdout)
        #expect(try await setup.server.requestCount(route: "directus_refresh", status: 200) == 1)
    }

    @Test("two `latchkey token` processes at once on one store refresh once, and the login survives")
    func concurrentProcesses() async throws {
        let setup = try await Setup.start()
        defer { setup.stop() }
        _ = try setup.run(["login", "--email", "jane@example.com", "--password-stdin"], stdin: LatchkeyServerProcess.goodPassword + "\n")
        try setup.expireStoredToken()

        let results = ResultList()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in results.append(try? setup.run(["token"])) }
        let outputs = results.all.compactMap { $0 }
        #expect(outputs.count == 2)
        #expect(outputs.allSatisfy { $0.status == 0 }, "\(outputs.map(\.stderr))")
        #expect(Set(outputs.map(\.stdout)).count == 1)
        #expect(try await setup.server.requestCount(route: "directus_refresh", status: 200) == 1)
        #expect(try await setup.server.requestCount(route: "directus_refresh", status: 401) == 0)

        // The stored refresh token is still the login's current one.
        try setup.expireStoredToken()
        #expect(try setup.run(["token"]).status == 0)
        #expect(try await setup.server.requestCount(route: "directus_refresh", status: 200) == 2)
    }

    @Test("logout ends the login on the server and forgets it; token then asks to sign in")
    func logout() async throws {
        let setup = try await Setup.start()
        defer { setup.stop() }
        _ = try setup.run(["login", "--email", "jane@example.com", "--password-stdin"], stdin: LatchkeyServerProcess.goodPassword + "\n")
        let refreshToken = try #require(try setup.store.load()?.refreshToken)
        #expect(try setup.run(["logout"]).status == 0)
        #expect(try setup.store.load() == nil)
        let token = try setup.run(["token"])
        #expect(token.status == 1)
        #expect(token.stderr.contains("not signed in"))
        let refused = await #expect(throws: LatchkeyClientError.self) {
            try await FirstPartyLogin(baseURL: setup.server.baseURL).refresh(refreshToken)
        }
        #expect(refused?.code == .sessionExpired)
    }

    @Test("reset request and reset complete change the password with the mailed link")
    func resetCommands() async throws {
        let setup = try await Setup.start()
        defer { setup.stop() }
        let request = try setup.run(["reset", "request", "jane@example.com"])
        #expect(request.status == 0, "\(request.stderr)")
        let mail = try #require(try await setup.server.waitForMails(to: "jane@example.com").first)
        let link = try LatchkeyServerProcess.resetLink(in: mail).absoluteString
        let newPassword = "violet tractor quietly juggles mountains"

        // The link is never an argument: refused before anything is sent, without echoing it.
        let inArgv = try setup.run(["reset", "complete", link], stdin: newPassword + "\n")
        #expect(inArgv.status == 2)
        #expect(!inArgv.stderr.contains(link))
        let passwordOnly = try setup.run(["reset", "complete"], stdin: link + "\n")
        #expect(passwordOnly.status == 1)
        #expect(passwordOnly.stderr.contains("second"))

        let weak = try setup.run(["reset", "complete"], stdin: link + "\nshort\n")
        #expect(weak.status == 1)
        #expect(weak.stderr.contains("weak_password: too_short"))
        let done = try setup.run(["reset", "complete"], stdin: link + "\r\n" + newPassword + "\n")
        #expect(done.status == 0, "\(done.stderr)")
        #expect(try setup.server.passwordMatches("jane@example.com", newPassword))
        let reused = try setup.run(["reset", "complete"], stdin: link + "\n" + newPassword + "\n")
        #expect(reused.stderr.contains("invalid_token"))
    }
}

/// Results gathered from concurrent workers.
private final class ResultList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [CommandResult?] = []

    func append(_ item: CommandResult?) {
        lock.lock()
        defer { lock.unlock() }
        items.append(item)
    }

    var all: [CommandResult?] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
