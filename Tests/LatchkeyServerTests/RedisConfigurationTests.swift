import LatchkeyCore
import LatchkeyRedis
import LatchkeyServer
import Testing

/// LATCHKEY_REDIS_URL and LATCHKEY_RATE_LIMIT_FAIL_OPEN as the configuration reads them.
@Suite struct RedisConfigurationTests {
    @Test("rediss:// is refused with a message that says TLS is not supported")
    func tlsRefused() throws {
        let error = try #require(throws: LatchkeyError.self) {
            try Configuration.load(environment: ["LATCHKEY_REDIS_URL": "rediss://:hunter2-secret@redis.example:6380"])
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.hasPrefix("LATCHKEY_REDIS_URL"))
        #expect(error.message.contains("TLS"))
        #expect(!error.description.contains("hunter2"))
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
