import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn
import Testing

/// Responses real browsers and authenticators made, as duo-labs/py_webauthn's tests keep
/// them (tests/test_verify_registration_response.py, tests/test_verify_authentication_response.py;
/// relying party `localhost` at `http://localhost:5000`): the verifier accepts them where
/// they meet Latchkey's rules, and refuses them at the step where they do not (some were
/// made without user verification, which Latchkey requires).
@Suite struct RealWorldVectorTests {
    static let relyingParty = RelyingParty(id: "localhost", origins: ["https://foo.bar", "http://localhost:5000"])

    private static func bytes(_ text: String) throws -> Data {
        try #require(Base64URL.decode(text))
    }

    /// A stored credential of `publicKey` (base64url COSE) with `signCount`, device-bound.
    private static func record(id: String, publicKey: String, algorithm: COSEAlgorithm, signCount: UInt32) throws -> CredentialRecord {
        CredentialRecord(
            id: try bytes(id), publicKey: try bytes(publicKey), algorithm: algorithm, signCount: signCount, backupEligible: false,
            backupState: false, userVerifiedAtRegistration: true, transports: [], aaguid: Data(count: 16), attestationFormat: "none")
    }

    private static func assertion(_ json: String) throws -> AuthenticationResponse {
        try JSONDecoder().decode(AuthenticationResponse.self, from: Data(json.utf8))
    }

