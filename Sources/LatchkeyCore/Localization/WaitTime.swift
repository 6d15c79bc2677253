/// How long a person is asked to wait before trying again, as said on a page or in a message:
/// one of a few round steps (``steps``), never less than the server asked for.
///
/// `Retry-After` is exact to the second; people are told a round figure at least as long,
/// so whoever waits as long as they were told gets in. The steps are few, so a page can carry
/// the sentence for each of them (the reset page's script picks one for the `Retry-After` it
/// gets), and every language words them through its catalogue's
/// ``RateLimitText/tryAgainIn``.
package enum WaitTime: Sendable, Hashable {
    /// A number of minutes (1–45).
    case minutes(Int)
    /// A number of hours (1–24).
    case hours(Int)

    /// Every wait that is ever said, shortest first.
    package static let steps: [WaitTime] =
        [1, 2, 3, 4, 5, 10, 15, 20, 30, 45].map(WaitTime.minutes) + [1, 2, 3, 6, 12, 24].map(WaitTime.hours)

    /// The shortest step that lasts at least `seconds` (the longest step for anything longer).
    package init(atLeast seconds: Int) {
        self = Self.steps.first { $0.seconds >= seconds } ?? Self.steps[Self.steps.count - 1]
    }

    /// The wait in seconds.
    package var seconds: Int {
        switch self {
        case .minutes(let count): count * 60
        case .hours(let count): count * 3600
        }
    }
}
