package import LatchkeyCore
package import LatchkeyHTTP
import LatchkeyStorage
import LatchkeyRedis
package import LatchkeyMail
import LatchkeyWeb
import LatchkeyPasswordStrength
package import Foundation
package import LatchkeyCrypto
import LatchkeyJOSE
import LatchkeyWebAuthn
import Synchronization

/// The assembled server: store, services, routes, HTTP listener and background workers,
/// built from a ``Configuration``. `latchkey serve` is `start()`, wait for a signal, `stop()`.
package final class ServerApplication: Sendable {
    /// The configuration it was built from.
    package let configuration: Configuration
    /// The database.
    package let store: any Store
    /// The password-reset flow.
    package let recovery: PasswordRecoveryService
    /// Account administration (CLI).
    package let accounts: AccountAdministration
    /// The route table behind the HTTP listener; in-process tests call it directly.
    package let router: Router
    /// Counters served at `/metrics`.
    package let metrics: ServerMetrics
    /// The token-signing keys, published at `/.well-known/jwks.json`.
    package let keyRing: SigningKeyRing
    /// Access and refresh tokens for logins.
    package let tokens: TokenService
    /// The grants of the token endpoint.
    package let grants: TokenGrants

    /// The longest lifetime of a token the signing keys sign (access tokens, 10 minutes);
    /// a retired key stays published this long.
    package static let maximumSignedTokenLifetime: TimeInterval = 600

    private let logger: Logger
    private let httpServer: HTTPServer
    private let jobs: JobRunner
    private let sharedLimiter: RedisRateLimiter?

    /// Binds the listen address, opens (and migrates) the database and wires every part;
    /// ``configuration`` is the one given with the port actually bound (see
    /// ``Configuration/listening(onPort:)``). Throws a ``LatchkeyError`` naming the setting,
    /// file or address that is wrong.
    package init(configuration: Configuration, logger: Logger, clock: any WallClock = SystemClock()) throws {
        // Listening first: with port 0 the URLs the routes and mails give out name the port
        // actually bound. Connections wait in the backlog until start().
        let listener = try HTTPListener(host: configuration.listenHost, port: configuration.listenPort, logger: logger)
        let configuration = configuration.listening(onPort: listener.port)
        self.configuration = configuration
        self.logger = logger
        // openStore opens the secret box only after checking the data directory, so a directory
        // the server cannot use is named as such, not as an unreadable key file in it; the box
        // is opened again below for the second factor (a 32-byte file, read twice at start).
        let store = try Self.openStore(configuration, mailBox: try Self.openSecretBox(configuration))
        self.store = store

        let metrics = ServerMetrics(version: LatchkeyVersion.current)
        self.metrics = metrics
        let keyRing = try Self.openKeyRing(configuration, now: clock.now())
        self.keyRing = keyRing
        let hasher = PasswordHasher(parameters: configuration.argon2)
        let policy = try PasswordPolicy(minimumLength: 8, maximumLength: 128, minimumScore: configuration.passwordMinimumScore)
        let sharedLimiter = configuration.redis.map { RedisRateLimiter(endpoint: $0) }
        self.sharedLimiter = sharedLimiter
        let limiter = MeteredRateLimiter(
            limiter: sharedLimiter.map {
                MonitoredRateLimiter(limiter: $0, failOpen: configuration.rateLimitFailOpen, logger: logger, metrics: metrics)
            } ?? LocalRateLimiter(),
            metrics: metrics)
        let templates = MailTemplates(productName: configuration.productName)
        let addressKey = try Self.loadOrCreateKey(at: configuration.addressKeyFile)

        recovery = PasswordRecoveryService(
            store: store, clock: clock, limiter: limiter, hasher: hasher, policy: policy, templates: templates,
            settings: .init(
                tokenTTL: TimeInterval(configuration.resetTokenTTL), defaultResetURL: configuration.defaultResetURL,
                resetURLAllowList: configuration.resetURLAllowList, addressKey: addressKey,
                clientPolicy: PasswordRecoveryService.Settings.clientPolicy(configuration.resetIPLimit),
                validationPolicy: PasswordRecoveryService.Settings.clientPolicy(configuration.resetValidateIPLimit),
                abuseWarningThreshold: configuration.abuseWarningThreshold, inboxLimit: configuration.resetInboxLimit),
            logger: logger, metrics: metrics)
        accounts = AccountAdministration(store: store, hasher: hasher, policy: policy, templates: templates, clock: clock)

        let resetRoutes = PasswordResetRoutes(service: recovery)
        let registration = RegistrationService(
            store: store, clock: clock, limiter: limiter, hasher: hasher, policy: policy, templates: templates,
            settings: .init(
                isOpen: configuration.registration == .open,
                defaultVerificationURL: configuration.publicURL.absoluteString + "/verify-email",
                resetPageURL: configuration.defaultResetURL, verificationURLAllowList: configuration.resetURLAllowList,
                addressKey: addressKey, clientPolicy: PasswordRecoveryService.Settings.clientPolicy(configuration.resetIPLimit)),
            logger: logger)
        let registrationRoutes = RegistrationRoutes(registration: registration)
        let issuer = configuration.publicURL.absoluteString
        let tokens = TokenService(
            store: store, keyRing: keyRing, clock: clock,
            settings: .init(
                issuer: issuer, audience: configuration.accessTokenAudience, accessTokenLifetime: Self.maximumSignedTokenLifetime,
                refreshIdleLifetime: TimeInterval(configuration.refreshIdleTTL),
                refreshAbsoluteLifetime: TimeInterval(configuration.refreshAbsoluteTTL),
                maximumLoginsPerAccount: configuration.maxSessionsPerAccount,
                refreshReuseGrace: TimeInterval(configuration.refreshReuseGrace)))
        self.tokens = tokens
        let verificationCosts = VerificationCostProfile(hasher: hasher, key: addressKey)
        let secretBox = try Self.openSecretBox(configuration)
        let oneTimeCodes = OneTimeCodeSignIn(
            store: store, secretBox: secretBox, limiter: limiter, templates: templates, logger: logger, metrics: metrics)
        let devices = RecognisedDevices(
            store: store, limiter: limiter, templates: templates,
            settings: .init(notices: configuration.newDeviceMail == .on, resetPageURL: configuration.defaultResetURL),
            clock: clock, logger: logger)
        let signInLimits = PasswordSignIn.Limits(
            attemptsPerIP: configuration.loginIPLimit, failuresPerAccountAndIP: configuration.loginFailureLimit)
        let relyingParty = RelyingParty(
            id: configuration.passkeyRPID, origins: Set(configuration.passkeyOrigins), algorithms: [.edDSA, .es256, .rs256])
        // Options are asked for as often as sign-ins are tried: the same per-address window.
        let passkeyChallenges = PasskeyChallenges(
            store: store, limiter: limiter, policy: PasswordRecoveryService.Settings.clientPolicy(configuration.loginIPLimit), clock: clock,
            logger: logger)
        let passkeys = PasskeySignIn(
            store: store, challenges: passkeyChallenges, relyingParty: relyingParty, limiter: limiter, limits: signInLimits, logger: logger,
            metrics: metrics)
        let signIn = SignInService(
            methods: [
                PasswordSignIn(
                    store: store, hasher: hasher, limiter: limiter,
                    limits: signInLimits,
                    costs: verificationCosts,
                    addressKey: addressKey, logger: logger, metrics: metrics, devices: devices),
                passkeys,
            ],
            secondFactors: [oneTimeCodes],
            devices: devices,
            clock: clock)
        let enrolment = AuthenticatorEnrolment(
            store: store, signIn: signIn, codes: oneTimeCodes, secretBox: secretBox, templates: templates,
            issuer: configuration.totpIssuer, clock: clock, logger: logger)
        let secureCookies = configuration.publicURL.scheme == "https" || configuration.tls != nil
        let deviceCookie = DeviceCookie(secure: secureCookies)
        let firstPartyLogin = FirstPartyLogin(signIn: signIn, tokens: tokens, logger: logger)
        let authRoutes = DirectusAuthRoutes(
            login: firstPartyLogin, tokens: tokens, deviceCookie: deviceCookie,
            cookies: DirectusCookies(
                publicURL: configuration.publicURL, otherOrigins: configuration.authCookieOrigins, secure: secureCookies,
                hostPrefixed: configuration.cookieHostPrefix,
                refreshTokenLifetime: configuration.refreshIdleTTL, sessionTokenLifetime: Int(Self.maximumSignedTokenLifetime)))
        let reauthentication = Reauthentication(signIn: signIn, clock: clock)
        let selfService = AccountSelfService(
            store: store, tokens: tokens, reauthentication: reauthentication, hasher: hasher, policy: policy,
            templates: templates, resetPageURL: configuration.defaultResetURL, addressKey: addressKey, clock: clock,
            logger: logger)
        let secondFactorRoutes = SecondFactorRoutes(account: selfService, enrolment: enrolment)
        let passkeyRoutes = PasskeyRoutes(
            account: selfService,
            management: PasskeyManagement(
                store: store, challenges: passkeyChallenges, reauthentication: reauthentication, relyingParty: relyingParty,
                relyingPartyName: configuration.productName, templates: templates, clock: clock, logger: logger),
            passkeys: passkeys, login: firstPartyLogin, auth: authRoutes, cookies: authRoutes.cookies)
        let accountRoutes = AccountRoutes(
            account: selfService,
            emailChange: EmailChangeService(
                store: store, reauthentication: reauthentication, templates: templates, limiter: limiter, publicURL: issuer,
                // A link's uses count like the reset routes' requests, in a budget of their own.
                linkClientPolicy: PasswordRecoveryService.Settings.clientPolicy(configuration.resetIPLimit), addressKey: addressKey,
                clock: clock, logger: logger))
        let clients = ClientRegistry(store: store)
        let authorization = AuthorizationService(
            store: store, clock: clock,
            formTokenKey: Redacted(HMACSHA256.authenticationCode(for: Data("latchkey-form-token-v1".utf8), key: addressKey.exposed)),
            idleTimeout: TimeInterval(configuration.browserSessionIdleTTL),
            browserSessionsPerAccount: configuration.maxBrowserSessionsPerAccount)
        let browserCookies = BrowserCookies(secure: secureCookies)
        let challenges = SignInChallenges(store: store, clock: clock)
        let authorizeRoutes = AuthorizeRoutes(
            clients: clients, authorization: authorization,
            signIn: signIn, challenges: challenges, pages: SignInPage(productName: configuration.productName), clock: clock, logger: logger,
            issuer: issuer, cookies: browserCookies, deviceCookie: deviceCookie)
        let enrolmentPageRoutes = EnrolmentPageRoutes(
            enrolment: enrolment, challenges: challenges, authorization: authorization,
            pages: EnrolmentPage(productName: configuration.productName), cookies: browserCookies, logger: logger)
        let logoutRoutes = LogoutRoutes(
            clients: clients, tokens: tokens, authorization: authorization,
            pages: SignOutPage(productName: configuration.productName), cookies: browserCookies, logger: logger)
        let grants = TokenGrants.all(tokens: tokens)
        self.grants = grants
        let tokenRoutes = OAuthTokenRoutes(
            tokens: tokens, grants: grants, authenticator: ClientAuthenticator(clients: clients), logger: logger)
        let routes = resetRoutes.routes + registrationRoutes.routes + authRoutes.routes + accountRoutes.routes + secondFactorRoutes.routes
            + passkeyRoutes.routes
            + authorizeRoutes.routes + enrolmentPageRoutes.routes + logoutRoutes.routes + tokenRoutes.routes
            + OpenIDRoutes(tokens: tokens, grants: grants, issuer: issuer).routes + WebPageRoutes(
                resetPage: ResetPage(productName: configuration.productName, appURL: configuration.appURL?.absoluteString),
                emailLinkPage: EmailLinkPage(productName: configuration.productName, appURL: configuration.appURL?.absoluteString))
                .routes
            + AppLinkRoutes(
                appleAppIDs: configuration.appleAppIDs, androidApps: configuration.androidApps,
                paths: ["/reset-password", "/verify-email", "/confirm-email", "/undo-email-change"]).routes
                + KeySetRoutes(keyRing: keyRing, clock: clock).routes
                + OperationsRoutes(status: ServerStatus(store: store, metrics: metrics), metricsClients: configuration.metricsClients).routes
        router = Router(
            routes: routes + [OpenAPIDocument.route(describing: routes, grants: grants)], metrics: metrics, logger: logger, clock: clock)

        httpServer = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: configuration.listenHost, port: configuration.listenPort,
                maxBodyBytes: configuration.maxBodyBytes, bodyBytesInFlight: configuration.maxBodyBytesInFlight,
                connectionTimeout: configuration.connectionTimeout,
                requestTimeout: configuration.requestTimeout, perIPConnectionLimit: configuration.perIPConnectionLimit,
                perIPv6Slash56ConnectionLimit: configuration.perIPv6Slash56ConnectionLimit,
                perIPv6Slash48ConnectionLimit: configuration.perIPv6Slash48ConnectionLimit,
                connectionLimit: configuration.maxConnections, workerThreads: configuration.workerThreads,
                hashThreads: configuration.hashConcurrency,
                trustedProxies: configuration.trustedProxies,
                tls: configuration.tls),
            handler: router, logger: logger, listener: listener)

        let transport = try Self.makeTransport(configuration, logger: logger)
        let addressLogKey: @Sendable (String) -> String = { [recovery] address in
            (try? EmailAddress(address)).map(recovery.addressKey) ?? "invalid"
        }
        jobs = JobRunner(
            jobs: [
                ResetRequestWorker(recovery: recovery),
                RegistrationRequestWorker(registration: registration),
                OutboxWorker(
                    store: store, transport: transport, clock: clock, logger: logger, addressKey: addressLogKey, metrics: metrics,
                    lease: TimeInterval(configuration.outboxLease), batchSize: 10),
                SigningKeyReload(keyRing: keyRing, logger: logger),
                StoragePurge(store: store, clock: clock, logger: logger),
                VerificationCostSampling(store: store, profile: verificationCosts, logger: logger),
            ],
            logger: logger)
    }

    /// Starts the HTTP listener and the workers. Throws when the address is taken.
    package func start() throws {
        jobs.start()
        try httpServer.start()
        if let sharedLimiter, let redis = configuration.redis {
            do {
                try sharedLimiter.ping()
            } catch {
                // Not fatal: requests are refused (or let through) until Redis answers.
                logger.error("rate_limiter_unavailable", [
                    "redis": .string(redis.description), "fail_open": .bool(configuration.rateLimitFailOpen), "error": .string("\(error)"),
                ])
            }
        }
        logger.info("server_started", [
            "version": .string(LatchkeyVersion.current),
            "rate_limiter": .string(configuration.redis?.description ?? "local"),
            "listen": .string("\(configuration.listenHost):\(httpServer.boundPort)"),
            "public_url": .string(configuration.publicURL.absoluteString),
            "mail_transport": .string(configuration.mailTransport.rawValue),
            "database": .string(configuration.databaseURL.map { "\($0)" } ?? configuration.databasePath),
        ])
    }

    /// The port actually bound (useful with port 0).
    package var boundPort: Int { httpServer.boundPort }

    /// Stops accepting connections, lets in-flight requests finish, processes the reset
    /// requests already answered, and stops the workers.
    package func stop() {
        httpServer.stop()
        jobs.stop()
        recovery.processPendingRequests()
        logger.info("server_stopped")
    }

    /// Opens the database named by the configuration, creating it when it does not exist and
    /// migrating it unless told not to: PostgreSQL when `LATCHKEY_DATABASE_URL` is set, else
    /// the SQLite file in the data directory. For `serve` and `migrate` only; every other
    /// command uses ``openExistingStore(_:)``. `mailBox` seals waiting mail (``openSecretBox(_:)``).
    package static func openStore(
        _ configuration: Configuration, mailBox: @autoclosure () throws -> SecretBox, migrating: Bool = true
    ) throws -> any Store {
        let store: any Store
        if let url = configuration.databaseURL {
            store = PostgresStore(
                url: url, mailBox: try mailBox(), poolSize: configuration.databasePoolSize,
                statementTimeout: TimeInterval(configuration.databaseStatementTimeout))
        } else {
            try createPrivateDirectory(configuration.dataDirectory)
            store = try SQLiteStore(path: configuration.databasePath, mailBox: try mailBox())
        }
        if migrating { try store.migrate() }
        return store
    }

    /// Opens the database an administration command works on, which must exist with
    /// Latchkey's current schema: only `serve` and `migrate` create or upgrade a database, so
    /// a command run with another data directory or configuration than the server's fails,
    /// naming where it looked, instead of quietly using an empty database. Throws
    /// `invalid_configuration` for a missing or unmigrated database, `storage_error` when it
    /// cannot be opened (naming the file and the permission missing).
    package static func openExistingStore(_ configuration: Configuration) throws -> any Store {
        let store: any Store
        let place: String
        if let url = configuration.databaseURL {
            place = "The PostgreSQL database \(url)"
            store = PostgresStore(
                url: url, mailBox: try openSecretBox(configuration), poolSize: configuration.databasePoolSize,
                statementTimeout: TimeInterval(configuration.databaseStatementTimeout))
        } else {
            let path = configuration.databasePath
            place = "The database \(path)"
            guard try SQLiteStore.databaseExists(at: path) else {
                throw LatchkeyError(
                    .invalidConfiguration,
                    "There is no Latchkey database at \(path) (\(Setting.dataDirectory.name) is \(configuration.dataDirectory.path)). "
                        + "Point the command at the server's data with --data-dir, \(Setting.dataDirectory.name) or "
                        + "\(Setting.configFile.name); `latchkey migrate` creates a new database.")
            }
            store = try SQLiteStore(path: path, mailBox: try openSecretBox(configuration), creating: false)
        }
        let versions = try store.schemaVersions()
        if versions.applied == 0 {
            throw LatchkeyError(.invalidConfiguration, "\(place) has no Latchkey tables; `latchkey migrate` creates them.")
        }
        if versions.applied < versions.latest {
            throw LatchkeyError(
                .invalidConfiguration,
                "\(place) is at schema version \(versions.applied), this latchkey needs \(versions.latest); run `latchkey migrate` first.")
        }
        if versions.applied > versions.latest {
            throw LatchkeyError(
                .invalidConfiguration,
                "\(place) is at schema version \(versions.applied), newer than this latchkey knows (\(versions.latest)); use the server's version.")
        }
        return store
    }

    /// Copies the configured SQLite database to a new file at `path` (mode 0600) while servers
    /// keep using it (``SQLiteBackup``), for `latchkey backup`; returns the pages and bytes
    /// copied and the schema version. Throws `invalid_configuration` for a PostgreSQL database
    /// (pg_dump backs that up) or one that is missing or not migrated, `storage_error` when
    /// the copy cannot be made.
    package static func backUpDatabase(_ configuration: Configuration, to path: String) throws -> (pages: Int, bytes: Int, schema: Int) {
        guard configuration.databaseURL == nil else {
            throw LatchkeyError(
                .invalidConfiguration,
                "The database is PostgreSQL (\(Setting.databaseURL.name)): back it up with pg_dump (docs/deploy.md#backups).")
        }
        let schema = try openExistingStore(configuration).schemaVersions().applied
        let summary = try SQLiteBackup.copy(databaseAt: configuration.databasePath, to: path)
        return (summary.pages, summary.bytes, schema)
    }

    /// Account administration over the configured, existing database, for the `users` commands.
    package static func openAccounts(_ configuration: Configuration, clock: any WallClock = SystemClock()) throws -> AccountAdministration {
        AccountAdministration(
            store: try openExistingStore(configuration), hasher: PasswordHasher(parameters: configuration.argon2),
            policy: try PasswordPolicy(minimumLength: 8, maximumLength: 128, minimumScore: configuration.passwordMinimumScore),
            templates: MailTemplates(productName: configuration.productName), clock: clock)
    }

    /// The Directus user import over the configured, existing database, for `users import`.
    package static func openUserImport(_ configuration: Configuration) throws -> DirectusUserImport {
        DirectusUserImport(
            store: try openExistingStore(configuration), hasher: PasswordHasher(parameters: configuration.argon2),
            secretBox: try openSecretBox(configuration), clock: SystemClock())
    }

    /// The OAuth client registry over the configured, existing database, for the `clients` commands.
    package static func openClients(_ configuration: Configuration) throws -> ClientRegistry {
        ClientRegistry(store: try openExistingStore(configuration))
    }

    /// The keyed hash the server's log lines give for `email` (their `address` field) and its
    /// rate-limit keys use, made with the configured address key file, which must exist (this
    /// never creates one: a new key would give hashes no log line has). Throws `invalid_email`,
    /// or `invalid_configuration` naming the missing file.
    package static func addressLogKey(for email: String, _ configuration: Configuration) throws -> String {
        let address = try EmailAddress(email)
        let file = configuration.addressKeyFile
        guard try FileAccess.exists(file.path, what: "The address key file", code: .invalidConfiguration) else {
            throw LatchkeyError(
                .invalidConfiguration,
                "There is no address key at \(file.path) (\(Setting.addressKeyFile.name)). Point the command at the server's "
                    + "data with --data-dir, \(Setting.dataDirectory.name) or \(Setting.configFile.name).")
        }
        return AddressKey(try loadOrCreateKey(at: file)).hash(address.normalized)
    }

    /// The signing keys in the configured key file. With `creating` (`serve`, `migrate`) the
    /// file is created on first use; without it a missing file is an `invalid_configuration`
    /// error naming the path, so `keys` commands never start a key file of their own.
    package static func openKeyRing(_ configuration: Configuration, now: Date = Date(), creating: Bool = true) throws -> SigningKeyRing {
        let path = configuration.signingKeysFile.path
        // A file this user cannot read is not a missing one: the ring would start a key of its own.
        if try FileAccess.exists(path, what: "The signing keys file", code: .invalidConfiguration) {
            try FileAccess.require(.read, of: path, what: "The signing keys file", code: .invalidConfiguration)
        } else if creating {
            try createPrivateDirectory(configuration.dataDirectory)
            try createPrivateDirectory(configuration.signingKeysFile.deletingLastPathComponent(), setting: Setting.signingKeysFile.name)
        } else {
            throw LatchkeyError(
                .invalidConfiguration,
                "There are no signing keys at \(configuration.signingKeysFile.path) (\(Setting.signingKeysFile.name)). "
                    + "Point the command at the server's data with --data-dir, \(Setting.dataDirectory.name) or "
                    + "\(Setting.configFile.name); `latchkey migrate` or `latchkey serve` creates the keys.")
        }
        return try SigningKeyRing(file: configuration.signingKeysFile, maximumTokenLifetime: maximumSignedTokenLifetime, now: now)
    }

    /// Creates what `latchkey migrate` prepares besides the database: the signing keys, the
    /// address key and the secret box key, each only when missing. Returns the paths of the
    /// files it created.
    package static func createKeyFiles(_ configuration: Configuration, now: Date = Date()) throws -> [String] {
        let files = [configuration.signingKeysFile, configuration.addressKeyFile, configuration.secretKeyFile]
        let missing = files.filter { !FileManager.default.fileExists(atPath: $0.path) }
        _ = try openKeyRing(configuration, now: now)
        _ = try loadOrCreateKey(at: configuration.addressKeyFile)
        _ = try openSecretBox(configuration)
        return missing.map(\.path)
    }

    /// The secret box over the configured key file (`LATCHKEY_SECRET_KEY_FILE`), created
    /// (mode 0600, 32 random bytes) when missing; instances starting at once on a shared file
    /// all end up with the same key.
    package static func openSecretBox(_ configuration: Configuration) throws -> SecretBox {
        try SecretBox(key: loadOrCreateKey(at: configuration.secretKeyFile, setting: .secretKeyFile, what: "The secret key file"))
    }

    /// What came of `latchkey mail test`'s message.
    package enum MailTestOutcome: Sendable {
        /// The file transport wrote it to this file (nothing left the machine).
        case written(path: String)
        /// The SMTP server named (`smtp://host:port`) was asked to take it: what was said, and
        /// the error when it did not take it.
        case smtp(server: String, security: SMTPConfiguration.Security, conversation: SMTPConversation, failure: LatchkeyError?)
    }

    /// Sends one test message to `email` at once through the configured transport (never
    /// through the outbox, so the outcome is known when this returns), for an operator checking
    /// the mail settings. Throws `invalid_email`, `invalid_configuration` (the settings, or an
    /// outbox folder the file transport has not created yet); a delivery failure is part of
    /// the outcome.
    package static func sendTestMail(to email: String, _ configuration: Configuration, now: Date = Date()) throws -> MailTestOutcome {
        let address = try EmailAddress(email)
        let product = configuration.productName
        let text = """
            This message was sent by `latchkey mail test` to check that \(product) can send mail to \(address.normalized).

            Nothing needs to be done. Sent \(Timestamp.iso8601(now)).
            """
        let html = "<p>This message was sent by <code>latchkey mail test</code> to check that \(product.htmlEscaped) can send mail to "
            + "\(address.normalized.htmlEscaped).</p><p>Nothing needs to be done. Sent \(Timestamp.iso8601(now)).</p>"
        let message = try MailMessage(
            id: SecureRandom.identifier(), to: address.normalized, subject: "\(product): test mail", textBody: text, htmlBody: html,
            locale: SupportedLanguage.en.rawValue)
        let sender = try MailSender(address: configuration.mailFromAddress, displayName: configuration.mailFromName)
        switch configuration.mailTransport {
        case .file:
            let directory = configuration.outboxDirectory
            guard try FileAccess.exists(directory.path, what: "The outbox", code: .invalidConfiguration) else {
                throw LatchkeyError(
                    .invalidConfiguration,
                    "There is no outbox at \(directory.path) (\(Setting.dataDirectory.name) is \(configuration.dataDirectory.path)); "
                        + "`latchkey serve` creates it.")
            }
            try FileMailTransport(directory: directory, sender: sender).send(message)
            return .written(path: directory.appendingPathComponent("\(message.id).eml").path)
        case .smtp:
            let transport = try smtpTransport(configuration, sender: sender)
            let (conversation, failure) = transport.sendRecordingConversation(message)
            return .smtp(
                server: transport.configuration.url, security: transport.configuration.security, conversation: conversation,
                failure: failure)
        }
    }

    private static func makeTransport(_ configuration: Configuration, logger: Logger) throws -> any MailTransport {
        let sender = try MailSender(address: configuration.mailFromAddress, displayName: configuration.mailFromName)
        switch configuration.mailTransport {
        case .file:
            return try FileMailTransport(directory: configuration.outboxDirectory, sender: sender, logger: logger)
        case .smtp:
            return try smtpTransport(configuration, sender: sender)
        }
    }

    /// The SMTP transport the configuration names.
    private static func smtpTransport(_ configuration: Configuration, sender: MailSender) throws -> SMTPMailTransport {
        guard let smtp = configuration.smtp else {
            throw LatchkeyError(.invalidConfiguration, "\(Setting.smtpURL.name) is required when \(Setting.mailTransport.name)=smtp")
        }
        return SMTPMailTransport(configuration: try SMTPConfiguration(
            url: smtp.url.absoluteString, username: smtp.username, password: smtp.password, sender: sender,
            allowInsecureLoopback: smtp.allowInsecureLoopback, timeout: TimeInterval(smtp.timeout), caFile: smtp.caFile))
    }

    static func createPrivateDirectory(_ url: URL, setting: String = Setting.dataDirectory.name) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw LatchkeyError(.invalidConfiguration, "\(setting) '\(url.path)' cannot be created", detail: "\(error)")
        }
    }

    /// Reads the 32-byte key at `url`, or creates it (mode 0600) on first start; of instances
    /// starting at once on a shared file, every one ends up with the same key.
    static func loadOrCreateKey(at url: URL, setting: Setting = .addressKeyFile, what: String = "The address key file") throws -> Redacted<Data> {
        if try FileAccess.exists(url.path, what: what, code: .invalidConfiguration) {
            try FileAccess.require(.read, of: url.path, what: what, code: .invalidConfiguration)
        } else {
            try createPrivateDirectory(url.deletingLastPathComponent(), setting: setting.name)
            try KeyFile.write(SecureRandom.bytes(32), to: url, replacing: false)
        }
        guard let data = FileManager.default.contents(atPath: url.path), data.count == 32 else {
            throw LatchkeyError(.invalidConfiguration, "The key file \(url.path) is damaged (expected 32 bytes); delete it to create a new one")
        }
        return Redacted(data)
    }
}
