import Foundation
import LatchkeyClient
import LatchkeyCrypto

/// `latchkey login | token | logout | reset`: the client side, built on LatchkeyClient
/// (`register` and `account` are ``AccountCommands``).
/// Tokens live in the ``FileTokenStore`` under `$XDG_STATE_HOME/latchkey`.
enum ClientCommands {
    static let defaultRedirectURI = "http://127.0.0.1/callback"
    static let defaultCallbackTimeout: TimeInterval = 300

    static func login(_ arguments: ArraySlice<String>) throws {
        let parsed = try ParsedArguments(
            arguments, flags: ["--password-stdin", "--no-browser"],
            options: ["--issuer", "--client-id", "--redirect-uri", "--email", "--timeout"], repeatable: ["--scope"])
        guard parsed.positional.isEmpty else { throw CommandFailure.usage("login takes no positional arguments") }
        let issuer = try issuerURL(parsed)
        let store = FileTokenStore()
        if let email = parsed.options["--email"] {
            guard parsed.options["--client-id"] == nil else { throw CommandFailure.usage("use either --client-id or --email, not both") }
            guard parsed.flags.contains("--password-stdin") else { throw CommandFailure.usage("login --email needs --password-stdin") }
            var input = try StandardInput.open()
            let password = try input.required("Password for \(email): ", missing: "no password on standard input")
            // The device token is kept beside the tokens and sent with every sign-in, so this
            // machine is a recognised device; `logout` leaves it (it names the machine).
            let login = FirstPartyLogin(baseURL: issuer, deviceTokens: store)
            let tokens: StoredTokens
            switch try runAsync({ try await login.beginSignIn(email: email, password: password) }) {
            case .signedIn(let signedIn):
                tokens = signedIn
            case .secondFactorRequired(let challenge):
                // Two-step sign-in: the code on the next piped line, or typed without echo.
                let code = try input.required(
                    "Code from your authenticator app (or a recovery code): ",
                    missing: "this account has two-step sign-in: give the code from the authenticator app (or a recovery code) "
                        + "on the second line of standard input")
                tokens = try runAsync { try await challenge.complete(code: code) }
            }
            try store.save(tokens)
            try ClientProfile(firstPartyIssuer: issuer).save(in: store)
            FileHandle.standardError.write(Data("signed in as \(email)\n".utf8))
            return
        }
        guard let clientID = parsed.options["--client-id"] else { throw CommandFailure.usage("login needs --client-id (or --email)") }
        guard let redirect = URL(string: parsed.options["--redirect-uri"] ?? defaultRedirectURI),
            redirect.scheme == "http", let loopback = Self.loopback(redirect.host), redirect.query == nil, redirect.fragment == nil
        else {
            throw CommandFailure.usage("--redirect-uri must be http://127.0.0.1[:PORT]/PATH or http://[::1][:PORT]/PATH (an RFC 8252 loopback redirect)")
        }
        let timeout = try parsed.options["--timeout"].map { value -> TimeInterval in
            guard let seconds = TimeInterval(value), seconds > 0 else { throw CommandFailure.usage("--timeout must be a number of seconds") }
            return seconds
        } ?? defaultCallbackTimeout

        let listener = try LoopbackRedirectListener(port: redirect.port ?? 0, preferred: loopback)
        let path = redirect.path.isEmpty ? "/" : redirect.path
        guard let redirectURI = URL(string: "http://\(listener.redirectHost.urlHost):\(listener.port)\(path)") else {
            throw CommandFailure.usage("--redirect-uri has an invalid path")
        }
        let client = OAuthClient(issuer: issuer, clientID: clientID, scopes: parsed.repeated["--scope"] ?? ["openid"])
        let metadata = try runAsync { try await client.discover() }
        let request = try client.makeAuthorizationRequest(metadata: metadata, redirectURI: redirectURI)
        try AuthorizationPreflight.check(request.url, clientID: clientID, redirectURI: redirectURI)
        FileHandle.standardError.write(Data("Open this URL in a browser to sign in:\n".utf8))
        FileHandle.standardOutput.write(Data((request.url.absoluteString + "\n").utf8))
        if !parsed.flags.contains("--no-browser") { openBrowser(request.url) }

        let callback = try listener.waitForCallback(path: path, timeout: timeout, accepting: request.isAnswer)
        let response = try runAsync { try await client.completeSignIn(callback: callback, for: request) }
        try store.save(client.storedTokens(response, for: request))
        try ClientProfile(clientID: clientID, metadata: metadata).save(in: store)
        FileHandle.standardError.write(Data("signed in\n".utf8))
    }

