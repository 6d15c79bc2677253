package import Foundation

/// Reads a `Retry-After` field value (RFC 9110 §10.2.3): delta-seconds (`120`) or an
/// HTTP-date in any of its three formats (RFC 9110 §5.6.7). Pure: the date form is counted
/// from a `now` the caller passes.
package enum RetryAfterField {
    /// The longest wait kept, a day: a longer one is cut to it, so that no server can make
    /// an app wait for weeks (or overflow a counter).
    package static let maximumSeconds = 86_400

    /// The longest field value read; anything longer is no valid `Retry-After`.
    package static let maximumLength = 64

    /// The wait `value` asks for: whole seconds, never negative (a date in the past is
    /// zero), at most ``maximumSeconds``; nil when `value` is neither form (empty, words,
    /// a signed or fractional number, a malformed date, longer than ``maximumLength``).
    package static func delay(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard !text.isEmpty, text.utf8.count <= maximumLength else { return nil }
        if text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // Leading zeros say nothing; more digits than the maximum has are past it.
            let digits = text.drop { $0 == "0" }
            let seconds = digits.count > String(maximumSeconds).count ? maximumSeconds : min(Int(digits) ?? 0, maximumSeconds)
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(text, now: now) else { return nil }
        let seconds = date.timeIntervalSince(now).rounded(.up)
        return .seconds(Int(min(max(seconds, 0), Double(maximumSeconds))))
    }
}
