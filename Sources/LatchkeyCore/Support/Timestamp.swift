package import Foundation

/// Instants as text, written by hand: no formatter object, no locale, no ICU on the request
/// path.
package enum Timestamp {
    /// `date` as RFC 3339 / ISO 8601 in UTC to the second, e.g. `2026-12-03T17:45:42Z` (what
    /// `ISO8601DateFormatter` writes by default).
    package static func iso8601(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        var text: [UInt8] = []
        text.reserveCapacity(20)
        if (0...9999).contains(year) {
            appendDigits(Int(year), width: 4, to: &text)
        } else {
            text += padded(Int(year), 4).utf8
        }
        let fields: [(separator: UInt8, value: Int)] = [
            (UInt8(ascii: "-"), month), (UInt8(ascii: "-"), day), (UInt8(ascii: "T"), secondOfDay / 3600),
            (UInt8(ascii: ":"), secondOfDay / 60 % 60), (UInt8(ascii: ":"), secondOfDay % 60),
        ]
        for (separator, value) in fields {
            text.append(separator)
            appendDigits(value, width: 2, to: &text)
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the `width` last decimal digits of `value` (not negative), zero-padded.
    private static func appendDigits(_ value: Int, width: Int, to text: inout [UInt8]) {
        let end = text.count + width
        text += repeatElement(UInt8(ascii: "0"), count: width)
        var rest = value
        for position in (end - width..<end).reversed() {
            text[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// The proleptic Gregorian year, month and day of a day count since 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// A year outside 0–9999 as text, zero-padded to `width` characters.
    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
