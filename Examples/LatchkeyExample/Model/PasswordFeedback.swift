public import LatchkeyClient

/// The live feedback under a new-password field: each rule the app can check, met or not,
/// as the person types (the server also judges strength, `too_weak`, on submit).
public struct PasswordFeedback: Sendable, Equatable {
    /// One rule and whether the typed password meets it.
    public struct Item: Sendable, Equatable, Identifiable {
        /// The rule.
        public let rule: PasswordRules.Reason
        /// Whether the password meets it.
        public let isMet: Bool
        /// The rule's code, for SwiftUI lists.
        public var id: String { rule.code }
    }

    /// The rules, in ``PasswordRules/Reason/all`` order; "no email in the password" only
    /// when the address is known.
    public let items: [Item]

    /// Feedback for `password`, checked with `email` when known.
    public init(password: ClientSecret, email: String?) {
        let broken = Set(PasswordRules.check(password, email: email))
        items = PasswordRules.Reason.all
            .filter { $0 != .containsEmail || email != nil }
            .map { Item(rule: $0, isMet: !broken.contains($0)) }
    }

    /// Whether every rule is met.
    public var allMet: Bool { items.allSatisfy(\.isMet) }
}
