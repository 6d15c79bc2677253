import Foundation
import LatchkeyCrypto
import LatchkeyJOSE
import LatchkeyCore
import LatchkeyTestSupport
import LatchkeyOAuthTestSupport
import Testing

/// `SigningKeyRing.revoke`, as `latchkey keys revoke` uses it for a key that may have leaked.
extension SigningKeyRingTests {
    func token(signedBy key: SigningKey) throws -> String {
        try JWS.sign(header: JWSHeader(alg: key.algorithm), payload: Data("{}".utf8), key: key)
    }

    @Test("revoking the active ES256 key puts a new one in its place: its tokens stop verifying, the key is no longer published, new tokens verify")
    func revokingTheActiveKey() throws {
        let keys = try ring(now: start)
        let leaked = keys.activeKey
        let issued = try token(signedBy: leaked)
        let (algorithm, replacement) = try keys.revoke(kid: leaked.kid, now: start.addingTimeInterval(1))
        #expect(algorithm == "ES256")
        let new = try #require(replacement)
        #expect(new.kid != leaked.kid && keys.activeKey.kid == new.kid)
        #expect(!(try keys.servedKeySet(now: start.addingTimeInterval(1)).keys.contains { $0.kid == leaked.kid }))
        #expect(throws: JOSEError.self) { try JWS.verify(compact: issued, keys: keys.verificationKeys(now: start.addingTimeInterval(1))) }
        #expect(try JWS.verify(compact: try token(signedBy: new), keys: keys.verificationKeys(now: start.addingTimeInterval(1))).kid == new.kid)
        // The other algorithms' keys are untouched.
        for other in SigningKeyRing.algorithms where other != .es256 {
            #expect(try keys.servedKeySet(now: start.addingTimeInterval(1)).keys.contains { $0.alg == other.rawValue })
        }
    }

    @Test("revoking a retired key removes it before its tokens would have expired, with no replacement; the active key stays")
    func revokingARetiredKey() throws {
        let keys = try ring(now: start)
        let retired = keys.activeKey
        let issued = try token(signedBy: retired)
        try keys.rotate(now: start.addingTimeInterval(10))
        let active = keys.activeKey
        #expect(try JWS.verify(compact: issued, keys: keys.verificationKeys(now: start.addingTimeInterval(20))).kid == retired.kid)
        let (_, replacement) = try keys.revoke(kid: retired.kid, now: start.addingTimeInterval(20))
        #expect(replacement == nil)
        #expect(keys.activeKey.kid == active.kid)
        #expect(throws: JOSEError.self) { try JWS.verify(compact: issued, keys: keys.verificationKeys(now: start.addingTimeInterval(20))) }
    }

    @Test("another ring sharing the file stops trusting the revoked key at its next reload; a restart never brings it back")
    func revocationReachesOtherInstances() throws {
        let server = try ring(now: start)
        let cli = try ring(now: start)
        let leaked = server.activeKey
        let issued = try token(signedBy: leaked)
        try cli.revoke(kid: leaked.kid, now: start.addingTimeInterval(1))
        #expect(try server.reloadIfChanged() == true)
        #expect(throws: JOSEError.self) { try JWS.verify(compact: issued, keys: server.verificationKeys(now: start.addingTimeInterval(1))) }
        #expect(!(try ring(now: start.addingTimeInterval(2)).describe().contains { $0.kid == leaked.kid }))
    }

    @Test("an unknown kid is refused with invalid_request and the file is not changed")
    func unknownKid() throws {
        let keys = try ring(now: start)
        let before = keys.describe().map(\.kid)
        let error = #expect(throws: LatchkeyError.self) { try keys.revoke(kid: "no-such-key", now: start) }
        #expect(error?.code == .invalidRequest)
        #expect(try ring(now: start).describe().map(\.kid) == before)
    }
}
