import Foundation
import LatchkeyClient
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyJOSE
import LatchkeyServer

/// Runs the command named by `arguments` and returns the process exit code.
func run(_ arguments: [String]) -> Int32 {
    do {
        try dispatch(arguments.dropFirst())
        return 0
    } catch let failure as CommandFailure {
        if !failure.reported { FileHandle.standardError.write(Data("latchkey: \(failure.message)\n".utf8)) }
        return failure.exitCode
    } catch let error as LatchkeyError {
        // The operator's own terminal: the detail (a library's error text) helps, as in the logs.
        let detail = error.detail.map { " (\($0.replacingOccurrences(of: "\n", with: " ")))" } ?? ""
        FileHandle.standardError.write(Data("latchkey: \(error.message)\(detail)\n".utf8))
        return 1
    } catch let error as LatchkeyClientError {
        let details = ([error.code.rawValue] + error.reasons).joined(separator: ": ")
        FileHandle.standardError.write(Data("latchkey: \(error.message(for: .en)) (\(details))\n".utf8))
        return 1
    } catch {
        FileHandle.standardError.write(Data("latchkey: \(error)\n".utf8))
        return 1
    }
}

/// The commands that work on the server's data, and so take `--data-dir`.
let serverCommands: Set<String> = ["serve", "migrate", "users", "keys", "clients", "outbox", "mail", "backup"]
/// Every command name ``dispatch(_:)`` knows, for "did you mean …?".
let commandNames = ["serve", "migrate", "users", "keys", "clients", "outbox", "mail", "backup", "settings", "login", "token", "logout", "reset", "register", "account", "help"]

func dispatch(_ arguments: ArraySlice<String>) throws {
    // `--data-dir DIR` before the command (`latchkey --data-dir ./data users list`) is the
    // command's, as after it.
    var arguments = arguments
    var leading: [String] = []
    while let first = arguments.first, first == "--data-dir" || first.hasPrefix("--data-dir=") {
        let count = first == "--data-dir" ? 2 : 1
        guard arguments.count > count else { throw CommandFailure.usage("\(first) needs a directory, then the command") }
        leading += arguments.prefix(count)
        arguments = arguments.dropFirst(count)
    }
    guard let command = arguments.first else {
        throw CommandFailure(exitCode: 2, message: "missing command\n\n" + Help.main)
    }
    var rest = arguments.dropFirst()
    if serverCommands.contains(command) {
        rest = try applyDataDirectoryOption(ArraySlice(leading + rest))
    } else if !leading.isEmpty {
        throw CommandFailure.usage("--data-dir is an option of the server commands (\(serverCommands.sorted().joined(separator: ", "))), not of \(command)")
    }
    if rest.contains("--help") || rest.contains("-h") {
        switch command {
        case "serve": print(Help.serve)
        case "migrate": print(Help.migrate)
        case "users": print(Help.users)
        case "keys": print(Help.keys)
        case "clients": print(Help.clients)
        case "login": print(Help.login)
        case "token", "logout": print(Help.session)
        case "reset": print(Help.reset)
        case "register": print(Help.register)
        case "account": print(Help.account)
        case "settings": print(Help.settings)
        case "outbox": print(Help.outbox)
        case "mail": print(Help.mail)
        case "backup": print(Help.backup)
        default: throw unknownCommand(command)
        }
        return
    }
    switch command {
    case "--help", "-h", "help": print(Help.main)
    case "--version", "version": print("latchkey \(LatchkeyVersion.current)")
    case "serve": try serve(rest)
    case "migrate": try migrate(rest)
    case "users": try users(rest)
    case "keys": try keys(rest)
    case "clients": try clients(rest)
    case "settings": try settings(rest)
    case "outbox": try outbox(rest)
    case "mail": try mail(rest)
    case "backup": try backup(rest)
    case "login": try ClientCommands.login(rest)
    case "token": try ClientCommands.token(rest)
    case "logout": try ClientCommands.logout(rest)
    case "reset": try ClientCommands.reset(rest)
    case "register": try AccountCommands.register(rest)
    case "account": try AccountCommands.account(rest)
    default: throw unknownCommand(command)
    }
}

