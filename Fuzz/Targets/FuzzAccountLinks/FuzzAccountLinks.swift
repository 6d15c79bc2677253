import Foundation
import LatchkeyClient
import LatchkeyFuzzSupport

// The SDK's mailed-link parsers (AccountLinkParser; ResetLinkParser over it): the reset,
// sign-up confirmation and address change (confirm, undo) links an app is opened with.
// Properties: an accepted link has a token of 16 to 512 characters of base64url parts joined
// by dots, sent in its URL; its kind is the one kind(of:) names; the reset parser accepts
// exactly the reset links the account parser accepts, with the same token; every refusal is
// invalid_link with one reason.

private let accounts = AccountLinkParser(
    universalLinkHosts: ["auth.example.com", "127.0.0.1"], customSchemes: ["com.example.app"], allowsInsecureLoopback: true)
private let resets = ResetLinkParser(
    universalLinkHosts: ["auth.example.com", "127.0.0.1"], customSchemes: ["com.example.app"], allowsInsecureLoopback: true)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAccountLinks(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).lossyText
    guard let url = URL(string: text) else { return 0 }
    let reset = try? resets.parse(url)
    do {
        let link = try accounts.parse(url)
        let token = link.token.exposed
        expect(AccountLinkParser.plausibleTokenLengths.contains(token.utf8.count), "a token of an implausible length")
        expect(
            token.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
                !part.isEmpty && part.utf8.allSatisfy { byte in
                    byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || (0x30...0x39).contains(byte)
                        || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                }
            },
            "a token that is not base64url parts")
        expect(url.absoluteString.contains(token), "a token that is not in the link")
        expect(accounts.kind(of: url) == link.kind, "kind(of:) names another kind")
        expect((reset?.token.exposed == token) == (link.kind == .resetPassword), "the reset parser disagrees")
    } catch let error as LatchkeyClientError {
        expect(error.code == .invalidLink && error.reasons.count == 1, "a refusal that is not invalid_link with one reason")
        expect(reset == nil, "the reset parser accepted a link the account parser refused")
    } catch {
        expect(false, "AccountLinkParser threw \(type(of: error))")
    }
    return 0
}
