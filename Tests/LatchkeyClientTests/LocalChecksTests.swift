import LatchkeyClient
import Testing

@Suite struct LocalChecksTests {
    @Test("plausible email addresses pass", arguments: [
        "jane@example.com", " Jane.Doe+tag@Mail.Example.co.uk ", "a!#$%&'*+/=?^_`{|}~-@x-y.io",
    ])
    func plausibleEmails(address: String) {
        #expect(EmailSyntax.isPlausible(address))
    }

    @Test("implausible email addresses fail", arguments: [
        "", "   ", "jane", "jane@", "@example.com", "jane@example", "jane@@example.com", "ja ne@example.com",
        ".jane@example.com", "jane.@example.com", "ja..ne@example.com", "jane@-example.com", "jane@example.123",
        "jané@example.com", "jane@exa_mple.com", String(repeating: "a", count: 65) + "@example.com",
        "jane@" + String(repeating: "a", count: 64) + ".com",
        String(repeating: "a", count: 64) + "@" + String(repeating: "b.", count: 95) + "com",
    ])
    func implausibleEmails(address: String) {
        #expect(!EmailSyntax.isPlausible(address))
    }

    @Test("passwords are measured in characters after NFC: 8 to 128")
    func lengths() {
        #expect(PasswordRules.check(ClientSecret("1234567"), email: nil) == [.tooShort])
        #expect(PasswordRules.check(ClientSecret("12345678"), email: nil).isEmpty)
        #expect(PasswordRules.check(ClientSecret(String(repeating: "x", count: 128)), email: nil).isEmpty)
        #expect(PasswordRules.check(ClientSecret(String(repeating: "x", count: 129)), email: nil) == [.tooLong])
        // Seven "é" written as e + combining acute: 14 scalars, 7 characters.
        #expect(PasswordRules.check(ClientSecret(String(repeating: "e\u{301}", count: 7)), email: nil) == [.tooShort])
        #expect(PasswordRules.check(ClientSecret("👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦"), email: nil).isEmpty)
    }

    @Test("a password containing the email's local part (3+ characters, any case) is refused")
    func containsEmail() {
        #expect(PasswordRules.check(ClientSecret("my-JaneDoe-pass"), email: "janedoe@example.com") == [.containsEmail])
        #expect(PasswordRules.check(ClientSecret("jo-is-here-now"), email: "jo@example.com").isEmpty)
        #expect(PasswordRules.check(ClientSecret("correct horse battery"), email: "janedoe@example.com").isEmpty)
        #expect(PasswordRules.check(ClientSecret("ann"), email: "ann@example.com") == [.tooShort, .containsEmail])
    }

    @Test("rule codes are the server's codes")
    func codes() {
        #expect([PasswordRules.Reason.tooShort, .tooLong, .containsEmail].map(\.code)
            == ["too_short", "too_long", "contains_email"])
    }
}
