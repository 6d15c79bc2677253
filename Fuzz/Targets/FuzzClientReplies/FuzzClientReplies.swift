import Foundation
import LatchkeyClient
import LatchkeyFuzzSupport

// What the SDK reads from a server's replies: a token response (TokenResponse(json:)), the
// authorization server metadata (AuthorizationServerMetadata(json:expectedIssuer:)) and the
// ID token's claims (IDTokenClaims(idToken:)). Properties: a token response has a non-empty
// access token; metadata is accepted only for the expected issuer; an ID token is refused
// over 16 KiB and for alg none; every refusal is the SDK's own error.

private let issuer = URL(string: "https://auth.example.com")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientReplies(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    do {
        let response = try TokenResponse(json: input.data)
        expect(!response.accessToken.exposed.isEmpty, "a token response with an empty access token")
        if let idToken = response.idToken { _ = try? IDTokenClaims(idToken: idToken) }
    } catch {
        expect(error is LatchkeyClientError, "TokenResponse threw \(type(of: error))")
    }
    do {
        let metadata = try AuthorizationServerMetadata(json: input.data, expectedIssuer: issuer)
        expect(metadata.issuer == issuer, "metadata of another issuer was accepted")
    } catch {
        expect(error is LatchkeyClientError, "AuthorizationServerMetadata threw \(type(of: error))")
    }
    let token = input.lossyText
    do {
        _ = try IDTokenClaims(idToken: ClientSecret(token))
        expect(token.utf8.count <= 16 * 1024, "an ID token over 16 KiB was read")
    } catch let error as LatchkeyClientError {
        expect(error.code == .authorizationFailed, "IDTokenClaims threw \(error.code)")
    } catch {
        expect(false, "IDTokenClaims threw \(type(of: error))")
    }
    return 0
}
