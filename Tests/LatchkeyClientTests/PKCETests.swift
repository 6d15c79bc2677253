import LatchkeyClient
import Testing

@Suite struct PKCETests {
    @Test("the S256 challenge of the RFC 7636 Appendix B verifier is the RFC's challenge")
    func rfc7636Vector() throws {
        let pkce = try PKCE(verifier: ClientSecret("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.challengeMethod == "S256")
    }

    @Test("a generated verifier has the requested length, only unreserved characters and its own challenge",
          arguments: [43, 64, 128])
    func generatedVerifier(length: Int) throws {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let pkce = try PKCE(length: length)
        #expect(pkce.verifier.exposed.count == length)
        #expect(pkce.verifier.exposed.allSatisfy { unreserved.contains($0) })
        #expect(try PKCE(verifier: pkce.verifier).challenge == pkce.challenge)
        #expect(pkce.challenge.count == 43)
    }

    @Test("two generated verifiers differ")
    func verifiersDiffer() throws {
        #expect(try PKCE().verifier != PKCE().verifier)
    }

    @Test("verifier lengths outside 43–128 and reserved characters are refused", arguments: [
        String(repeating: "a", count: 42), String(repeating: "a", count: 129),
        String(repeating: "a", count: 42) + "/", String(repeating: "a", count: 42) + "é",
    ])
    func invalidVerifiers(verifier: String) {
        #expect(throws: LatchkeyClientError(.invalidConfiguration)) { try PKCE(verifier: ClientSecret(verifier)) }
    }

    @Test("generation refuses lengths outside 43–128", arguments: [0, 42, 129])
    func invalidLengths(length: Int) {
        #expect(throws: LatchkeyClientError(.invalidConfiguration)) { try PKCE(length: length) }
    }

    @Test("the verifier never appears in the pair's description")
    func verifierRedacted() throws {
        let pkce = try PKCE()
        #expect(!String(describing: pkce).contains(pkce.verifier.exposed))
        var dumped = ""
        dump(pkce, to: &dumped)
        #expect(!dumped.contains(pkce.verifier.exposed))
    }

    @Test("state and nonce are 43 base64url characters and fresh each time")
    func stateAndNonce() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let values = [AuthorizationRequestValues.makeState(), AuthorizationRequestValues.makeState(),
                      AuthorizationRequestValues.makeNonce(), AuthorizationRequestValues.makeNonce()]
        for value in values {
            #expect(value.count == 43)
            #expect(value.allSatisfy { alphabet.contains($0) })
        }
        #expect(Set(values).count == 4)
    }
}
