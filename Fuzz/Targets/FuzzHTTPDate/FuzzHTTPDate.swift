import Foundation
import LatchkeyClient
import LatchkeyFuzzSupport

// Retry-After and HTTP-dates in the SDK (RetryAfterField, HTTPDate: IMF-fixdate, RFC 850,
// asctime). Properties: a wait is 0 to 86 400 s, nil for a value over 64 bytes; an
// accepted date is at the second and formats back, as IMF-fixdate, to a string that parses to
// the same instant; a date in the input's other two formats names the same instant.

private let now = Date(timeIntervalSince1970: 1_700_000_000)
private let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
private let longDays = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
private let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

/// `date` in the three formats, from its UTC calendar fields.
private func formats(_ date: Date) -> [String] {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "GMT")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    let weekday = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) % 7
    let day = (weekday + 7) % 7
    func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
    let time = "\(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    let month = months[(c.month ?? 1) - 1]
    var result = ["\(days[day]), \(two(c.day)) \(month) \(String(format: "%04d", c.year ?? 0)) \(time) GMT"]
    result.append("\(days[day]) \(month) \(two(c.day)) \(time) \(String(format: "%04d", c.year ?? 0))")
    if let year = c.year, abs(year - 2023) < 50 {
        result.append("\(longDays[day]), \(two(c.day))-\(month)-\(two(year % 100)) \(time) GMT")
    }
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPDate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).lossyText
    if let wait = RetryAfterField.delay(text, now: now) {
        expect(wait >= .zero && wait <= .seconds(RetryAfterField.maximumSeconds), "a wait out of range")
        expect(
            text.trimmingCharacters(in: CharacterSet(charactersIn: " \t")).utf8.count <= RetryAfterField.maximumLength,
            "a value over the length limit was read")
    }
    guard let date = HTTPDate.parse(text, now: now) else { return 0 }
    expect(date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970, "a date not at the second")
    // HTTP-dates are proleptic Gregorian, Foundation's calendar Julian before October 1582:
    // the comparison is made from 1583 on (the formats' years have four digits, to 9999).
    let components = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "GMT")!, from: date)
    guard components.era == 1, let year = components.year, (1583...9999).contains(year) else { return 0 }
    for form in formats(date) {
        expect(HTTPDate.parse(form, now: now) == date, "\(form) does not name the instant \(text) does")
    }
    return 0
}