    /// The loopback address a redirect URI's host names (RFC 8252 §7.3: an IP literal, never
    /// `localhost`), or nil for any other host.
    private static func loopback(_ host: String?) -> LoopbackRedirectListener.Loopback? {
        switch host {
        case "127.0.0.1": .ipv4
        case "::1", "[::1]": .ipv6
        default: nil
        }
    }

    static func token(_ arguments: ArraySlice<String>) throws {
        let parsed = try ParsedArguments(arguments, options: ["--issuer"])
        guard parsed.positional.isEmpty else { throw CommandFailure.usage("token takes no positional arguments") }
        let (store, profile) = try signedIn(parsed)
        let session = AuthSession(store: store, refresher: try profile.refresher())
        let token = try runAsync { try await session.validAccessToken() }
        print(token.exposed)
    }

    static func logout(_ arguments: ArraySlice<String>) throws {
        let parsed = try ParsedArguments(arguments, flags: ["--forget-device"], options: ["--issuer"])
        guard parsed.positional.isEmpty else { throw CommandFailure.usage("logout takes no positional arguments") }
        let forgetsDevice = parsed.flags.contains("--forget-device")
        // Signing out twice is no failure: the outcome the person wants is already there.
        guard try ClientProfile.load(from: FileTokenStore()) != nil, try FileTokenStore().load() != nil else {
            FileHandle.standardError.write(Data("not signed in; nothing to sign out of\n".utf8))
            if forgetsDevice { try forgetDevice(of: issuerURL(parsed)) }
            return
        }
        let (store, profile) = try signedIn(parsed)
        let session = AuthSession(store: store, refresher: try profile.refresher())
        try runAsync { try await session.signOut() }
        ClientProfile.remove(from: store)
        FileHandle.standardError.write(Data("signed out\n".utf8))
        if forgetsDevice, let issuer = URL(string: profile.issuer) { try forgetDevice(of: issuer) }
    }

    /// Deletes the device token kept for `issuer`: the next sign-in from this machine is a new
    /// device's (a new-device mail, and held by the account-wide cap during an attack).
    private static func forgetDevice(of issuer: URL) throws {
        try FileTokenStore().forgetDevice(for: issuer)
        FileHandle.standardError.write(Data("this machine is no longer a recognised device of \(issuer.absoluteString)\n".utf8))
    }

    static func reset(_ arguments: ArraySlice<String>) throws {
        guard let subcommand = arguments.first else { throw CommandFailure.usage("missing subcommand; run `latchkey reset --help`") }
        let parsed = try ParsedArguments(arguments.dropFirst(), options: ["--issuer"])
        switch subcommand {
        case "request":
            let email = try onePositional(parsed, "EMAIL")
            let recovery = PasswordRecovery(baseURL: try issuerURL(parsed))
            try runAsync { try await recovery.requestReset(email: email) }
            print("If an account exists for \(email), a reset link is on its way.")
        case "complete":
            // The link carries the reset token: never an argument, where `ps` and the
            // shell history would show it.
            guard parsed.positional.isEmpty else {
                throw CommandFailure.usage("reset complete reads the link from the first line of standard input, not from an argument")
            }
            let issuer = try issuerURL(parsed)
            let (link, password) = try readLinkAndPassword()
            guard let url = URL(string: link), let host = issuer.host else {
                throw CommandFailure.failure("the first line of standard input is not a link")
            }
            let token = try ResetLinkParser(universalLinkHosts: [host], customSchemes: [], allowsInsecureLoopback: true).parse(url).token
            let recovery = PasswordRecovery(baseURL: issuer)
            try runAsync { try await recovery.resetPassword(token: token, newPassword: password) }
            print("Your password has been changed. Sign in again with the new password.")
            if try forgetSessionEnded(parsed) {
                FileHandle.standardError.write(Data("signed out: the reset ended this account's sessions, here too\n".utf8))
            }
        default:
            throw CommandFailure.usage("unknown subcommand 'reset \(subcommand)'; run `latchkey reset --help`")
        }
    }

