package import Foundation
import LatchkeyCrypto

/// The one-time passwords of authenticator apps: HOTP (RFC 4226) and TOTP (RFC 6238) with
/// HMAC-SHA1, the only algorithm every authenticator app computes.
///
/// Promises: ``code(secret:counter:digits:)`` is RFC 4226 §5.3's dynamic truncation taken
/// modulo 10^digits and left-padded with zeros; ``step(at:)`` is RFC 6238's T = ⌊(time − T0) / X⌋
/// with T0 = 0 and X = ``period``; ``matchingStep(_:secret:at:)`` compares the code with each
/// step of the window in constant time and looks at every step, whichever matches.
package enum OneTimePassword {
    /// Seconds per time step (RFC 6238's X): 30, what authenticator apps assume.
    package static let period: Int64 = 30
    /// Digits of a code: 6, what authenticator apps show.
    package static let digits = 6
    /// Steps accepted before and after the current one (RFC 6238 §5.2): one each way, so a
    /// code is accepted from 30 s before its step to 30 s after it, for clocks that drift and
    /// people who type slowly.
    package static let skew: Int64 = 1
    /// Bytes of a new secret: 20 (160 bits, RFC 4226 §4's recommended length).
    package static let secretLength = 20

    /// The HOTP value of `secret` at `counter` with `digits` digits (6 to 8), as text.
    package static func code(secret: Data, counter: UInt64, digits: Int = OneTimePassword.digits) -> String {
        precondition((6...8).contains(digits), "HOTP codes have 6 to 8 digits")
        var message = Data(count: 8)
        for index in 0..<8 { message[index] = UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64(index))) }
        let mac = [UInt8](HMACSHA1.authenticationCode(for: message, key: secret))
        let offset = Int(mac[19] & 0x0F)
        let binary = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    /// The TOTP time step of `time` (never negative).
    package static func step(at time: Date) -> Int64 {
        max(0, Int64((time.timeIntervalSince1970).rounded(.down)) / period)
    }

    /// The step within ``skew`` of `time`'s whose 6-digit code is `code`, if any. Every step of
    /// the window is computed and compared in constant time; when two steps share the code
    /// (one chance in a million), the latest is taken, so replay protection spends the most.
    package static func matchingStep(_ code: String, secret: Data, at time: Date) -> Int64? {
        let current = step(at: time)
        let presented = Data(code.utf8)
        var matched: Int64?
        for candidate in (current - skew)...(current + skew) where candidate >= 0 {
            if ConstantTime.equals(presented, Data(Self.code(secret: secret, counter: UInt64(candidate)).utf8)) {
                matched = candidate
            }
        }
        return matched
    }

    /// `text` as a code is compared: spaces left out (apps show `123 456`), and every decimal
    /// digit of another script (Arabic-Indic `٣`, Persian `۳`, full-width `３`, …), which a phone's
    /// keyboard in that language types, read as its ASCII digit. Anything else is kept as it is.
    package static func normalizedCode(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !scalar.properties.isWhitespace {
            if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue, (0...9).contains(value),
                !scalar.isASCII
            {
                output.append(Unicode.Scalar(UInt8(ascii: "0") + UInt8(value)))
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// Whether `text` has the form of a code: exactly ``digits`` ASCII digits.
    package static func isCodeShaped(_ text: String) -> Bool {
        text.utf8.count == digits && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The `otpauth://totp/` URL an authenticator app enrols from (Google's Key URI Format, which
    /// Apple's Passwords app and the others read): the label `issuer:account`, the secret in
    /// base32 without padding, and the algorithm, digits and period spelled out.
    package static func provisioningURL(secret: Data, account: String, issuer: String) -> String {
        let label = percentEncoded(issuer) + ":" + percentEncoded(account)
        return "otpauth://totp/\(label)?secret=\(Base32.encode(secret))&issuer=\(percentEncoded(issuer))"
            + "&algorithm=SHA1&digits=\(digits)&period=\(period)"
    }

    /// `text` with everything but RFC 3986's unreserved characters percent-encoded (a space is `%20`).
    private static func percentEncoded(_ text: String) -> String {
        var unreserved = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        unreserved.insert(charactersIn: "-._~@")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
