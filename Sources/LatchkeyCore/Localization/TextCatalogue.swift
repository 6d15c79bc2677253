/// Every text the server shows a person, in one language, and the direction it runs in:
/// one value per surface (the mails, the reset page, the sign-in (with its passkey) and sign-out pages, the pages
/// mailed links open, the words for a person who tried too often).
///
/// Each language's catalogue is one file under `Localization/Languages/` (`English.swift`,
/// `Portuguese.swift`, …). Every field of every surface is required, so a catalogue that
/// misses a text does not compile; nothing falls back to English at run time.
///
/// Adding a language:
/// 1. a case in ``SupportedLanguage`` and its arm in ``SupportedLanguage/catalogue`` (the
///    compiler asks for it);
/// 2. one file `Localization/Languages/<Language>.swift` with
///    `extension TextCatalogue { static let <language> = TextCatalogue(…) }`, its direction
///    and every text.
///
/// Nothing else: the mail templates and pages read their texts from here, and the tests
/// iterate `SupportedLanguage.allCases`, so they check the new language too. (The client
/// SDK's error texts are its own, in `LatchkeyClient/Errors/ClientErrorText.swift`: the SDK
/// shares no code with the server.)
package struct TextCatalogue: Sendable {
    /// The direction the language's text runs in.
    package let direction: TextDirection
    /// The "reset your password" mail.
    package let passwordResetMail: PasswordResetMailText
    /// The "your password was changed" mail.
    package let passwordChangedMail: PasswordChangedMailText
    /// The "confirm your address" mail of a sign-up.
    package let emailVerificationMail: EmailVerificationMailText
    /// The "you already have an account" mail of a sign-up for a known address.
    package let accountExistsMail: AccountExistsMailText
    /// The web reset page (`/reset-password`).
    package let resetPage: ResetPageText
    /// The pages of `/oauth/authorize`: sign-in, consent and errors.
    package let signInPage: SignInPageText
    /// The passkey sign-in on the sign-in page of `/oauth/authorize`.
    package let passkeySignIn: PasskeySignInText
    /// The pages of `/oauth/logout`: the question, signed out, and errors.
    package let signOutPage: SignOutPageText
    /// Too many attempts, and how long to wait: on the reset and sign-in pages.
    package let rateLimit: RateLimitText
    /// The mail that asks an account's new address to confirm itself.
    package let emailConfirmationMail: EmailConfirmationMailText
    /// The mail to an address that has an account already, when another account asked for it.
    package let emailTakenMail: EmailTakenMailText
    /// The mail to an account's old address once its address changed, with the undo link.
    package let emailChangedMail: EmailChangedMailText
    /// The mail that confirms an account was deleted.
    package let accountDeletedMail: AccountDeletedMailText
    /// The mail to an account's old address when an operator moved the account to another
    /// address (`latchkey users set-email`): no undo link, the operator decided.
    package let operatorEmailChangeMail: OperatorEmailChangeMailText
    /// The pages mailed links open (`/verify-email`, `/confirm-email`, `/undo-email-change`).
    package let emailLinkPages: EmailLinkPageText
    /// The mails about the account's second factor: on, off, removed by the operator, a
    /// recovery code used.
    package let secondFactorMail: SecondFactorMailText
    /// The second factor's pages: the sign-in's code step and the enrolment page.
    package let secondFactorPage: SecondFactorPageText
    /// The mail about a sign-in from a device the account had not signed in from.
    package let newDeviceMail: NewDeviceMailText
    /// The mails about the account's passkeys: one added, one removed.
    package let passkeyMail: PasskeyMailText
}
