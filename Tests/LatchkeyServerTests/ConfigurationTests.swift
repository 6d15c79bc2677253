import Foundation
import LatchkeyCore
import LatchkeyServer
import Testing

@Suite struct ConfigurationTests {
    @Test("with nothing set, the embedded defaults apply")
    func defaults() throws {
        let configuration = try Configuration.load(environment: [:])
        #expect(configuration.listenHost == "127.0.0.1")
        #expect(configuration.listenPort == 8080)
        #expect(configuration.publicURL.absoluteString == "http://127.0.0.1:8080")
        #expect(configuration.mailTransport == .file)
        #expect(configuration.resetTokenTTL == 1200)
        #expect(configuration.maxBodyBytes == 65_536)
        #expect(configuration.perIPConnectionLimit == 32)
        #expect(configuration.workerThreads == max(16, 4 * AvailableProcessors.count))
        #expect(configuration.defaultResetURL == "http://127.0.0.1:8080/reset-password")
        #expect(configuration.dataDirectory.lastPathComponent == "data")
        #expect(!configuration.productionAdvice.isEmpty)
    }

    @Test("every bad value stops start-up with the variable's name", arguments: [
        ("LATCHKEY_RESET_TOKEN_TTL", "299"), ("LATCHKEY_RESET_TOKEN_TTL", "3601"), ("LATCHKEY_RESET_TOKEN_TTL", "ten"),
        ("LATCHKEY_LISTEN", "8080"), ("LATCHKEY_LISTEN", "example.com:80"), ("LATCHKEY_LISTEN", "127.0.0.1:70000"),
        ("LATCHKEY_PUBLIC_URL", "example.com"), ("LATCHKEY_PUBLIC_URL", "https://x.example/?a=b"),
        ("LATCHKEY_MAIL_TRANSPORT", "carrier-pigeon"), ("LATCHKEY_APPLE_APP_IDS", "com.example.app"),
        ("LATCHKEY_ANDROID_APPS", "com.example:AB:CD"), ("LATCHKEY_RESET_URL_ALLOW_LIST", "/relative"), ("LATCHKEY_RESET_URL_ALLOW_LIST", "myapp:reset"), ("LATCHKEY_METRICS_ALLOW", "monitoring.local"),
        ("LATCHKEY_RESET_IP_LIMIT", "lots"), ("LATCHKEY_ARGON2_MEMORY_KIB", "1024"),
        ("LATCHKEY_WORKER_THREADS", "0"), ("LATCHKEY_WORKER_THREADS", "1025"), ("LATCHKEY_TRUSTED_PROXIES", "proxy.local"),
        ("LATCHKEY_MAIL_FROM", "not an address"), ("LATCHKEY_MAIL_FROM_NAME", "Evil\r\nBcc: x@y.z"),
        ("LATCHKEY_AUTH_COOKIE_ORIGINS", "app.example.com"), ("LATCHKEY_AUTH_COOKIE_ORIGINS", "https://app.example.com/auth"),
        ("LATCHKEY_AUTH_COOKIE_ORIGINS", "ftp://app.example.com"), ("LATCHKEY_AUTH_COOKIE_ORIGINS", "https://app.example.com?x=1"),
    ])
    func rejectsBadValues(name: String, value: String) {
        let error = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: [name: value]) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains(name) == true)
    }

    @Test("smtp needs its URL and accepts smtp:// and smtps://")
    func smtp() throws {
        let missing = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: ["LATCHKEY_MAIL_TRANSPORT": "smtp"]) }
        #expect(missing?.message.contains("LATCHKEY_SMTP_URL") == true)
        let configuration = try Configuration.load(environment: [
            "LATCHKEY_MAIL_TRANSPORT": "smtp", "LATCHKEY_SMTP_URL": "smtps://mail.example.com:465",
            "LATCHKEY_SMTP_USERNAME": "robot", "LATCHKEY_SMTP_PASSWORD": "s3cret",
        ])
        #expect(configuration.smtp?.url.host == "mail.example.com")
        #expect("\(String(describing: configuration.smtp?.password))".contains("s3cret") == false)
    }

    @Test("lists, IPv6 listen addresses and the JSON file are read; the environment wins")
    func listsAndFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-\(UUID()).json")
        try Data(#"{"LATCHKEY_RESET_TOKEN_TTL": 600, "LATCHKEY_APPLE_APP_IDS": ["ABCDE12345.com.example.app"], "LATCHKEY_LISTEN": "127.0.0.1:1"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let configuration = try Configuration.load(environment: [
            "LATCHKEY_CONFIG_FILE": file.path, "LATCHKEY_LISTEN": "[::1]:9000",
            "LATCHKEY_ANDROID_APPS": "com.example.app:" + Array(repeating: "ab", count: 32).joined(separator: ":"),
        ])
        #expect(configuration.resetTokenTTL == 600)
        #expect(configuration.appleAppIDs == ["ABCDE12345.com.example.app"])
        #expect(configuration.listenHost == "::1" && configuration.listenPort == 9000)
        #expect(configuration.publicURL.absoluteString == "http://[::1]:9000")
        #expect(configuration.androidApps.first?.fingerprint.hasPrefix("AB:AB") == true)

        try Data(#"{"LATCHKEY_TYPO": 1}"#.utf8).write(to: file)
        let error = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: ["LATCHKEY_CONFIG_FILE": file.path]) }
        #expect(error?.message.contains("LATCHKEY_TYPO") == true)
    }

    @Test("a bad value's error says what the setting takes", arguments: [
        ("LATCHKEY_LOG_LEVEL", "loud", "must be one of debug, info, warning, error (got 'loud')"),
        ("LATCHKEY_RESET_TOKEN_TTL", "ten", "must be a whole number of seconds from 300 to 3600 (got 'ten')"),
        ("LATCHKEY_RATE_LIMIT_FAIL_OPEN", "maybe", "must be true or false (got 'maybe')"),
        ("LATCHKEY_SMTP_URL", "http://mail.example.com", "must be an absolute smtp or smtps URL"),
        ("LATCHKEY_RESET_IP_LIMIT", "20/0", "must be COUNT/SECONDS, e.g. 20/600"),
    ])
    func errorsStateTheAllowedValues(name: String, value: String, expected: String) {
        // SMTP on, so that the SMTP settings are read too.
        var environment = ["LATCHKEY_MAIL_TRANSPORT": "smtp", "LATCHKEY_SMTP_URL": "smtp://127.0.0.1:25"]
        environment[name] = value
        let error = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: environment) }
        #expect(error?.message.hasPrefix("\(name) \(expected)") == true, "\(String(describing: error?.message))")
    }

    @Test("a bad URL setting's error says what is wrong and never quotes the value, which may hold a user and password", arguments: [
        ("submission://mailer:hunter2secret@mail.example.com:587", "(the value has another scheme)"),
        ("smtp://mailer:hunter2secret@", "(the URL has no host)"),
        ("mailer:hunter2secret@mail.example.com", "(the value has another scheme)"),
        ("//mailer:hunter2secret@mail.example.com:587", "(the value is not an absolute URL)"),
    ])
    func urlErrorsNeverQuoteTheValue(value: String, problem: String) {
        let environment = ["LATCHKEY_MAIL_TRANSPORT": "smtp", "LATCHKEY_SMTP_URL": value]
        let error = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: environment) }
        let message = error?.message ?? ""
        #expect(message == "LATCHKEY_SMTP_URL must be an absolute smtp or smtps URL \(problem)")
        #expect(!message.contains("hunter2") && !message.contains("mailer"))
    }

    @Test("a bad entry of a URL list is quoted, unless it may hold a user and password", arguments: [
        ("LATCHKEY_AUTH_COOKIE_ORIGINS", "https://admin:hunter2secret@app.example.com"),
        ("LATCHKEY_RESET_URL_ALLOW_LIST", "https://admin:hunter2secret@app.example.com/reset?x=1"),
    ])
    func urlListEntriesWithCredentialsAreNotQuoted(name: String, value: String) {
        let withCredentials = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: [name: value]) }
        #expect(withCredentials?.message.hasPrefix("\(name) an entry with '@' (not shown") == true)
        #expect(withCredentials?.message.contains("hunter2") == false)
        #expect(withCredentials?.message.contains("admin") == false)
        let plain = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: [name: "ftp://app.example.com?x"]) }
        #expect(plain?.message.hasPrefix("\(name) entry 'ftp://app.example.com?x'") == true)
    }

    @Test("the login lifetime may not be shorter than the idle lifetime; the error gives the lowest allowed value")
    func absoluteLifetimeFollowsIdleLifetime() throws {
        let error = #expect(throws: LatchkeyError.self) {
            try Configuration.load(environment: ["LATCHKEY_REFRESH_IDLE_TTL": "86400", "LATCHKEY_REFRESH_ABSOLUTE_TTL": "3600"])
        }
        #expect(error?.message == "LATCHKEY_REFRESH_ABSOLUTE_TTL must be a whole number of seconds from 86400 to 31536000 (got '3600')")
        let configuration = try Configuration.load(environment: ["LATCHKEY_REFRESH_IDLE_TTL": "86400", "LATCHKEY_REFRESH_ABSOLUTE_TTL": "86400"])
        #expect(configuration.refreshAbsoluteTTL == 86_400)
    }

    @Test("every value the settings table lists for a choice is accepted")
    func everyListedChoiceLoads() throws {
        for setting in Setting.all {
            guard case .choice(let words) = setting.kind else { continue }
            for word in words + words.map({ $0.uppercased() }) {
                var environment = [setting.name: word]
                if word.lowercased() == "smtp" { environment["LATCHKEY_SMTP_URL"] = "smtp://127.0.0.1:25" }
                _ = try Configuration.load(environment: environment)
            }
        }
    }

    @Test("an unknown LATCHKEY_* variable is a warning naming the closest setting; known ones are not")
    func unknownVariablesWarn() throws {
        let configuration = try Configuration.load(environment: [
            "LATCHKEY_LOG_LEVLE": "debug", "LATCHKEY_PUBLIC_URI": "https://id.example.com",
            "LATCHKEY_LOG_LEVEL": "info", "LATCHKEY_ISSUER": "https://id.example.com", "HOME": "/root",
        ])
        #expect(configuration.warnings == [
            "LATCHKEY_LOG_LEVLE is not a Latchkey setting and is ignored; did you mean LATCHKEY_LOG_LEVEL?",
            "LATCHKEY_PUBLIC_URI is not a Latchkey setting and is ignored; did you mean LATCHKEY_PUBLIC_URL?",
        ])
        #expect(try Configuration.load(environment: [:]).warnings.isEmpty)
    }

    @Test("an unknown key in the JSON file stops start-up naming the closest setting")
    func unknownFileKeySuggests() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-\(UUID()).json")
        try Data(#"{"LATCHKEY_RESET_TOKEN_TTTL": 600}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: ["LATCHKEY_CONFIG_FILE": file.path]) }
        #expect(error?.message.hasPrefix("LATCHKEY_RESET_TOKEN_TTTL is not a Latchkey setting") == true)
        #expect(error?.message.hasSuffix("did you mean LATCHKEY_RESET_TOKEN_TTL?") == true)
    }

    @Test("a JSON file that does not parse is named with the line and column of its mistake", arguments: [
        ("{\n  \"LATCHKEY_LISTEN\": \"127.0.0.1:8080\",\n  \"LATCHKEY_DATA_DIR\": /var/lib/latchkey\n}\n", "invalid value at line 3, column 24"),
        ("{\"LATCHKEY_PRODUCT_NAME\": \"Caf\u{E9}\" \"LATCHKEY_LOG_LEVEL\": \"info\"}", "invalid value at line 1, column 34"),
        ("{\n  \"LATCHKEY_LOG_LEVEL\": \"info\"\n", "unexpected end of file at line 3, column 1"),
    ])
    func brokenFileNamesLineAndColumn(text: String, expected: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-\(UUID()).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: ["LATCHKEY_CONFIG_FILE": file.path]) }
        #expect(error?.message == "LATCHKEY_CONFIG_FILE '\(file.path)' is not valid JSON: \(expected)")
    }

    @Test("the product's name, the app URL and the link-check budget have defaults a first try works with")
    func productAndLinkChecks() throws {
        let defaults = try Configuration.load(environment: [:])
        #expect(defaults.productName == "Latchkey" && defaults.mailFromName == "Latchkey")
        #expect(defaults.appURL == nil)
        #expect(defaults.resetValidateIPLimit == RateLimitPolicy.Window(limit: 100, seconds: 600))
        #expect(defaults.resetIPLimit == RateLimitPolicy.Window(limit: 20, seconds: 600))

        let branded = try Configuration.load(environment: [
            "LATCHKEY_PRODUCT_NAME": "Acme Notes", "LATCHKEY_APP_URL": "https://notes.example.com/open",
            "LATCHKEY_RESET_VALIDATE_IP_LIMIT": "300/60",
        ])
        #expect(branded.productName == "Acme Notes" && branded.mailFromName == "Acme Notes")
        #expect(branded.appURL?.absoluteString == "https://notes.example.com/open")
        #expect(branded.resetValidateIPLimit == RateLimitPolicy.Window(limit: 300, seconds: 60))
        let named = try Configuration.load(environment: ["LATCHKEY_PRODUCT_NAME": "Acme", "LATCHKEY_MAIL_FROM_NAME": "Acme Support"])
        #expect(named.mailFromName == "Acme Support")

        for (name, value) in [
            ("LATCHKEY_PRODUCT_NAME", "Acme\r\nBcc: x@y.z"), ("LATCHKEY_APP_URL", "javascript:alert(1)"),
            ("LATCHKEY_APP_URL", "notes.example.com"), ("LATCHKEY_RESET_VALIDATE_IP_LIMIT", "100"),
        ] {
            let error = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: [name: value]) }
            #expect(error?.message.contains(name) == true)
        }
    }

    @Test("the production hints come from the table and disappear once followed")
    func productionHints() throws {
        let development = try Configuration.load(environment: [:])
        #expect(development.productionAdvice.map(\.setting) == [
            "LATCHKEY_PUBLIC_URL", "LATCHKEY_MAIL_TRANSPORT", "LATCHKEY_PRODUCT_NAME", "LATCHKEY_RESET_URL_ALLOW_LIST",
            "LATCHKEY_APPLE_APP_IDS",
        ])
        #expect(development.productionAdvice.first?.line == "LATCHKEY_PUBLIC_URL: the https URL users reach (now http://127.0.0.1:8080)")
        #expect(development.productionAdvice[1].recommendation == "smtp, with LATCHKEY_SMTP_URL, LATCHKEY_SMTP_USERNAME and LATCHKEY_SMTP_PASSWORD")
        #expect(development.productionAdvice[2].current == nil)
        var environment = [
            "LATCHKEY_PUBLIC_URL": "https://id.example.com", "LATCHKEY_MAIL_TRANSPORT": "smtp",
            "LATCHKEY_SMTP_URL": "smtps://mail.example.com:465", "LATCHKEY_APPLE_APP_IDS": "ABCDE12345.com.example.app",
            "LATCHKEY_RESET_URL_ALLOW_LIST": "https://app.example.com/reset", "LATCHKEY_PRODUCT_NAME": "Acme",
        ]
        // Over https, the __Host- cookie names are advised too (over http they cannot be had).
        #expect(try Configuration.load(environment: environment).productionAdvice.map(\.setting) == ["LATCHKEY_COOKIE_HOST_PREFIX"])
        environment["LATCHKEY_COOKIE_HOST_PREFIX"] = "true"
        let production = try Configuration.load(environment: environment)
        #expect(production.productionAdvice.isEmpty)
    }

    @Test("LATCHKEY_MAX_CONNECTIONS and LATCHKEY_REQUEST_TIMEOUT default to 10 000 and 10 s and are range-checked")
    func settings() throws {
        let defaults = try Configuration.load(environment: [:])
        #expect(defaults.maxConnections == 10_000)
        #expect(defaults.requestTimeout == 10)
        for name in ["LATCHKEY_MAX_CONNECTIONS", "LATCHKEY_REQUEST_TIMEOUT"] {
            let error = #expect(throws: LatchkeyError.self) { try Configuration.load(environment: [name: "0"]) }
            #expect(error?.message.contains(name) == true)
        }
    }
}
