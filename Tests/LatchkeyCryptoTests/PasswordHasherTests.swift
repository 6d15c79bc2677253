import Foundation
import LatchkeyCrypto
import Testing

@Suite struct PasswordHasherTests {
    /// Cheap parameters so the suite stays fast; the cost does not change the logic.
    private let cheap: PasswordHasher

    init() throws {
        cheap = PasswordHasher(parameters: try Argon2Parameters(memoryKiB: 256, iterations: 1, parallelism: 1))
    }

    @Test("the reference implementation's Argon2id PHC string verifies")
    func referencePHC() {
        let hasher = PasswordHasher()
        let phc = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
        #expect(hasher.verify(Redacted("password"), against: phc))
        #expect(!hasher.verify(Redacted("Password"), against: phc))
    }

    // Made with argon2-cffi (its own build of the reference code), in the shapes Directus's
    // node-argon2 writes: argon2id m=65536,t=3,p=4 today; argon2i m=4096,t=3,p=1 in old releases.
    @Test("PHC strings from other implementations verify", arguments: [
        ("password", "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA"),
        ("password", "$argon2d$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$lV5dWxY6G2C7o1/DbQSWR0+6T2tZrVNihmbwf7L5Pq8"),
        ("password", "$argon2i$v=16$m=65536,t=2,p=1$c29tZXNhbHQ$9sTbSlTio3Biev89thdrlKKiCaYsjjYVJxGAL3swxpQ"),
        ("password", "$argon2i$m=65536,t=2,p=1$c29tZXNhbHQ$9sTbSlTio3Biev89thdrlKKiCaYsjjYVJxGAL3swxpQ"),
        ("directus-admin-pw", "$argon2id$v=19$m=65536,t=3,p=4$MDEyMzQ1Njc4OWFiY2RlZg$sQ3JmbOAUOU/OkmO0vHLLhqnnU8FqbypVg76WHZW8Ws"),
        ("legacy pass", "$argon2i$v=19$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0c2FsdA$oEj7DVy2sLrCtWTv5cIb0SsLNVADqbGEUlHlefmjizI"),
    ])
    func foreignHashes(password: String, phc: String) {
        #expect(cheap.verify(Redacted(password), against: phc))
        #expect(!cheap.verify(Redacted(password + "x"), against: phc))
    }

    @Test("a new hash is an Argon2id v19 PHC string with the configured costs, and verifies")
    func hashAndVerify() throws {
        let hasher = PasswordHasher()
        let phc = try hasher.hash(Redacted("correct horse battery staple"))
        #expect(phc.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        let fields = phc.split(separator: "$")
        #expect(fields.count == 5)
        #expect(fields[3].count == 22)  // 16-byte salt
        #expect(fields[4].count == 43)  // 32-byte tag
        #expect(hasher.verify(Redacted("correct horse battery staple"), against: phc))
        #expect(!hasher.needsRehash(phc))
    }

    @Test("a wrong password does not verify")
    func wrongPassword() throws {
        let phc = try cheap.hash(Redacted("hunter2hunter2"))
        #expect(!cheap.verify(Redacted("hunter2hunter3"), against: phc))
        #expect(!cheap.verify(Redacted(""), against: phc))
    }

    @Test("the same password hashes differently each time (random salt)")
    func saltIsRandom() throws {
        let first = try cheap.hash(Redacted("same password"))
        let second = try cheap.hash(Redacted("same password"))
        #expect(first != second)
        #expect(cheap.verify(Redacted("same password"), against: second))
    }

    @Test("the hasher hashes the exact UTF-8 bytes: NFC and NFD forms differ")
    func noNormalisation() throws {
        let composed = "caf\u{E9}-password"
        let decomposed = "cafe\u{301}-password"
        let phc = try cheap.hash(Redacted(composed))
        #expect(cheap.verify(Redacted(composed), against: phc))
        #expect(!cheap.verify(Redacted(decomposed), against: phc))
    }

    @Test("an empty password can be hashed and verified")
    func emptyPassword() throws {
        let phc = try cheap.hash(Redacted(""))
        #expect(cheap.verify(Redacted(""), against: phc))
    }

    @Test("verifying against the dummy never succeeds")
    func dummy() {
        #expect(!cheap.verifyAgainstDummy(Redacted("anything")))
        #expect(!cheap.verifyAgainstDummy(Redacted("")))
    }

    @Test("malformed or abusive PHC strings give false without crashing", arguments: [
        "",
        "$",
        "$$$$$",
        "argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2x$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=18$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=019$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$t=2,m=65536,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=-1,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=99999999999,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=4294967295,t=4294967295,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=0,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=0$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1,x=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ=$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc$",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFh!dXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPd",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$" + String(repeating: "A", count: 2000),
        "$bcrypt$2b$10$abcdefghijklmnopqrstuv",
    ])
    func malformed(phc: String) {
        #expect(!cheap.verify(Redacted("password"), against: phc))
        #expect(cheap.needsRehash(phc))
    }

    @Test("needsRehash is true for weaker costs, other variants or versions, and false at or above the configured costs")
    func needsRehash() throws {
        let hasher = PasswordHasher(parameters: try Argon2Parameters(memoryKiB: 1024, iterations: 2, parallelism: 2))
        let salt = "c29tZXNhbHRzb21lc2FsdA"  // 16 bytes
        let tag = "CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"  // 32 bytes
        #expect(!hasher.needsRehash("$argon2id$v=19$m=1024,t=2,p=2$\(salt)$\(tag)"))
        #expect(!hasher.needsRehash("$argon2id$v=19$m=65536,t=3,p=4$\(salt)$\(tag)"))
        #expect(hasher.needsRehash("$argon2id$v=19$m=512,t=2,p=2$\(salt)$\(tag)"))
        #expect(hasher.needsRehash("$argon2id$v=19$m=1024,t=1,p=2$\(salt)$\(tag)"))
        #expect(hasher.needsRehash("$argon2id$v=19$m=1024,t=2,p=1$\(salt)$\(tag)"))
        #expect(hasher.needsRehash("$argon2i$v=19$m=1024,t=2,p=2$\(salt)$\(tag)"))
        #expect(hasher.needsRehash("$argon2id$v=16$m=1024,t=2,p=2$\(salt)$\(tag)"))
        #expect(hasher.needsRehash("$argon2id$v=19$m=1024,t=2,p=2$c29tZXNhbHQ$\(tag)"))  // 8-byte salt
        #expect(hasher.needsRehash("$argon2id$v=19$m=1024,t=2,p=2$\(salt)$CTFhFdXPJO1aFaMa"))  // 12-byte tag
    }

    @Test("a node-argon2 hash with associated data (data=) verifies only with that data")
    func associatedData() throws {
        let parameters = try Argon2Parameters(memoryKiB: 256, iterations: 1, parallelism: 1)
        let salt = Data("saltsaltsaltsalt".utf8)
        let tag = try LibArgon2.tag(
            .argon2id, password: Data("pw with ad".utf8), salt: salt,
            associatedData: Data("context".utf8), parameters: parameters, tagLength: PasswordHasher.tagLength)
        let prefix = "$argon2id$v=19$m=256,t=1,p=1"
        let suffix = "$c2FsdHNhbHRzYWx0c2FsdA$" + tag.base64EncodedString().replacingOccurrences(of: "=", with: "")
        #expect(cheap.verify(Redacted("pw with ad"), against: prefix + ",data=Y29udGV4dA" + suffix))
        #expect(!cheap.verify(Redacted("pw with ad"), against: prefix + suffix))
    }
}
