import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// The W3C JSON form of both responses: decoded with every member's limit, refused with a
/// WebAuthn code (never a DecodingError) when wrong.
@Suite struct ResponseJSONTests {
    let authenticator = SoftwareAuthenticator(algorithm: .edDSA)

    /// `json` with `change` applied to its object form.
    private func changed(_ json: Data, _ change: (inout [String: Any]) -> Void) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    private func code<Response: Decodable>(_ type: Response.Type, _ json: Data) -> WebAuthnError.Code? {
        refusal { try JSONDecoder().decode(Response.self, from: json) }
    }

    @Test("both responses round-trip through their JSON form")
    func roundTrip() throws {
        let registration = authenticator.register(.init(challenge: Data([1, 2, 3])))
        let decoded = try JSONDecoder().decode(RegistrationResponse.self, from: registration.json)
        #expect(decoded.credentialID == registration.credentialID)
        #expect(decoded.attestationObject == registration.attestationObject)
        #expect(decoded.clientDataJSON == registration.clientDataJSON)
        #expect(decoded.transports == ["internal", "hybrid"])
        let assertion = authenticator.authenticate(.init(challenge: Data([1, 2, 3])))
        let decodedAssertion = try JSONDecoder().decode(AuthenticationResponse.self, from: assertion.json)
        #expect(decodedAssertion.signature == assertion.signature)
        #expect(decodedAssertion.userHandle == authenticator.userHandle)
    }

    @Test("faults in a registration's JSON are refused with their codes")
    func registrationFaults() throws {
        let json = authenticator.register(.init(challenge: Data([1]))).json
        func response(_ change: @escaping (inout [String: Any]) -> Void) throws -> Data {
            try changed(json) { object in
                var response = object["response"] as! [String: Any]
                change(&response)
                object["response"] = response
            }
        }
        #expect(code(RegistrationResponse.self, try changed(json) { $0["type"] = "password" }) == .malformedResponse)
        #expect(code(RegistrationResponse.self, try changed(json) { $0["rawId"] = Base64URL.encode(Data([9])) }) == .credentialIDMismatch)
        #expect(code(RegistrationResponse.self, try changed(json) { $0["id"] = (($0["id"] as! String) + "=") }) == .malformedResponse)
        #expect(code(RegistrationResponse.self, try changed(json) { $0["id"] = "" }) == .credentialIDTooLong)
        let longID = Base64URL.encode(Data(count: 1024))
        #expect(code(RegistrationResponse.self, try changed(json) { $0["id"] = longID; $0["rawId"] = longID }) == .credentialIDTooLong)
        #expect(code(RegistrationResponse.self, try changed(json) { $0["response"] = nil }) == .malformedResponse)
        #expect(code(RegistrationResponse.self, try response { $0["clientDataJSON"] = 5 }) == .malformedResponse)
        #expect(code(RegistrationResponse.self, try response { $0["clientDataJSON"] = "a+b/" }) == .malformedResponse)
        #expect(code(RegistrationResponse.self, try response { $0["attestationObject"] = Base64URL.encode(Data(count: 16 * 1024 + 1)) })
            == .responseTooLarge)
        #expect(code(RegistrationResponse.self, try response { $0["transports"] = ["usb", "Not A Transport"] }) == .malformedResponse)
        #expect(code(RegistrationResponse.self, try response { $0["transports"] = Array(repeating: "usb", count: 9) }) == .malformedResponse)
        #expect(code(RegistrationResponse.self, try response { $0["transports"] = nil }) == nil)
        #expect(code(RegistrationResponse.self, Data("[]".utf8)) == .malformedResponse)
    }

    @Test("faults in an assertion's JSON are refused with their codes; an empty user handle reads as none")
    func assertionFaults() throws {
        let json = authenticator.authenticate(.init(challenge: Data([1]))).json
        func response(_ change: @escaping (inout [String: Any]) -> Void) throws -> Data {
            try changed(json) { object in
                var response = object["response"] as! [String: Any]
                change(&response)
                object["response"] = response
            }
        }
        #expect(code(AuthenticationResponse.self, try response { $0["signature"] = nil }) == .malformedResponse)
        #expect(code(AuthenticationResponse.self, try response { $0["signature"] = Base64URL.encode(Data(count: 1025)) }) == .responseTooLarge)
        #expect(code(AuthenticationResponse.self, try response { $0["userHandle"] = Base64URL.encode(Data(count: 65)) }) == .responseTooLarge)
        #expect(code(AuthenticationResponse.self, try response { $0["authenticatorData"] = Base64URL.encode(Data(count: 8 * 1024 + 1)) })
            == .responseTooLarge)
        let withoutHandle = try JSONDecoder().decode(AuthenticationResponse.self, from: try response { $0["userHandle"] = "" })
        #expect(withoutHandle.userHandle == nil)
    }
}
