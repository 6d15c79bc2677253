import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

@Suite struct AccountLinkParserTests {
    static let token = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde"
    let parser = AccountLinkParser(universalLinkHosts: ["auth.example.com"], customSchemes: ["exampleapp"])

    @Test("each kind of mailed link is recognised by its path, as a universal or a custom-scheme link", arguments: [
        ("https://auth.example.com/reset-password#token=\(token)", AccountLink.Kind.resetPassword),
        ("https://auth.example.com/verify-email#token=\(token)", .verifyEmail),
        ("https://Auth.Example.com/verify-email/?token=\(token)", .verifyEmail),
        ("https://auth.example.com/confirm-email#token=\(token)", .confirmEmailChange),
        ("https://auth.example.com/undo-email-change#token=\(token)", .undoEmailChange),
        ("exampleapp://verify-email#token=\(token)", .verifyEmail),
        ("exampleapp:/confirm-email#token=\(token)", .confirmEmailChange),
        ("EXAMPLEAPP:///undo-email-change?token=\(token)", .undoEmailChange),
    ])
    func kinds(link: String, kind: AccountLink.Kind) throws {
        let url = try #require(URL(string: link))
        let parsed = try parser.parse(url)
        #expect(parsed.kind == kind)
        #expect(parser.kind(of: url) == kind)
        #expect(parsed.token.exposed == Self.token)
    }

    @Test("every kind has its server path and a stable name")
    func kindNames() {
        #expect(AccountLink.Kind.all.map(\.rawValue) == ["reset_password", "verify_email", "confirm_email_change", "undo_email_change"])
        #expect(AccountLink.Kind.all.map(\.defaultPath) == ["/reset-password", "/verify-email", "/confirm-email", "/undo-email-change"])
        #expect("\(AccountLink.Kind.verifyEmail)" == "verify_email")
    }

    @Test("links that are not the app's, or damaged ones, are rejected with one reason", arguments: [
        ("http://auth.example.com/verify-email#token=\(token)", "insecure_scheme"),
        ("ftp://auth.example.com/verify-email#token=\(token)", "wrong_scheme"),
        ("otherapp://verify-email#token=\(token)", "wrong_scheme"),
        ("https://evil.example.net/verify-email#token=\(token)", "wrong_host"),
        ("https:/verify-email#token=\(token)", "wrong_host"),
        ("https://user:pw@auth.example.com/verify-email#token=\(token)", "user_info"),
        ("https://auth.example.com/verify#token=\(token)", "wrong_path"),
        ("https://auth.example.com/verify-email//#token=\(token)", "wrong_path"),
        ("https://auth.example.com/users/register/verify-email?token=\(token)", "wrong_path"),
        ("exampleapp://verify-email:443#token=\(token)", "wrong_path"),
        ("https://auth.example.com/confirm-email", "missing_token"),
        ("https://auth.example.com/confirm-email#tok=\(token)", "missing_token"),
        ("https://auth.example.com/confirm-email#token=\(token.prefix(15))", "malformed_token"),
        ("https://auth.example.com/confirm-email#token=\(String(repeating: "A", count: 513))", "malformed_token"),
        ("https://auth.example.com/confirm-email#token=\(String(repeating: ".", count: 20))", "malformed_token"),
        ("https://auth.example.com/confirm-email#token=\(token)..x", "malformed_token"),
        ("https://auth.example.com/confirm-email#token=.\(token)", "malformed_token"),
        ("https://auth.example.com/confirm-email#token=\(token.dropLast())%41", "malformed_token"),
        ("https://auth.example.com/undo-email-change#token=\(token)&token=\(token)", "conflicting_tokens"),
        ("https://auth.example.com/undo-email-change?token=B\(token.dropFirst())#token=\(token)", "conflicting_tokens"),
    ])
    func rejects(link: String, reason: String) throws {
        let url = try #require(URL(string: link))
        #expect(throws: LatchkeyClientError(.invalidLink, reasons: [reason])) { try parser.parse(url) }
        // Only the app's own links, damaged, have a kind.
        let damaged: Set<String> = ["missing_token", "malformed_token", "conflicting_tokens"]
        #expect((parser.kind(of: url) != nil) == damaged.contains(reason))
    }

    @Test("an app's own link base for sign-ups is honoured, and a kind left out is not accepted")
    func customPaths() throws {
        let parser = AccountLinkParser(
            universalLinkHosts: ["app.example.com"], customSchemes: [],
            paths: [.verifyEmail: "welcome/", .resetPassword: "/reset-password"])
        #expect(try parser.parse(try #require(URL(string: "https://app.example.com/welcome#token=\(Self.token)"))).kind == .verifyEmail)
        #expect(throws: LatchkeyClientError(.invalidLink, reasons: ["wrong_path"])) {
            try parser.parse(try #require(URL(string: "https://app.example.com/verify-email#token=\(Self.token)")))
        }
        #expect(throws: LatchkeyClientError(.invalidLink, reasons: ["wrong_path"])) {
            try parser.parse(try #require(URL(string: "https://app.example.com/confirm-email#token=\(Self.token)")))
        }
    }