/// The usage error for a command `dispatch` does not know, suggesting the closest one
/// (`latchkey user list`: did you mean `users`?).
func unknownCommand(_ command: String) -> CommandFailure {
    let hint = Spelling.closest(to: command, among: commandNames).map { "did you mean `\($0)`?" } ?? "run `latchkey --help`"
    return CommandFailure.usage("unknown command '\(command)'; \(hint)")
}

/// The usage error for a subcommand `command` does not know, suggesting the closest of `known`.
func unknownSubcommand(_ command: String, _ subcommand: String, known: [String]) -> CommandFailure {
    let hint = Spelling.closest(to: subcommand, among: known).map { "did you mean `\(command) \($0)`?" }
        ?? "run `latchkey \(command) --help`"
    return CommandFailure.usage("unknown subcommand '\(command) \(subcommand)'; \(hint)")
}

/// Takes `--data-dir DIR` out of `arguments` and sets `LATCHKEY_DATA_DIR` to it for this
/// process: the option is that variable for one command, and like it wins over the JSON file.
func applyDataDirectoryOption(_ arguments: ArraySlice<String>) throws -> ArraySlice<String> {
    var remaining: [String] = []
    var iterator = arguments.makeIterator()
    var directory: String?
    while let argument = iterator.next() {
        let value: String?
        if argument.hasPrefix("--data-dir=") {
            value = String(argument.dropFirst("--data-dir=".count))
        } else if argument == "--data-dir" {
            value = iterator.next()
        } else {
            remaining.append(argument)
            continue
        }
        guard let value, !value.isEmpty else { throw CommandFailure.usage("--data-dir needs a directory") }
        guard directory == nil else { throw CommandFailure.usage("--data-dir may be given only once") }
        directory = value
    }
    if let directory { setenv("LATCHKEY_DATA_DIR", directory, 1) }
    return ArraySlice(remaining)
}

/// The server configuration from the environment; warns on stderr about `LATCHKEY_*`
/// variables that are no setting (a typo would otherwise be ignored silently).
func loadConfiguration() throws -> Configuration {
    let configuration = try Configuration.load(environment: ProcessInfo.processInfo.environment)
    for warning in configuration.warnings {
        FileHandle.standardError.write(Data("latchkey: warning: \(warning)\n".utf8))
    }
    return configuration
}

/// Prints every setting: for a terminal, or with `--markdown` as the table in docs/deploy.md.
func settings(_ arguments: ArraySlice<String>) throws {
    let parsed = try ParsedArguments(arguments, flags: ["--markdown"])
    guard parsed.positional.isEmpty else { throw CommandFailure.usage("settings takes no arguments") }
    print(parsed.flags.contains("--markdown") ? Setting.markdownTable : Setting.textList)
}

/// `latchkey serve`. Its standard error is the server's log: one JSON object a line, also when
/// the server cannot start (`server_start_failed`) and for what to set before production
/// (`production_advice` warnings), which a terminal also gets as plain text.
func serve(_ arguments: ArraySlice<String>) throws {
    // Before any thread starts: a SIGTERM from here on waits for the wait below, even one
    // that arrives while the server starts.
    ShutdownSignal.hold()
    var logger = Logger()
    do {
        _ = try ParsedArguments(arguments)
        let configuration = try Configuration.load(environment: ProcessInfo.processInfo.environment)
        logger = Logger(minimumLevel: configuration.logLevel)
        for warning in configuration.warnings { logger.warning("unknown_setting", ["message": .string(warning)]) }
        let application = try ServerApplication(configuration: configuration, logger: logger)
        try application.start()
        reportProductionAdvice(configuration.productionAdvice, logger: logger)
        let signal = ShutdownSignal.wait()
        logger.info("shutdown_requested", ["signal": .string(signal.name)])
        application.stop()
    } catch {
        var fields: [String: Logger.Value]
        var exitCode: Int32 = 1
        switch error {
        case let failure as CommandFailure:
            fields = ["message": .string(failure.message)]
            exitCode = failure.exitCode
        case let failure as LatchkeyError:
            fields = ["code": .string(failure.code.rawValue), "message": .string(failure.message)]
            if let detail = failure.detail { fields["detail"] = .string(detail) }
        default:
            fields = ["message": .string("\(error)")]
        }
        logger.error("server_start_failed", fields)
        throw CommandFailure(exitCode: exitCode, message: "", reported: true)
    }
}

