import LatchkeyCore
import LatchkeyRedis
import LatchkeyServer
import Testing

/// LATCHKEY_REDIS_URL and LATCHKEY_RATE_LIMIT_FAIL_OPEN as the configuration reads them.
@Suite struct RedisConfigurationTests {
    @Test("rediss:// is TLS, with the CA file LATCHKEY_REDIS_CA_FILE names, which only rediss:// takes")
    func tlsEndpoint() throws {
        let caFile = "/etc/ssl/certs/ca-certificates.crt"
        let tls = try Configuration.load(environment: [
            "LATCHKEY_REDIS_URL": "rediss://latchkey:hunter2-secret@redis.example:6380/2", "LATCHKEY_REDIS_CA_FILE": caFile,
        ])
        #expect(tls.redis?.tls == true && tls.redis?.caFile == caFile && tls.redis?.username == "latchkey")
        #expect(tls.redis?.description == "rediss://latchkey@redis.example:6380/2")
        #expect(try Configuration.load(environment: ["LATCHKEY_REDIS_URL": "rediss://redis.example"]).redis?.caFile == nil)
        for (url, file, named) in [
            ("redis://:hunter2-secret@redis.example", caFile, "LATCHKEY_REDIS_CA_FILE"),
            ("rediss://:hunter2-secret@redis.example", "/nonexistent/ca.pem", "LATCHKEY_REDIS_CA_FILE"),
        ] {
            let error = try #require(throws: LatchkeyError.self) {
                try Configuration.load(environment: ["LATCHKEY_REDIS_URL": url, "LATCHKEY_REDIS_CA_FILE": file])
            }
            #expect(error.code == .invalidConfiguration && error.message.hasPrefix(named))
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test("malformed URLs name the setting and never echo the password",
          arguments: ["http://:hunter2-secret@host:6379", "redis://:hunter2-secret@host:99999", "redis://:hunter2-secret@host/x",
                      "redis://:hunter2-secret@host/1?db=2", "redis://user@host", "redis://:hunter2-secret@"])
    func malformed(url: String) throws {
        let error = try #require(throws: LatchkeyError.self) {
            try Configuration.load(environment: ["LATCHKEY_REDIS_URL": url])
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.hasPrefix("LATCHKEY_REDIS_URL "))
        #expect(!error.description.contains("hunter2"))
    }

    @Test("LATCHKEY_REDIS_URL and LATCHKEY_RATE_LIMIT_FAIL_OPEN load; by default limits are local and fail closed")
    func configuration() throws {
        let defaults = try Configuration.load(environment: [:])
        #expect(defaults.redis == nil)
        #expect(defaults.rateLimitFailOpen == false)
        let shared = try Configuration.load(environment: [
            "LATCHKEY_REDIS_URL": "redis://:pw@127.0.0.1:6390/4", "LATCHKEY_RATE_LIMIT_FAIL_OPEN": "true",
        ])
        #expect(shared.redis?.port == 6390)
        #expect(shared.redis?.database == 4)
        #expect(shared.rateLimitFailOpen)
    }
}