    @Test("a browser's `none` registration (ES256, UV) verifies; its record holds the key and counter")
    func noneRegistration() throws {
        let json = #"""
            {"id": "9y1xA8Tmg1FEmT-c7_fvWZ_uoTuoih3OvR45_oAK-cwHWhAbXrl2q62iLVTjiyEZ7O7n-CROOY494k7Q3xrs_w",
             "rawId": "9y1xA8Tmg1FEmT-c7_fvWZ_uoTuoih3OvR45_oAK-cwHWhAbXrl2q62iLVTjiyEZ7O7n-CROOY494k7Q3xrs_w",
             "response": {
               "attestationObject": "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVjESZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NFAAAAFwAAAAAAAAAAAAAAAAAAAAAAQPctcQPE5oNRRJk_nO_371mf7qE7qIodzr0eOf6ACvnMB1oQG165dqutoi1U44shGezu5_gkTjmOPeJO0N8a7P-lAQIDJiABIVggSFbUJF-42Ug3pdM8rDRFu_N5oiVEysPDB6n66r_7dZAiWCDUVnB39FlGypL-qAoIO9xWHtJygo2jfDmHl-_eKFRLDA",
               "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiVHdON240V1R5R0tMYzRaWS1xR3NGcUtuSE00bmdscXN5VjBJQ0psTjJUTzlYaVJ5RnRya2FEd1V2c3FsLWdrTEpYUDZmbkYxTWxyWjUzTW00UjdDdnciLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9"},
             "type": "public-key", "clientExtensionResults": {}, "transports": ["nfc", "usb"]}
            """#
        let response = try JSONDecoder().decode(RegistrationResponse.self, from: Data(json.utf8))
        let challenge = try Self.bytes("TwN7n4WTyGKLc4ZY-qGsFqKnHM4nglqsyV0ICJlN2TO9XiRyFtrkaDwUvsql-gkLJXP6fnF1MlrZ53Mm4R7Cvw")
        let record = try RegistrationCeremony.verify(response, challenge: challenge, relyingParty: Self.relyingParty)
        #expect(record.algorithm == .es256)
        #expect(record.signCount == 23)
        #expect(record.id.count == 64)
        #expect(!record.backupEligible)
        #expect(throws: WebAuthnError.self) {
            try RegistrationCeremony.verify(
                response, challenge: challenge, relyingParty: RelyingParty(id: "example.com", origins: ["http://localhost:5000"]))
        }
    }

    @Test("a security key's RS256 sign-in with a user handle verifies and advances the counter from 0 to 1")
    func rs256Assertion() throws {
        let response = try Self.assertion(#"""
            {"id": "ZoIKP1JQvKdrYj1bTUPJ2eTUsbLeFkv-X5xJQNr4k6s", "rawId": "ZoIKP1JQvKdrYj1bTUPJ2eTUsbLeFkv-X5xJQNr4k6s",
             "response": {
               "authenticatorData": "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
               "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiaVBtQWkxUHAxWEw2b0FncTNQV1p0WlBuWmExekZVRG9HYmFRMF9LdlZHMWxGMnMzUnRfM280dVN6Y2N5MHRtY1RJcFRUVDRCVTFULUk0bWFhdm5kalEiLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9",
               "signature": "iOHKX3erU5_OYP_r_9HLZ-CexCE4bQRrxM8WmuoKTDdhAnZSeTP0sjECjvjfeS8MJzN1ArmvV0H0C3yy_FdRFfcpUPZzdZ7bBcmPh1XPdxRwY747OrIzcTLTFQUPdn1U-izCZtP_78VGw9pCpdMsv4CUzZdJbEcRtQuRS03qUjqDaovoJhOqEBmxJn9Wu8tBi_Qx7A33RbYjlfyLm_EDqimzDZhyietyop6XUcpKarKqVH0M6mMrM5zTjp8xf3W7odFCadXEJg-ERZqFM0-9Uup6kJNLbr6C5J4NDYmSm3HCSA6lp2iEiMPKU8Ii7QZ61kybXLxsX4w4Dm3fOLjmDw",
               "userHandle": "T1RWa1l6VXdPRFV0WW1NNVlTMDBOVEkxTFRnd056Z3RabVZpWVdZNFpEVm1ZMk5p"},
             "type": "public-key", "clientExtensionResults": {}}
            """#)
        let record = try Self.record(
            id: "ZoIKP1JQvKdrYj1bTUPJ2eTUsbLeFkv-X5xJQNr4k6s",
            publicKey: "pAEDAzkBACBZAQDfV20epzvQP-HtcdDpX-cGzdOxy73WQEvsU7Dnr9UWJophEfpngouvgnRLXaEUn_d8HGkp_HIx8rrpkx4BVs6X_B6ZjhLlezjIdJbLbVeb92BaEsmNn1HW2N9Xj2QM8cH-yx28_vCjf82ahQ9gyAr552Bn96G22n8jqFRQKdVpO-f-bvpvaP3IQ9F5LCX7CUaxptgbog1SFO6FI6ob5SlVVB00lVXsaYg8cIDZxCkkENkGiFPgwEaZ7995SCbiyCpUJbMqToLMgojPkAhWeyktu7TlK6UBWdJMHc3FPAIs0lH_2_2hKS-mGI1uZAFVAfW1X-mzKL0czUm2P1UlUox7IUMBAAE",
            algorithm: .rs256, signCount: 0)
        let result = try AuthenticationCeremony.verify(
            response, challenge: try Self.bytes("iPmAi1Pp1XL6oAgq3PWZtZPnZa1zFUDoGbaQ0_KvVG1lF2s3Rt_3o4uSzccy0tmcTIpTTT4BU1T-I4maavndjQ"),
            relyingParty: Self.relyingParty, credential: record, userHandle: try #require(response.userHandle),
            identification: .discoverable)
        #expect(result.signCount == 1 && result.signCountSignal == .advanced)
    }

    @Test("a discoverable ES256 sign-in verifies at the second of two origins, its counter past 1.6 billion")
    func es256Assertion() throws {
        let response = try Self.assertion(#"""
            {"id": "AXmOjWWZH67pgl5_gAbKVBqoL2dyHHGEWZLspIsCwULG0hZ3HyuGgvkaRcSOLq9W72XtegcvFYXIdlafrilbtVnx2Q14gNbfSQQP2sgNEAif4MjHtGpeVB0BfFawCs85Y3XY_j4sxthVnyTY_Q",
             "rawId": "AXmOjWWZH67pgl5_gAbKVBqoL2dyHHGEWZLspIsCwULG0hZ3HyuGgvkaRcSOLq9W72XtegcvFYXIdlafrilbtVnx2Q14gNbfSQQP2sgNEAif4MjHtGpeVB0BfFawCs85Y3XY_j4sxthVnyTY_Q",
             "response": {
               "authenticatorData": "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFYN-Mog",
               "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiNnpyU1JYOEN4d1BTWEVBclh5WEwydHBiNnJCN1N0YXIwckxWSWo1cnZmNzRtWktGNWlyNzE1WG1nejV0QV9HeUhleE40b1hmclE4ODlBclZDTGFSZEEiLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9",
               "signature": "MEUCIQDBqeI274exaKWGQz37g7yo1--TVcZSCcYVftZ1AnEJkQIgNw-nlx-_U9rVfFfER8oX6BlYZTuPFyGaL_wCDY23s0E",
               "userHandle": "TldNMFlqYzNOVFF0WW1NNE5DMDBaakprTFRrME9EVXROR05rTnpreVkyTTROVEUz"},
             "type": "public-key", "clientExtensionResults": {}}
            """#)
        let record = try Self.record(
            id: "AXmOjWWZH67pgl5_gAbKVBqoL2dyHHGEWZLspIsCwULG0hZ3HyuGgvkaRcSOLq9W72XtegcvFYXIdlafrilbtVnx2Q14gNbfSQQP2sgNEAif4MjHtGpeVB0BfFawCs85Y3XY_j4sxthVnyTY_Q",
            publicKey: "pQECAyYgASFYIFm1Py-FzzFOuwXbRbTr95SiDxuB1BkZsEEJxFhquzqkIlggL1U1T713Jo_2muzhXvpbwRNdoAs8CYK6PflvY1MBdCI",
            algorithm: .es256, signCount: 1_625_263_263)
        let challenge = try Self.bytes("6zrSRX8CxwPSXEArXyXL2tpb6rB7Star0rLVIj5rvf74mZKF5ir715Xmgz5tA_GyHexN4oXfrQ889ArVCLaRdA")
        let result = try AuthenticationCeremony.verify(
            response, challenge: challenge, relyingParty: Self.relyingParty, credential: record,
            userHandle: try #require(response.userHandle), identification: .discoverable)
        #expect(result.signCountSignal == .advanced && result.signCount == 0x60DF_8CA2)
        // The same response against a record of a synced credential: BE changed.
        let synced = CredentialRecord(
            id: record.id, publicKey: record.publicKey, algorithm: .es256, signCount: 0, backupEligible: true, backupState: true,
            userVerifiedAtRegistration: true, transports: [], aaguid: Data(count: 16), attestationFormat: "none")
        #expect(throws: WebAuthnError.self) {
            try AuthenticationCeremony.verify(
                response, challenge: challenge, relyingParty: Self.relyingParty, credential: synced,
                userHandle: try #require(response.userHandle), identification: .discoverable)
        }
    }

    @Test("sign-ins made without user verification are refused at that step (an EdDSA and an older ES256 one)")
    func withoutUserVerification() throws {
        let edDSA = try Self.assertion(#"""
            {"id": "fq9Nj0nS24B5y6Pkw_h3-9GEAEA3-0LBPxE2zvTdLjDqtSeCSNYFe9VMRueSpAZxT3YDc6L1lWXdQNwI-sVNYrefEcRR1Nsb_0jpHE955WEtFud2xxZg3MvoLMxHLet63i5tajd1fHtP7I-00D6cehM8ZWlLp2T3s9lfZgVIFcA",
             "response": {
               "authenticatorData": "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MBAAAABw",
               "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiZVo0ZWVBM080ank1Rkl6cURhU0o2SkROR3UwYkJjNXpJMURqUV9rTHNvMVdOcWtHNms1bUNZZjFkdFFoVlVpQldaV2xaa3pSNU1GZWVXQ3BKUlVOWHciLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9",
               "signature": "RRWV8mYDRvK7YdQgdtZD4pJ2dh1D_IWZ_D6jsZo6FHJBoenbj0CVT5nA20vUzlRhN4R6dOEUHmUwP1F8eRBhBg"},
             "type": "public-key", "clientExtensionResults": {}}
            """#)
        let edDSARecord = try Self.record(
            id: "fq9Nj0nS24B5y6Pkw_h3-9GEAEA3-0LBPxE2zvTdLjDqtSeCSNYFe9VMRueSpAZxT3YDc6L1lWXdQNwI-sVNYrefEcRR1Nsb_0jpHE955WEtFud2xxZg3MvoLMxHLet63i5tajd1fHtP7I-00D6cehM8ZWlLp2T3s9lfZgVIFcA",
            publicKey: "pAEBAycgBiFYIMz6_SUFLiDid2Yhlq0YboyJ-CDrIrNpkPUGmJp4D3Dp", algorithm: .edDSA, signCount: 3)
        // An older Chrome's client data: members in another order, `hashAlgorithm` and
        // `clientExtensions` besides; read all the same.
        let es256 = try Self.assertion(#"""
            {"id": "EDx9FfAbp4obx6oll2oC4-CZuDidRVV4gZhxC529ytlnqHyqCStDUwfNdm1SNHAe3X5KvueWQdAX3x9R1a2b9Q",
             "response": {
               "authenticatorData": "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MBAAAATg",
               "clientDataJSON": "eyJjaGFsbGVuZ2UiOiJ4aTMwR1BHQUZZUnhWRHBZMXNNMTBEYUx6VlFHNjZudi1fN1JVYXpIMHZJMll2RzhMWWdERW52TjVmWlpOVnV2RUR1TWk5dGUzVkxxYjQyTjBma0xHQSIsImNsaWVudEV4dGVuc2lvbnMiOnt9LCJoYXNoQWxnb3JpdGhtIjoiU0hBLTI1NiIsIm9yaWdpbiI6Imh0dHA6Ly9sb2NhbGhvc3Q6NTAwMCIsInR5cGUiOiJ3ZWJhdXRobi5nZXQifQ",
               "signature": "MEUCIGisVZOBapCWbnJJvjelIzwpixxIwkjCCb5aCHafQu68AiEA88v-2pJNNApPFwAKFiNuf82-2hBxYW5kGwVweeoxCwo"},
             "type": "public-key", "clientExtensionResults": {}}
            """#)
        let es256Record = try Self.record(
            id: "EDx9FfAbp4obx6oll2oC4-CZuDidRVV4gZhxC529ytlnqHyqCStDUwfNdm1SNHAe3X5KvueWQdAX3x9R1a2b9Q",
            publicKey: "pQECAyYgASFYIIeDTe-gN8A-zQclHoRnGFWN8ehM1b7yAsa8I8KIvmplIlgg4nFGT5px8o6gpPZZhO01wdy9crDSA_Ngtkx0vGpvPHI",
            algorithm: .es256, signCount: 77)
        for (response, record, challenge) in [
            (edDSA, edDSARecord, "eZ4eeA3O4jy5FIzqDaSJ6JDNGu0bBc5zI1DjQ_kLso1WNqkG6k5mCYf1dtQhVUiBWZWlZkzR5MFeeWCpJRUNXw"),
            (es256, es256Record, "xi30GPGAFYRxVDpY1sM10DaLzVQG66nv-_7RUazH0vI2YvG8LYgDEnvN5fZZNVuvEDuMi9te3VLqb42N0fkLGA"),
        ] {
            let challenge = try Self.bytes(challenge)
            let code = refusal {
                try AuthenticationCeremony.verify(
                    response, challenge: challenge, relyingParty: Self.relyingParty, credential: record,
                    userHandle: Data([1]), identification: .identified)
            }
            #expect(code == .userNotVerified)
        }
    }
}