/// Logs each hint as a `production_advice` warning; when standard error is a terminal (a
/// person trying the server), also as the plain-text list people read.
func reportProductionAdvice(_ hints: [Setting.ProductionHint], logger: Logger) {
    for hint in hints {
        var fields: [String: Logger.Value] = ["setting": .string(hint.setting), "advice": .string(hint.recommendation)]
        if let current = hint.current { fields["now"] = .string(current) }
        logger.warning("production_advice", fields)
    }
    guard !hints.isEmpty, isatty(STDERR_FILENO) == 1 else { return }
    let lines = hints.map { "  - \($0.line)" }.joined(separator: "\n")
    FileHandle.standardError.write(Data("Before production, set:\n\(lines)\n".utf8))
}

func migrate(_ arguments: ArraySlice<String>) throws {
    _ = try ParsedArguments(arguments)
    let configuration = try loadConfiguration()
    let applied = try ServerApplication.openStore(
        configuration, mailBox: try ServerApplication.openSecretBox(configuration), migrating: false
    ).migrate()
    print(applied.isEmpty ? "database is up to date" : "applied migrations: \(applied.map(String.init).joined(separator: ", "))")
    for file in try ServerApplication.createKeyFiles(configuration) { print("created \(file)") }
}

/// `latchkey backup PATH`: the SQLite database copied while the server runs.
func backup(_ arguments: ArraySlice<String>) throws {
    let path = try onePositional(try ParsedArguments(arguments), "PATH")
    let configuration = try loadConfiguration()
    let copied = try ServerApplication.backUpDatabase(configuration, to: path)
    print("backed up \(configuration.databasePath) to \(path): \(copied.pages) pages, \(copied.bytes) bytes, schema version \(copied.schema)")
    print(
        "keep \(configuration.signingKeysFile.path), \(configuration.addressKeyFile.path) and \(configuration.secretKeyFile.path) "
            + "with it (restore: docs/deploy.md#backups)")
}

func users(_ arguments: ArraySlice<String>) throws {
    guard let subcommand = arguments.first else { throw CommandFailure.usage("missing subcommand; run `latchkey users --help`") }
    let parsed = try ParsedArguments(arguments.dropFirst(), flags: ["--password-stdin", "--all", "--dry-run"], options: ["--locale"])
    let configuration = try loadConfiguration()
    switch subcommand {
    case "import":
        try importUsers(from: try onePositional(parsed, "FILE"), dryRun: parsed.flags.contains("--dry-run"), configuration)
    case "create":
        let email = try onePositional(parsed, "EMAIL")
        guard parsed.flags.contains("--password-stdin") else { throw CommandFailure.usage("users create needs --password-stdin") }
        let accounts = try ServerApplication.openAccounts(configuration)
        let account = try accounts.createAccount(email: email, password: try readPassword("Password for \(email): "), locale: parsed.options["--locale"])
        print("created \(account.email) (\(account.id))")
    case "list":
        guard parsed.positional.isEmpty else { throw CommandFailure.usage("users list takes no arguments") }
        let formatter = ISO8601DateFormatter()
        for account in try ServerApplication.openAccounts(configuration).accounts() {
            print([account.id, account.email, account.status.rawValue, formatter.string(from: account.createdAt)].joined(separator: "\t"))
        }
    case "disable", "enable", "delete":
        let email = try onePositional(parsed, "EMAIL")
        let accounts = try ServerApplication.openAccounts(configuration)
        switch subcommand {
        case "disable": try accounts.disable(email: email)
        case "enable": try accounts.enable(email: email)
        default: try accounts.delete(email: email)
        }
        print("\(subcommand)d \(email)")  // disabled, enabled, deleted
    case "set-password":
        let email = try onePositional(parsed, "EMAIL")
        guard parsed.flags.contains("--password-stdin") else { throw CommandFailure.usage("users set-password needs --password-stdin") }
        let accounts = try ServerApplication.openAccounts(configuration)
        try accounts.setPassword(email: email, password: try readPassword("New password for \(email): "))
        print("set a new password for \(email); every session of the account has ended")
    case "unlock":
        let email = try onePositional(parsed, "EMAIL")
        try ServerApplication.openAccounts(configuration).unlock(email: email)
        print("unlocked \(email): its sign-in failure counts start again from zero")
    case "tfa-reset":
        let email = try onePositional(parsed, "EMAIL")
        try ServerApplication.openAccounts(configuration).resetSecondFactor(email: email)
        print("removed the second factor of \(email); the owner was mailed, and the next sign-in needs the password only")
    case "sessions":
        try userSessions(parsed, ServerApplication.openAccounts(configuration))
    case "set-email":
        guard parsed.positional.count == 2 else { throw CommandFailure.usage("users set-email takes OLD and NEW addresses") }
        let moved = try ServerApplication.openAccounts(configuration).setEmail(current: parsed.positional[0], new: parsed.positional[1])
        print("moved \(parsed.positional[0]) to \(moved): every session of the account has ended; the old address was told")
    case "log-key":
        print(try ServerApplication.addressLogKey(for: try onePositional(parsed, "EMAIL"), configuration))
    case "verify":
        let email = try onePositional(parsed, "EMAIL")
        guard parsed.flags.contains("--password-stdin") else { throw CommandFailure.usage("users verify needs --password-stdin") }
        guard try ServerApplication.openAccounts(configuration).verifyPassword(email: email, password: try readPassword("Password for \(email): ")) else {
            throw CommandFailure.failure("the password does not match")
        }
        print("the password matches")
    default:
        throw unknownSubcommand(
            "users", subcommand, known: [
                "create", "list", "disable", "enable", "delete", "set-password", "unlock", "verify", "log-key", "set-email", "sessions",
                "import", "tfa-reset",
            ])
    }
}

