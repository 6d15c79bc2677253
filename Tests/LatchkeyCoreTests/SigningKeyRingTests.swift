import Foundation
import LatchkeyCrypto
import LatchkeyJOSE
import LatchkeyCore
import Synchronization
import LatchkeyTestSupport
import LatchkeyOAuthTestSupport
import Testing

@Suite struct SigningKeyRingTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-keys-\(UUID().uuidString)")
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func ring(now: Date) throws -> SigningKeyRing {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try SigningKeyRing(file: directory.appendingPathComponent("keys.json"), maximumTokenLifetime: 600, now: now)
    }

    /// The kids of `ring`'s active keys, by algorithm.
    func activeKids(_ ring: SigningKeyRing) -> [JWSAlgorithm: String] {
        Dictionary(uniqueKeysWithValues: SigningKeyRing.algorithms.map { ($0, ring.activeKey(for: $0).kid) })
    }

    @Test("the first start creates an RS256 (3072-bit), an ES256 and an EdDSA key in a 0600 file; a restart loads the same keys")
    func createsAndReloads() throws {
        let first = try ring(now: start)
        let path = directory.appendingPathComponent("keys.json").path
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(first.activeKey.algorithm == .es256)
        for algorithm in SigningKeyRing.algorithms { #expect(first.activeKey(for: algorithm).algorithm == algorithm) }
        let rsa = first.activeKey(for: .rs256).publicJWK
        #expect(Base64URL.decode(try #require(rsa.n))?.count == 384)
        #expect(activeKids(try ring(now: start)) == activeKids(first))
    }

    @Test("the published set has public parts only, one key per algorithm, kid = RFC 7638 thumbprint, and verifies what each active key signs")
    func publishesPublicKeys() throws {
        let keys = try ring(now: start)
        let set = try keys.servedKeySet(now: start)
        #expect(set.keys.compactMap(\.alg).sorted() == ["ES256", "EdDSA", "RS256"])
        #expect(set.keys.allSatisfy { $0.d == nil && $0.p == nil && $0.q == nil && $0.dp == nil && $0.dq == nil && $0.qi == nil })
        #expect(try set.keys.allSatisfy { try $0.kid == $0.thumbprint() })
        // The bytes served: no private member, and slashes not escaped.
        let encoded = String(decoding: try keys.publishedKeyDocument(now: start), as: UTF8.self)
        for member in ["d", "p", "q", "dp", "dq", "qi"] { #expect(!encoded.contains("\"\(member)\"")) }
        #expect(!encoded.contains("\\/"))
        let verifiers = try set.keys.map { try VerificationKey(jwk: $0) }
        for algorithm in SigningKeyRing.algorithms {
            let key = keys.activeKey(for: algorithm)
            let token = try JWS.sign(header: JWSHeader(alg: algorithm), payload: Data("{}".utf8), key: key)
            #expect(try JWS.verify(compact: token, keys: verifiers).kid == key.kid)
        }
    }

    @Test("access tokens verify only with ES256 keys: the RS256 and EdDSA keys are for ID tokens")
    func accessTokenKeysAreES256() throws {
        let keys = try ring(now: start)
        #expect(keys.verificationKeys(now: start).map(\.kid) == [keys.activeKey.kid])
        let byRSA = try JWS.sign(header: JWSHeader(alg: .rs256), payload: Data("{}".utf8), key: keys.activeKey(for: .rs256))
        #expect(throws: JOSEError.self) { try JWS.verify(compact: byRSA, keys: keys.verificationKeys(now: start)) }
    }

    @Test("after a rotation every algorithm has a new key and the old ones stay published until their tokens have expired")
    func rotation() throws {
        let keys = try ring(now: start)
        let old = activeKids(keys)
        let rotated = try keys.rotate(now: start.addingTimeInterval(60))
        #expect(rotated.map(\.algorithm) == SigningKeyRing.algorithms)
        let new = activeKids(keys)
        #expect(Set(rotated.map(\.kid)) == Set(new.values))
        #expect(Set(new.values).isDisjoint(with: old.values))
        #expect(Set(try keys.servedKeySet(now: start.addingTimeInterval(659)).keys.compactMap(\.kid)) == Set(old.values).union(new.values))
        #expect(Set(try keys.servedKeySet(now: start.addingTimeInterval(660)).keys.compactMap(\.kid)) == Set(new.values))
        // The document is kept between changes, not past them: a clock set back publishes the old keys again.
        #expect(Set(try keys.servedKeySet(now: start.addingTimeInterval(659)).keys.compactMap(\.kid)) == Set(old.values).union(new.values))
        #expect(Set(keys.verificationKeys(now: start.addingTimeInterval(659)).map(\.kid)) == [old[.es256], new[.es256]])
        #expect(keys.verificationKeys(now: start.addingTimeInterval(660)).map(\.kid) == [new[.es256]])
        // The rotation survives a restart.
        #expect(activeKids(try ring(now: start.addingTimeInterval(61))) == new)
    }

    @Test("a ring sharing the file picks up another process's rotation; an unchanged file changes nothing")
    func reload() throws {
        let server = try ring(now: start)
        let cli = try ring(now: start)
        #expect(activeKids(cli) == activeKids(server))
        #expect(try server.reloadIfChanged() == false)
        try cli.rotate(now: start.addingTimeInterval(60))
        #expect(try server.reloadIfChanged() == true)
        #expect(activeKids(server) == activeKids(cli))
        #expect(server.describe().map(\.kid) == cli.describe().map(\.kid))
    }

    @Test("two rotations by rings that loaded the file before either rotated both survive (the file is re-read under its lock)")
    func concurrentRotations() throws {
        let first = try ring(now: start)
        let second = try ring(now: start)
        let one = try first.rotate(now: start.addingTimeInterval(10))
        let two = try second.rotate(now: start.addingTimeInterval(20))
        let stored = try ring(now: start.addingTimeInterval(21)).describe()
        #expect(Set(one.map(\.kid) + two.map(\.kid)).isSubset(of: Set(stored.map(\.kid))))
        #expect(stored.filter { $0.retiredAt == nil }.map(\.kid).sorted() == two.map(\.kid).sorted())
    }

    @Test("a key file from before RS256 and EdDSA were offered gets those keys added once, keeping its ES256 key")
    func upgradesAnES256OnlyFile() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("keys.json")
        let es256 = try SigningKey.generate(.es256)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        struct OldEntry: Encodable { let jwk: JWK; let createdAt: Date }
        try encoder.encode([OldEntry(jwk: es256.privateJWK, createdAt: start)]).write(to: file)
        let kids = Mutex<Set<[JWSAlgorithm: String]>>([])
        runOnThreads(4) { _ in
            if let ring = try? SigningKeyRing(file: file, maximumTokenLifetime: 600, now: start) {
                kids.withLock { _ = $0.insert(activeKids(ring)) }
            }
        }
        let upgraded = try #require(kids.withLock { $0.count == 1 ? $0.first : nil })
        #expect(upgraded[.es256] == es256.kid)
        let stored = try SigningKeyRing(file: file, maximumTokenLifetime: 600, now: start)
        #expect(activeKids(stored) == upgraded)
        #expect(stored.describe().count == 3)
    }

    @Test("of instances starting at once on a missing shared file, all end up with the same keys")
    func racingFirstStart() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("shared.json")
        let kids = Mutex<Set<[JWSAlgorithm: String]>>([])
        runOnThreads(4) { _ in
            if let ring = try? SigningKeyRing(file: file, maximumTokenLifetime: 600, now: start) {
                kids.withLock { _ = $0.insert(activeKids(ring)) }
            }
        }
        #expect(kids.withLock { $0.count } == 1)
        #expect(activeKids(try SigningKeyRing(file: file, maximumTokenLifetime: 600, now: start)) == kids.withLock { $0.first })
    }

    @Test("a damaged key file stops start-up with a clear error")
    func damagedFile() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: directory.appendingPathComponent("keys.json"))
        let error = #expect(throws: LatchkeyError.self) { try ring(now: start) }
        #expect(error?.code == .invalidConfiguration)
    }
}
