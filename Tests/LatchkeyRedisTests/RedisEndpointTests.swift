import LatchkeyCrypto
import LatchkeyRedis
import Testing

@Suite struct RedisEndpointTests {
    @Test("a redis:// URL gives host, port, credentials and database")
    func parses() throws {
        let full = try RedisEndpoint(url: "redis://limiter:p%40ss-word@redis.internal:6380/2")
        #expect(full.host == "redis.internal")
        #expect(full.port == 6380)
        #expect(full.username == "limiter")
        #expect(full.password?.exposed == "p@ss-word")
        #expect(full.database == 2)

        let plain = try RedisEndpoint(url: "redis://127.0.0.1")
        #expect(plain.port == 6379)
        #expect(plain.password == nil)
        #expect(plain.database == 0)
        #expect(try RedisEndpoint(url: "redis://:secret@[::1]:7000").host == "::1")
    }

    @Test("the description never shows the password")
    func description() throws {
        let endpoint = try RedisEndpoint(url: "redis://:hunter2-secret@10.0.0.5:6379/1")
        #expect(endpoint.description == "redis://10.0.0.5:6379/1")
        #expect(!"\(endpoint)".contains("hunter2"))
    }
}