/// `users import FILE`: accounts from a Directus user export (JSON or CSV; `-` reads standard
/// input). Prints a line for each user not imported and why, then the counts; exits 1 when any
/// user was refused, after importing the others.
private func importUsers(from path: String, dryRun: Bool, _ configuration: Configuration) throws {
    let data: Data
    if path == "-" {
        data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
        guard let contents = FileManager.default.contents(atPath: path) else { throw CommandFailure.failure("cannot read \(path)") }
        data = contents
    }
    let records = try DirectusUserExport.records(from: data)
    let importer = try ServerApplication.openUserImport(configuration)
    var imported: [DirectusUserImport.ImportedStatus: Int] = [:]
    var already = 0
    var refused = 0
    var factors = 0
    for record in records {
        switch try importer.run(record, dryRun: dryRun) {
        case .imported(_, let status, _, let hasSecondFactor):
            imported[status, default: 0] += 1
            if hasSecondFactor { factors += 1 }
        case .alreadyImported: already += 1
        case .refused(let reason):
            refused += 1
            print("\(record.location): refused: \(reason)")
        }
    }
    let counts = [DirectusUserImport.ImportedStatus.active, .disabled, .unverified].map { "\(imported[$0, default: 0]) \($0.rawValue)" }
    print("\(dryRun ? "would import" : "imported") \(imported.values.reduce(0, +)) (\(counts.joined(separator: ", ")); "
        + "\(factors) with an authenticator app), "
        + "\(already) already imported, \(refused) refused, of \(records.count)")
    if refused > 0 { throw CommandFailure(exitCode: 1, message: "", reported: true) }
}

/// `users sessions EMAIL` lists the account's signed-in devices; `users sessions end EMAIL ID`
/// ends one, `users sessions end EMAIL --all` every one.
private func userSessions(_ parsed: ParsedArguments, _ accounts: AccountAdministration) throws {
    if parsed.positional.first == "end" {
        let rest = parsed.positional.dropFirst()
        if parsed.flags.contains("--all") {
            guard rest.count == 1, let email = rest.first else { throw CommandFailure.usage("users sessions end EMAIL --all") }
            let logins = try accounts.logins(email: email)
            for login in logins { try accounts.endLogin(email: email, id: login.id) }
            print("ended \(logins.count) login\(logins.count == 1 ? "" : "s") of \(email)")
            return
        }
        guard rest.count == 2, let email = rest.first, let id = rest.last else {
            throw CommandFailure.usage("users sessions end EMAIL ID (or --all)")
        }
        try accounts.endLogin(email: email, id: id)
        print("ended login \(id) of \(email)")
        return
    }
    let email = try onePositional(parsed, "EMAIL")
    let formatter = ISO8601DateFormatter()
    for login in try accounts.logins(email: email) {
        print(
            [
                login.id, login.clientID ?? "first-party", formatter.string(from: login.signedInAt),
                formatter.string(from: login.lastUsedAt), login.origin.ip ?? "-", login.origin.userAgent ?? "-",
            ].joined(separator: "\t"))
    }
}

