import Foundation
import LatchkeyJOSE
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyStorage
import LatchkeyRedis
import LatchkeyMail
import LatchkeyWeb
import LatchkeyPasswordStrength
import LatchkeyServer
import Synchronization
import Testing

@Suite struct SigningKeyRingTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-keys-\(UUID().uuidString)")
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func ring(now: Date) throws -> SigningKeyRing {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try SigningKeyRing(file: directory.appendingPathComponent("keys.json"), maximumTokenLifetime: 600, now: now)
    }

    @Test("the first start creates one ES256 key in a 0600 file; a restart loads the same key")
    func createsAndReloads() throws {
        let first = try ring(now: start)
        let path = directory.appendingPathComponent("keys.json").path
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(first.activeKey.algorithm == .es256)
        #expect(try ring(now: start).activeKey.kid == first.activeKey.kid)
    }

    @Test("the published set has public parts only, and verifies what the active key signs")
    func publishesPublicKeys() throws {
        let keys = try ring(now: start)
        let set = keys.publishedKeys(now: start)
        #expect(set.keys.count == 1)
        #expect(set.keys.allSatisfy { $0.d == nil })
        let encoded = String(decoding: try JSONEncoder().encode(set), as: UTF8.self)
        #expect(!encoded.contains("\"d\""))
        let token = try JWS.sign(header: JWSHeader(alg: .es256), payload: Data("{}".utf8), key: keys.activeKey)
        let verified = try JWS.verify(compact: token, keys: try set.keys.map { try VerificationKey(jwk: $0) })
        #expect(verified.kid == keys.activeKey.kid)
    }

    @Test("after a rotation the old key stays published until its tokens have expired")
    func rotation() throws {
        let keys = try ring(now: start)
        let old = keys.activeKey.kid
        let new = try keys.rotate(now: start.addingTimeInterval(60))
        #expect(keys.activeKey.kid == new && new != old)
        #expect(Set(keys.publishedKeys(now: start.addingTimeInterval(659)).keys.compactMap(\.kid)) == [old, new])
        #expect(keys.publishedKeys(now: start.addingTimeInterval(660)).keys.compactMap(\.kid) == [new])
        #expect(Set(keys.verificationKeys(now: start.addingTimeInterval(659)).map(\.kid)) == [old, new])
        #expect(keys.verificationKeys(now: start.addingTimeInterval(660)).map(\.kid) == [new])
        // The rotation survives a restart.
        #expect(try ring(now: start.addingTimeInterval(61)).activeKey.kid == new)
    }

    @Test("a ring sharing the file picks up another process's rotation; an unchanged file changes nothing")
    func reload() throws {
        let server = try ring(now: start)
        let cli = try ring(now: start)
        #expect(cli.activeKey.kid == server.activeKey.kid)
        #expect(try server.reloadIfChanged() == false)
        let new = try cli.rotate(now: start.addingTimeInterval(60))
        #expect(try server.reloadIfChanged() == true)
        #expect(server.activeKey.kid == new)
        #expect(Set(server.verificationKeys(now: start.addingTimeInterval(61)).map(\.kid)) == Set(cli.describe().map(\.kid)))
    }

    @Test("of instances starting at once on a missing shared file, all end up with the same key")
    func racingFirstStart() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("shared.json")
        let kids = Mutex<Set<String>>([])
        runOnThreads(8) { _ in
            if let ring = try? SigningKeyRing(file: file, maximumTokenLifetime: 600, now: start) {
                kids.withLock { _ = $0.insert(ring.activeKey.kid) }
            }
        }
        #expect(kids.withLock { $0.count } == 1)
        #expect(try SigningKeyRing(file: file, maximumTokenLifetime: 600, now: start).activeKey.kid == kids.withLock { $0.first })
    }

    @Test("a damaged key file stops start-up with a clear error")
    func damagedFile() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: directory.appendingPathComponent("keys.json"))
        let error = #expect(throws: LatchkeyError.self) { try ring(now: start) }
        #expect(error?.code == .invalidConfiguration)
    }
}
