import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyStorage
import LatchkeyRedis
import LatchkeyMail
import LatchkeyWeb
import LatchkeyPasswordStrength
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
        ("LATCHKEY_RESET_IP_LIMIT", "lots"), ("LATCHKEY_ARGON2_MEMORY_KIB", "1024"), ("LATCHKEY_TRUSTED_PROXIES", "proxy.local"),
        ("LATCHKEY_MAIL_FROM", "not an address"), ("LATCHKEY_MAIL_FROM_NAME", "Evil\r\nBcc: x@y.z"),
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
}