    /// After a completed reset (or an undone address change): whether the stored session
    /// (when there is one, with this issuer) was the account's, which the server has just
    /// ended — then it is forgotten, so `latchkey token` does not hand out its access token
    /// until that expires. The session says so itself: its refresh token is refused now (a
    /// session of another account renews and stays). When the server cannot be asked, the
    /// session stays; the next `token` that needs a refresh finds out.
    static func forgetSessionEnded(_ parsed: ParsedArguments) throws -> Bool {
        let store = FileTokenStore()
        guard let profile = try ClientProfile.load(from: store), let tokens = try store.load() else { return false }
        guard isSameIssuer(try issuerURL(parsed).absoluteString, profile.issuer) else { return false }
        let session = AuthSession(store: store, refresher: try profile.refresher())
        do {
            _ = try runAsync { try await session.accessToken(replacing: tokens.accessToken) }
            return false
        } catch let error as LatchkeyClientError where error.code == .sessionExpired {
            ClientProfile.remove(from: store)
            return true
        } catch {
            return false
        }
    }

    /// The reset link (first line of standard input, surrounding whitespace trimmed) and
    /// the new password (second line, as typed).
    static func readLinkAndPassword() throws -> (link: String, password: ClientSecret) {
        let data = FileHandle.standardInput.readData(ofLength: 8192 + 1)
        guard data.count <= 8192, let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure.failure("standard input must be UTF-8 text of at most 8192 bytes: the link, then the new password")
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        let link = lines.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard lines.count >= 2, !link.isEmpty, !lines[1].isEmpty else {
            throw CommandFailure.failure("standard input must hold the link on the first line and the new password on the second")
        }
        return (link, ClientSecret(String(lines[1])))
    }

    /// `--issuer`, else `LATCHKEY_ISSUER`.
    static func issuerURL(_ parsed: ParsedArguments) throws -> URL {
        guard let text = parsed.options["--issuer"] ?? ProcessInfo.processInfo.environment["LATCHKEY_ISSUER"] else {
            throw CommandFailure.usage("--issuer URL is needed (or set LATCHKEY_ISSUER)")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw CommandFailure.usage("--issuer must be an http(s) URL")
        }
        return url
    }

    /// The file store and the saved profile; the issuer, when given, must be the saved one.
    static func signedIn(_ parsed: ParsedArguments) throws -> (FileTokenStore, ClientProfile) {
        let store = FileTokenStore()
        guard let profile = try ClientProfile.load(from: store), try store.load() != nil else {
            throw CommandFailure.failure("not signed in; run `latchkey login`")
        }
        if parsed.options["--issuer"] != nil || ProcessInfo.processInfo.environment["LATCHKEY_ISSUER"] != nil {
            let wanted = try issuerURL(parsed).absoluteString
            guard isSameIssuer(wanted, profile.issuer) else {
                throw CommandFailure.failure("signed in to \(profile.issuer), not \(wanted)")
            }
        }
        return (store, profile)
    }

    /// Whether two issuer URLs are the same, a trailing slash aside.
    private static func isSameIssuer(_ first: String, _ second: String) -> Bool {
        func trimmed(_ text: String) -> String { text.hasSuffix("/") ? String(text.dropLast()) : text }
        return trimmed(first) == trimmed(second)
    }

    /// Opens `url` with `xdg-open` (or `open` on macOS) when one is on PATH; silent otherwise.
    private static func openBrowser(_ url: URL) {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        for name in ["xdg-open", "open"] {
            for directory in paths {
                let candidate = String(directory) + "/" + name
                guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
                let process = Process()
                process.executableURL = URL(fileURLWithPath: candidate)
                process.arguments = [url.absoluteString]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try? process.run()
                return
            }
        }
    }
}

/// Runs async SDK work from the synchronous command line and waits for its result. The
/// main thread blocks on a semaphore; the work runs on the concurrency pool.
func runAsync<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
    let outcome = AsyncOutcome<Value>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            outcome.set(.success(try await work()))
        } catch {
            outcome.set(.failure(error))
        }
        done.signal()
    }
    done.wait()
    return try outcome.get()
}

/// The result of ``runAsync(_:)``, handed from the task to the waiting thread.
private final class AsyncOutcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?

    func set(_ result: Result<Value, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        self.result = result
    }

    func get() throws -> Value {
        lock.lock()
        defer { lock.unlock() }
        guard let result else { throw CommandFailure.failure("internal error: no result") }
        return try result.get()
    }
}
