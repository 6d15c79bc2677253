import LatchkeyCrypto
import LatchkeyCore
import LatchkeyPasswordStrength
import Testing

@Suite struct PasswordPolicyTests {
    private let email: EmailAddress
    private let policy = PasswordPolicy()

    init() throws {
        email = try EmailAddress("Jane.Doe@example.com")
    }

    @Test("the default policy is 8–128 characters with a zxcvbn score of at least 3")
    func defaults() {
        #expect(policy.minimumLength == 8)
        #expect(policy.maximumLength == 128)
        #expect(policy.minimumScore == 3)
    }

    @Test("\"password\" is too weak")
    func commonPassword() {
        #expect(policy.evaluate(Redacted("password"), email: email) == [.tooWeak(score: 0)])
    }

    @Test("\"correct horse battery staple\" passes and is returned for hashing")
    func passphrase() throws {
        #expect(policy.evaluate(Redacted("correct horse battery staple"), email: email).isEmpty)
        let accepted = try policy.check(Redacted("correct horse battery staple"), email: email)
        #expect(accepted.exposed == "correct horse battery staple")
    }

    @Test("a short password is too short; its code is too_short")
    func tooShort() {
        let violations = policy.evaluate(Redacted("kD8#mQz"), email: email)
        #expect(violations.contains(.tooShort(minimum: 8)))
        #expect(violations.map(\.code).contains("too_short"))
    }

    @Test("length counts characters after NFC: decomposed accents count once")
    func combiningCharacters() throws {
        // Seven characters, each "e" + COMBINING ACUTE ACCENT (14 scalars), plus one more.
        let decomposed = String(repeating: "e\u{301}", count: 7) + "Z"
        let violations = try PasswordPolicy(minimumLength: 8, maximumLength: 8, minimumScore: 0)
            .evaluate(Redacted(decomposed), email: email)
        #expect(violations.isEmpty)
        #expect(PasswordPolicy.normalized(Redacted(decomposed)).exposed == String(repeating: "\u{E9}", count: 7) + "Z")
        let tooShort = try PasswordPolicy(minimumLength: 9, maximumLength: 16, minimumScore: 0)
            .evaluate(Redacted(decomposed), email: email)
        #expect(tooShort == [.tooShort(minimum: 9)])
    }

    @Test("129 characters is too long; 128 is not")
    func tooLong() {
        let strong = "kD8#mQz!4vR2"
        let base = String(repeating: strong, count: 11)  // 132 characters
        #expect(policy.evaluate(Redacted(String(base.prefix(128))), email: email).isEmpty)
        #expect(policy.evaluate(Redacted(String(base.prefix(129))), email: email) == [.tooLong(maximum: 128)])
        let decomposed = String(repeating: "o\u{308}", count: 129)
        #expect(policy.evaluate(Redacted(decomposed), email: email).map(\.code) == ["too_long"])
    }

    @Test("a password containing the email's local part, in any case, is rejected")
    func containsEmail() {
        let violations = policy.evaluate(Redacted("my-JANE.DOE-secret-kD8#mQz!4vR2"), email: email)
        #expect(violations == [.containsEmail])
        #expect(violations.first?.code == "contains_email")
    }

    @Test("a local part under 3 characters is not checked")
    func shortLocalPart() throws {
        let shortEmail = try EmailAddress("jo@example.com")
        #expect(policy.evaluate(Redacted("jo-kD8#mQz!4vR2"), email: shortEmail).isEmpty)
    }

    @Test("the email's words count as guessable for zxcvbn")
    func emailWordsAreWeak() throws {
        let estimator = ZxcvbnEstimator()
        let password = Redacted("janedoe2024example")
        let withoutContext = estimator.score(of: password, userInputs: [])
        let withContext = estimator.score(of: password, userInputs: ["janedoe", "example.com", "example"])
        #expect(withContext < withoutContext)
    }

    @Test("the score threshold is configurable")
    func threshold() throws {
        // zxcvbn scores "horse staple" 3 (about 10^9 guesses).
        let password = Redacted("horse staple")
        #expect(ZxcvbnEstimator().score(of: password, userInputs: []) == 3)
        #expect(policy.evaluate(password, email: email).isEmpty)
        let strict = try PasswordPolicy(minimumLength: 8, maximumLength: 128, minimumScore: 4)
        #expect(strict.evaluate(password, email: email) == [.tooWeak(score: 3)])
        let lenient = try PasswordPolicy(minimumLength: 8, maximumLength: 128, minimumScore: 0)
        #expect(lenient.evaluate(Redacted("password"), email: email).isEmpty)
    }

    @Test("check throws weak_password with every reason, and no password text")
    func checkThrows() {
        do {
            _ = try policy.check(Redacted("jane.do"), email: email)
            Issue.record("expected weak_password")
        } catch let error as LatchkeyError {
            #expect(error.code == .weakPassword)
            #expect(error.message.contains("at least 8"))
            #expect(error.reasons == ["too_short", "too_weak"])
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("check returns the NFC form to hash")
    func checkNormalises() throws {
        let decomposed = "Cafe\u{301} horse battery staple"
        let accepted = try policy.check(Redacted(decomposed), email: email)
        #expect(accepted.exposed.unicodeScalars.elementsEqual("Caf\u{E9} horse battery staple".unicodeScalars))
    }

    @Test("invalid policy bounds are a configuration error", arguments: [
        (0, 128, 3), (10, 9, 3), (8, 5000, 3), (8, 128, -1), (8, 128, 5),
    ])
    func invalidBounds(minimum: Int, maximum: Int, score: Int) {
        #expect {
            try PasswordPolicy(minimumLength: minimum, maximumLength: maximum, minimumScore: score)
        } throws: { ($0 as? LatchkeyError)?.code == .invalidConfiguration }
    }
}