func keys(_ arguments: ArraySlice<String>) throws {
    guard let subcommand = arguments.first else { throw CommandFailure.usage("missing subcommand; run `latchkey keys --help`") }
    let parsed = try ParsedArguments(arguments.dropFirst())
    guard parsed.positional.isEmpty || subcommand == "revoke" else { throw CommandFailure.usage("keys \(subcommand) takes no arguments") }
    let ring = try ServerApplication.openKeyRing(try loadConfiguration(), creating: false)
    switch subcommand {
    case "revoke":
        let kid = try onePositional(parsed, "KID")
        let (algorithm, replacement) = try ring.revoke(kid: kid, now: Date())
        print("revoked \(algorithm) key \(kid): no longer published; tokens it signed are refused now, and by every server "
            + "sharing the key file within a second")
        if let replacement { print("active \(replacement.algorithm.rawValue) key: \(replacement.kid)") }
    case "rotate":
        for key in try ring.rotate(now: Date()) {
            print("active \(key.algorithm.rawValue) key: \(key.kid)")
        }
    case "list":
        let formatter = ISO8601DateFormatter()
        for key in ring.describe() {
            print(
                [
                    key.kid, key.algorithm, formatter.string(from: key.createdAt),
                    key.retiredAt.map { "retired " + formatter.string(from: $0) } ?? "active",
                ].joined(separator: "\t"))
        }
    default:
        throw unknownSubcommand("keys", subcommand, known: ["rotate", "list", "revoke"])
    }
}

