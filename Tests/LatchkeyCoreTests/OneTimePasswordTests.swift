import Foundation
import LatchkeyCore
import LatchkeyCrypto
import Testing

/// The TOTP and HOTP arithmetic against the RFCs' own vectors, and what a person typing codes
/// and keys would check.
@Suite struct OneTimePasswordTests {
    /// RFC 6238 Appendix B's secret for SHA-1: the ASCII bytes of `12345678901234567890`.
    private static let secret = Data("12345678901234567890".utf8)

    @Test("HOTP gives RFC 4226 Appendix D's values for counters 0 to 9")
    func hotpVectors() {
        let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        for (counter, code) in expected.enumerated() {
            #expect(OneTimePassword.code(secret: Self.secret, counter: UInt64(counter)) == code)
        }
    }

    @Test("TOTP gives RFC 6238 Appendix B's SHA-1 values (8 digits), and their last six digits with 6")
    func totpVectors() {
        let vectors: [(time: TimeInterval, step: Int64, code: String)] = [
            (59, 0x1, "94287082"), (1_111_111_109, 0x23523EC, "07081804"), (1_111_111_111, 0x23523ED, "14050471"),
            (1_234_567_890, 0x273EF07, "89005924"), (2_000_000_000, 0x3F940AA, "69279037"), (20_000_000_000, 0x27BC86AA, "65353130"),
        ]
        for vector in vectors {
            let step = OneTimePassword.step(at: Date(timeIntervalSince1970: vector.time))
            #expect(step == vector.step)
            #expect(OneTimePassword.code(secret: Self.secret, counter: UInt64(step), digits: 8) == vector.code)
            #expect(OneTimePassword.code(secret: Self.secret, counter: UInt64(step)) == String(vector.code.suffix(6)))
        }
    }

    @Test("A code is accepted for its step and one step either side, and not two steps away")
    func skew() {
        let now = Date(timeIntervalSince1970: 1_111_111_111)
        let step = OneTimePassword.step(at: now)
        for offset in [Int64(-1), 0, 1] {
            let code = OneTimePassword.code(secret: Self.secret, counter: UInt64(step + offset))
            #expect(OneTimePassword.matchingStep(code, secret: Self.secret, at: now) == step + offset)
        }
        for offset in [Int64(-2), 2] {
            let code = OneTimePassword.code(secret: Self.secret, counter: UInt64(step + offset))
            #expect(OneTimePassword.matchingStep(code, secret: Self.secret, at: now) == nil)
        }
        #expect(OneTimePassword.matchingStep("14050471", secret: Self.secret, at: now) == nil, "eight digits are not a 6-digit code")
    }

    @Test("Only six ASCII digits have a code's shape")
    func codeShape() {
        #expect(OneTimePassword.isCodeShaped("050471"))
        for text in ["05047", "0504711", "05047a", "٠٥٠٤٧١", " 50471", ""] { #expect(!OneTimePassword.isCodeShaped(text)) }
    }

    @Test("A code typed with spaces or in another script's digits reads as its six ASCII digits")
    func typedCodes() {
        #expect(OneTimePassword.normalizedCode("050 471") == "050471")
        #expect(OneTimePassword.normalizedCode("٠٥٠٤٧١") == "050471")
        #expect(OneTimePassword.normalizedCode("۰۵۰۴۷۱") == "050471")
        #expect(OneTimePassword.normalizedCode("０５０４７１") == "050471")
        #expect(OneTimePassword.isCodeShaped(OneTimePassword.normalizedCode("٠٥٠ ٤٧١")))
        #expect(OneTimePassword.normalizedCode("7KQ2-M9XD") == "7KQ2-M9XD", "a recovery code is left as typed")
        #expect(!OneTimePassword.isCodeShaped(OneTimePassword.normalizedCode("½50471")))
    }

    @Test("Base32 round-trips, reads keys as people copy them, and refuses what no encoding has")
    func base32() {
        #expect(Base32.encode(Self.secret) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(Base32.decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") == Self.secret)
        #expect(Base32.decode("gezd gnbv-gy3t qojq gezd gnbv gy3t qojq") == Self.secret)
        // RFC 4648 §10.
        for (text, plain) in [("", ""), ("MY", "f"), ("MZXQ", "fo"), ("MZXW6", "foo"), ("MZXW6YQ", "foob"), ("MZXW6YTB", "fooba"), ("MZXW6YTBOI", "foobar")] {
            #expect(Base32.encode(Data(plain.utf8)) == text)
            #expect(Base32.decode(text) == Data(plain.utf8))
        }
        #expect(Base32.decode("MZXW6YQ=") == Data("foob".utf8))
        for bad in ["M", "MZX", "MZXW6Y", "MZ1W", "MZ=X", "MZ", "MZXW6YTBOJ"] { #expect(Base32.decode(bad) == nil, "\(bad)") }
        for _ in 0..<50 {
            let bytes = Data((0..<Int.random(in: 0...40)).map { _ in UInt8.random(in: 0...255) })
            #expect(Base32.decode(Base32.encode(bytes)) == bytes)
        }
    }

    @Test("The otpauth URL names the issuer and account, and spells out SHA1, 6 digits and 30 seconds")
    func provisioningURL() {
        let url = OneTimePassword.provisioningURL(secret: Self.secret, account: "ana+1@example.com", issuer: "Acme Cloud")
        #expect(
            url == "otpauth://totp/Acme%20Cloud:ana%2B1@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Acme%20Cloud"
                + "&algorithm=SHA1&digits=6&period=30")
        #expect(URLComponents(string: url)?.queryItems?.first { $0.name == "issuer" }?.value == "Acme Cloud")
    }

    @Test("Recovery codes: ten, each 12 symbols of Crockford's alphabet in groups of four, read as people type them")
    func recoveryCodes() throws {
        let codes = RecoveryCode.generate()
        #expect(codes.count == 10)
        #expect(Set(codes.map(\.exposed)).count == 10)
        for code in codes {
            #expect(code.exposed.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/) != nil, "\(code.exposed)")
            let normalized = try #require(RecoveryCode.normalized(code.exposed))
            #expect(RecoveryCode.normalized(code.exposed.lowercased().replacingOccurrences(of: "-", with: " ")) == normalized)
        }
        #expect(RecoveryCode.normalized("oil0-1abc-defg") == "0110" + "1ABCDEFG")
        for bad in ["ABCD-EFGH-JKM", "ABCD-EFGH-JKMNP", "ABCD-EFGH-JKMU", "ABCD_EFGH_JKMN", "123456"] {
            #expect(RecoveryCode.normalized(bad) == nil, "\(bad)")
        }
        #expect(RecoveryCode.digest("0110ABCDEFGH", accountID: "a") != RecoveryCode.digest("0110ABCDEFGH", accountID: "b"))
        #expect(RecoveryCode.digest("0110ABCDEFGH", accountID: "a").count == 64)
    }

    @Test("Recovery code symbols are spread evenly over the alphabet")
    func recoveryCodeUniformity() {
        var counts: [Character: Int] = [:]
        for _ in 0..<400 {
            for code in RecoveryCode.generate() { for symbol in code.exposed where symbol != "-" { counts[symbol, default: 0] += 1 } }
        }
        // 48 000 symbols over 32: 1 500 each on average; a biased draw would leave some far off.
        #expect(counts.count == 32)
        #expect(counts.values.allSatisfy { (1_300...1_700).contains($0) }, "\(counts)")
    }
}
