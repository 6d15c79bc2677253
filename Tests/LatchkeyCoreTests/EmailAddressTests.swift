import LatchkeyCore
import Testing

@Suite struct EmailAddressTests {
    @Test("an address is trimmed and lowercased, and exposes its parts")
    func normalises() throws {
        let email = try EmailAddress("  Jane.Doe+Reset@Example.COM \n")
        #expect(email.normalized == "jane.doe+reset@example.com")
        #expect(email.localPart == "jane.doe+reset")
        #expect(email.domain == "example.com")
    }

    @Test("differently cased forms of one address are equal")
    func caseInsensitiveEquality() throws {
        #expect(try EmailAddress("JANE@example.com") == EmailAddress("jane@EXAMPLE.com"))
        #expect(Set([try EmailAddress("a@b.co"), try EmailAddress("A@B.CO")]).count == 1)
    }

    @Test("the hint shows the first character, *** and the domain")
    func hint() throws {
        #expect(try EmailAddress("jane@example.com").hint == "j***@example.com")
        #expect(try EmailAddress("X@mail.example.org").hint == "x***@mail.example.org")
        #expect("\(try EmailAddress("jane@example.com"))" == "j***@example.com")
    }

    @Test("practical addresses are accepted", arguments: [
        "a@b.co", "o'brien@example.ie", "user_name-1@sub.domain-x.example", "x!#$%&*/=?^`{|}~@example.com",
        "first.last@xn--bcher-kva.example", "1234@123.example.com",
    ])
    func accepts(input: String) throws {
        _ = try EmailAddress(input)
    }

    @Test("malformed, dangerous or unsupported addresses are rejected with invalid_email", arguments: [
        "", "   ", "plainaddress", "@example.com", "jane@", "jane@@example.com", "ja@ne@example.com",
        "jane@localhost", "jane @example.com", "jane@exa mple.com", "jane\r\n@example.com",
        "jane@example.com\r\nBcc: victim@example.org", "jane\u{0}@example.com", "jane\t@example.com",
        "\"jane\"@example.com", "<jane@example.com>", "jane@example.com,bob@example.com",
        "jane(comment)@example.com", "jane;x@example.com", "jane\\x@example.com",
        ".jane@example.com", "jane.@example.com", "ja..ne@example.com",
        "jane@.example.com", "jane@example.com.", "jane@example..com", "jane@-example.com",
        "jane@example-.com", "jane@exa_mple.com", "jane@[127.0.0.1]", "jane@127.0.0.1",
        "jané@example.com", "jane@exämple.com", "jane@例え.jp",
        String(repeating: "a", count: 65) + "@example.com",
        "jane@" + String(repeating: "a", count: 64) + ".com",
    ])
    func rejects(input: String) {
        #expect {
            try EmailAddress(input)
        } throws: { ($0 as? LatchkeyError)?.code == .invalidEmail }
    }

    @Test("each kind of mistake gets the message that names it, checked in this order", arguments: [
        (" ", "Enter an email address."),
        ("jané@exa mple.com", "The email address may contain only ASCII letters, digits and punctuation."),
        ("ja ne@@example.com", "The email address must not contain spaces, line breaks or control characters."),
        ("plainaddress", "The email address must contain exactly one @."),
        ("..@@example.com", "The email address must contain exactly one @."),
        ("@", "The email address needs a name before the @."),
        ("ja(ne@", "The part before the @ contains a character that is not allowed."),
        ("Jane.@", "The part before the @ must not start or end with a dot or contain two dots in a row."),
        ("jane@", "The email address needs a domain after the @."),
        ("jane@LOCALHOST", "The domain of the email address must contain a dot."),
        ("jane@example.123", "The domain of the email address is not valid."),
        ("jane@ex-.com", "The domain of the email address is not valid."),
    ])
    func messages(input: String, message: String) {
        #expect {
            try EmailAddress(input)
        } throws: { ($0 as? LatchkeyError)?.message == message }
    }

    @Test("254 bytes is accepted, 255 is rejected")
    func lengthLimit() throws {
        let label = String(repeating: "a", count: 63)
        let domain = "\(label).\(label).\(label).com"  // 196 bytes
        let atLimit = String(repeating: "b", count: 254 - 1 - domain.utf8.count) + "@" + domain
        #expect(atLimit.utf8.count == 254)
        _ = try EmailAddress(atLimit)
        #expect {
            try EmailAddress("b" + atLimit)
        } throws: { ($0 as? LatchkeyError)?.code == .invalidEmail }
    }

    @Test("error messages never repeat the input")
    func messagesDoNotEchoInput() {
        let input = "secret-name@@example.com"
        do {
            _ = try EmailAddress(input)
            Issue.record("expected an error")
        } catch let error as LatchkeyError {
            #expect(!error.description.contains("secret-name"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