func clients(_ arguments: ArraySlice<String>) throws {
    guard let subcommand = arguments.first else { throw CommandFailure.usage("missing subcommand; run `latchkey clients --help`") }
    let parsed = try ParsedArguments(
        arguments.dropFirst(),
        flags: subcommand == "create" ? ["--confidential", "--first-party", "--introspect"]
            : subcommand == "update" ? ["--new-secret", "--clear-scopes", "--clear-name", "--clear-post-logout-redirect-uris"] : [],
        options: subcommand == "create" ? ["--id-token-alg", "--name"] : subcommand == "update" ? ["--name"] : [],
        repeatable: subcommand == "create" ? ["--redirect-uri", "--scope", "--scope-description", "--post-logout-redirect-uri"]
            : subcommand == "update" ? ["--redirect-uri", "--scope", "--post-logout-redirect-uri"] : [])
    switch subcommand {
    case "create":
        let id = try onePositional(parsed, "ID")
        let redirectURIs = parsed.repeated["--redirect-uri", default: []]
        guard !redirectURIs.isEmpty else { throw CommandFailure.usage("clients create needs at least one --redirect-uri") }
        var scopeDescriptions: [String: String] = [:]
        for entry in parsed.repeated["--scope-description", default: []] {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
                throw CommandFailure.usage("--scope-description needs SCOPE=TEXT, e.g. calendar.read='Read your calendar'")
            }
            let scope = String(entry[..<equals])
            guard scopeDescriptions[scope] == nil else { throw CommandFailure.usage("--scope-description \(scope) is given twice") }
            scopeDescriptions[scope] = String(entry[entry.index(after: equals)...])
        }
        let idTokenAlgorithm = try parsed.options["--id-token-alg"].map { name in
            guard let algorithm = JWSAlgorithm(rawValue: name) else {
                throw CommandFailure.usage("--id-token-alg must be one of RS256, ES256, EdDSA")
            }
            return algorithm
        } ?? .rs256
        let (client, secret) = try ServerApplication.openClients(try loadConfiguration()).create(
            id: id, redirectURIs: redirectURIs, confidential: parsed.flags.contains("--confidential"),
            firstParty: parsed.flags.contains("--first-party"), scopes: parsed.repeated["--scope", default: []],
            introspect: parsed.flags.contains("--introspect"), idTokenAlgorithm: idTokenAlgorithm,
            displayName: parsed.options["--name"], scopeDescriptions: scopeDescriptions,
            postLogoutRedirectURIs: parsed.repeated["--post-logout-redirect-uri", default: []], now: Date())
        print("client_id: \(client.id)")
        if let secret { print("client_secret: \(secret.exposed)") }
    case "list":
        guard parsed.positional.isEmpty else { throw CommandFailure.usage("clients list takes no arguments") }
        for client in try ServerApplication.openClients(try loadConfiguration()).clients() {
            print(
                [
                    client.id, client.isConfidential ? "confidential" : "public", client.isFirstParty ? "first-party" : "third-party",
                    client.mayIntrospect ? "introspects" : "-", client.idTokenAlgorithm.rawValue,
                    client.redirectURIs.map(\.value).joined(separator: " "),
                    client.requestableScopes.joined(separator: " "),
                    client.postLogoutRedirectURIs.isEmpty ? "-" : client.postLogoutRedirectURIs.map(\.value).joined(separator: " "),
                ].joined(separator: "\t"))
        }
    case "update":
        let id = try onePositional(parsed, "ID")
        var changes = ClientRegistry.Changes()
        changes.redirectURIs = parsed.repeated["--redirect-uri"]
        if parsed.flags.contains("--clear-scopes") {
            guard parsed.repeated["--scope"] == nil else { throw CommandFailure.usage("give --scope or --clear-scopes, not both") }
            changes.scopes = []
        } else {
            changes.scopes = parsed.repeated["--scope"]
        }
        if parsed.flags.contains("--clear-name") {
            guard parsed.options["--name"] == nil else { throw CommandFailure.usage("give --name or --clear-name, not both") }
            changes.displayName = .some(nil)
        } else if let name = parsed.options["--name"] {
            changes.displayName = .some(name)
        }
        if parsed.flags.contains("--clear-post-logout-redirect-uris") {
            guard parsed.repeated["--post-logout-redirect-uri"] == nil else {
                throw CommandFailure.usage("give --post-logout-redirect-uri or --clear-post-logout-redirect-uris, not both")
            }
            changes.postLogoutRedirectURIs = []
        } else {
            changes.postLogoutRedirectURIs = parsed.repeated["--post-logout-redirect-uri"]
        }
        changes.newSecret = parsed.flags.contains("--new-secret")
        let (client, secret) = try ServerApplication.openClients(try loadConfiguration()).update(id: id, changes: changes)
        print("updated \(client.id): redirect URIs \(client.redirectURIs.map(\.value).joined(separator: " ")); "
            + "scopes \(client.requestableScopes.joined(separator: " ")); name \(client.displayName ?? "-")")
        if let secret { print("client_secret: \(secret.exposed)") }
    case "delete":
        let id = try onePositional(parsed, "ID")
        try ServerApplication.openClients(try loadConfiguration()).delete(id: id)
        print("deleted \(id)")
    default:
        throw unknownSubcommand("clients", subcommand, known: ["create", "list", "update", "delete"])
    }
}

func onePositional(_ parsed: ParsedArguments, _ name: String) throws -> String {
    guard parsed.positional.count == 1 else { throw CommandFailure.usage("expected exactly one \(name)") }
    return parsed.positional[0]
}

/// Reads one line from standard input as a password, without the line ending.
/// The password of `--password-stdin`: the first line piped to standard input, or at a
/// terminal a line typed after `prompt` (on standard error) without echo.
func readPassword(_ prompt: String) throws -> Redacted<String> {
    var input = try StandardInput.open()
    return Redacted(try input.required(prompt, missing: "no password on standard input").exposed)
}

// Every file a command creates (database, its journal, key files, mail, client tokens) holds
// secrets or personal data: private to the service user from its first byte.
umask(0o077)
exit(run(CommandLine.arguments))