    @Test("two kinds given one path: the first in Kind.all's order takes it, whatever the dictionary's order")
    func sharedPath() throws {
        let parser = AccountLinkParser(
            universalLinkHosts: ["app.example.com"], customSchemes: [],
            paths: [.undoEmailChange: "/link", .verifyEmail: "/link", .confirmEmailChange: "/link"])
        #expect(try parser.parse(try #require(URL(string: "https://app.example.com/link#token=\(Self.token)"))).kind == .verifyEmail)
    }

    @Test("http is accepted only for a configured loopback host, and only when allowed")
    func loopback() throws {
        let local = AccountLinkParser(universalLinkHosts: ["127.0.0.1"], customSchemes: [], allowsInsecureLoopback: true)
        let link = try local.parse(try #require(URL(string: "http://127.0.0.1:8080/verify-email#token=\(Self.token)")))
        #expect(link.kind == .verifyEmail)
        #expect(throws: LatchkeyClientError(.invalidLink, reasons: ["wrong_host"])) {
            try local.parse(try #require(URL(string: "http://localhost:8080/verify-email#token=\(Self.token)")))
        }
        #expect(throws: LatchkeyClientError(.invalidLink, reasons: ["insecure_scheme"])) {
            try AccountLinkParser(universalLinkHosts: ["127.0.0.1"], customSchemes: [])
                .parse(try #require(URL(string: "http://127.0.0.1:8080/verify-email#token=\(Self.token)")))
        }
    }

    @Test("a link's description, debug description and dump never show the token")
    func redacted() throws {
        let link = try parser.parse(try #require(URL(string: "exampleapp://verify-email#token=\(Self.token)")))
        #expect(link.description == "AccountLink(verify_email, token: <redacted>)")
        #expect(!String(reflecting: link).contains(Self.token))
        var dumped = ""
        dump(link, to: &dumped)
        #expect(!dumped.contains(Self.token))
    }

    /// The reasons a rejection may give.
    static let reasons: Set<String> = [
        "insecure_scheme", "wrong_scheme", "wrong_host", "wrong_path", "user_info", "missing_token", "conflicting_tokens",
        "malformed_token",
    ]

    @Test("mutated links never trap: each is a link whose token is in the URL and plausible, or one rejection with a known reason")
    func mutations() throws {
        var random = SplitMix64(seed: 0x5EED_11CC)
        let seeds = [
            "https://auth.example.com/verify-email#token=\(Self.token)",
            "exampleapp://confirm-email?x=1#token=\(Self.token)&y=2",
            "https://auth.example.com/undo-email-change?token=\(Self.token)#token=\(Self.token)",
        ]
        let alphabet = Array("aZ09-_.:/?#&=%@[]! é\u{0}".unicodeScalars)
        var accepted = 0
        var rejected: [String: Int] = [:]
        for round in 0..<20_000 {
            var scalars = Array(seeds[round % seeds.count].unicodeScalars)
            for _ in 0...Int.random(in: 0..<4, using: &random) {
                let index = Int.random(in: 0..<scalars.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: scalars[index] = alphabet.randomElement(using: &random)!
                case 1: scalars.insert(alphabet.randomElement(using: &random)!, at: index)
                default: if scalars.count > 1 { scalars.remove(at: index) }
                }
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            guard let url = URL(string: text) else { continue }
            do {
                let link = try parser.parse(url)
                #expect(text.contains(link.token.exposed))
                #expect(AccountLinkParser.plausibleTokenLengths.contains(link.token.exposed.utf8.count))
                #expect(text.lowercased().contains(link.kind.defaultPath.dropFirst()))
                accepted += 1
            } catch let error as LatchkeyClientError {
                #expect(error.code == .invalidLink && error.reasons.count == 1 && Self.reasons.contains(error.reasons[0]), "\(error)")
                rejected[error.reasons.first ?? "", default: 0] += 1
                let damaged: Set<String> = ["missing_token", "malformed_token", "conflicting_tokens"]
                #expect((parser.kind(of: url) != nil) == damaged.contains(error.reasons.first ?? ""))
            }
        }
        // The mutations reach both outcomes and most reasons: the test exercises the parser.
        #expect(accepted > 100)
        #expect(Set(rejected.keys).count >= 6, "\(rejected)")
    }
}
