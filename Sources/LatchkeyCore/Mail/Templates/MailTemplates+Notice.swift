import LatchkeyCrypto

extension MailTemplates {
    /// `kind` rendered for `account`'s own address — a notice to the owner about their account —
    /// in the account's language, else `acceptLanguage`'s (nil, or none of ours: English), with a
    /// fresh message id. Throws what ``render(_:to:language:id:)`` throws.
    package func notice(_ kind: MailKind, to account: Account, acceptLanguage: String? = nil) throws -> MailMessage {
        let language = SupportedLanguage.negotiate(explicit: nil, acceptLanguage: acceptLanguage, accountLocale: account.locale)
        return try render(kind, to: account.email, language: language, id: SecureRandom.identifier())
    }
}
