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
        if (0...9999).contains(year) {
            // Twenty ASCII bytes, without a string per field.
            var bytes = [UInt8](repeating: 0, count: 20)
            for (offset, value, width) in [
                (0, Int(year), 4), (5, month, 2), (8, day, 2),
                (11, secondOfDay / 3600, 2), (14, secondOfDay / 60 % 60, 2), (17, secondOfDay % 60, 2),
            ] {
                var rest = value
                for position in (offset..<offset + width).reversed() {
                    bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            for (offset, separator) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")] as [(Int, Unicode.Scalar)] {
                bytes[offset] = UInt8(ascii: separator)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var text = ""
        text.reserveCapacity(20)
        text += padded(Int(year), 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
        text += "T" + padded(secondOfDay / 3600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":" + padded(secondOfDay % 60, 2) + "Z"
        return text
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

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
