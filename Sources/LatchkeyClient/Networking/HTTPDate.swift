package import Foundation

/// An HTTP-date (RFC 9110 §5.6.7), which a recipient must accept in all three formats:
/// `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), `Sunday, 06-Nov-94 08:49:37 GMT`
/// (obsolete RFC 850) and `Sun Nov  6 08:49:37 1994` (asctime). Names are case-sensitive,
/// as the grammar says; the weekday is checked for its spelling, not against the date.
package enum HTTPDate {
    private static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant `text` names, or nil when it is no HTTP-date. `now` places the two-digit
    /// year of the RFC 850 format: a year more than 50 years ahead is the century before.
    package static func parse(_ text: String, now: Date) -> Date? {
        let parts = text.split(separator: " ")
        switch parts.count {
        case 6:  // IMF-fixdate: day-name "," SP day SP month SP year SP time SP "GMT"
            guard parts[0].hasSuffix(","), shortDays.contains(String(parts[0].dropLast())), parts[5] == "GMT",
                parts[1].count == 2, parts[3].count == 4,
                let day = number(parts[1]), let month = month(parts[2]), let year = number(parts[3])
            else { return nil }
            return date(year: year, month: month, day: day, time: parts[4])
        case 4:  // RFC 850: day-name-l "," SP day "-" month "-" 2DIGIT SP time SP "GMT"
            let date = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts[0].hasSuffix(","), longDays.contains(String(parts[0].dropLast())), parts[3] == "GMT",
                date.count == 3, date[0].count == 2, date[2].count == 2,
                let day = number(date[0]), let month = month(date[1]), let shortYear = number(date[2])
            else { return nil }
            return self.date(year: fullYear(shortYear, now: now), month: month, day: day, time: parts[2])
        case 5:  // asctime: day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time SP year
            guard shortDays.contains(String(parts[0])), (1...2).contains(parts[2].count), parts[4].count == 4,
                let month = month(parts[1]), let day = number(parts[2]), let year = number(parts[4])
            else { return nil }
            return date(year: year, month: month, day: day, time: parts[3])
        default:
            return nil
        }
    }

    /// `HH:MM:SS` on the given day, GMT; nil for a day the month does not have or a time
    /// out of range (a leap second, `:60`, is allowed).
    private static func date(year: Int, month: Int, day: Int, time: Substring) -> Date? {
        let fields = time.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, fields.allSatisfy({ $0.count == 2 }),
            let hour = number(fields[0]), let minute = number(fields[1]), let second = number(fields[2]),
            hour < 24, minute < 60, second <= 60, (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// A string of ASCII digits as a number; nil for anything else (signs included).
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }

    /// The month number (1–12) of a three-letter English name.
    private static func month(_ name: Substring) -> Int? {
        months.firstIndex(of: String(name)).map { $0 + 1 }
    }

    /// The year a two-digit year stands for: in the current century, or the one before if
    /// that would be more than 50 years ahead of `now` (RFC 9110 §5.6.7).
    private static func fullYear(_ shortYear: Int, now: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        let currentYear = calendar.component(.year, from: now)
        let candidate = currentYear - currentYear % 100 + shortYear
        return candidate > currentYear + 50 ? candidate - 100 : candidate
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (years 0–9999
    /// here), by Howard Hinnant's `days_from_civil`.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
