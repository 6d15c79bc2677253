/// The words of the pages mailed links open: `/verify-email` (a sign-up's address confirms
/// itself and the account is made), `/confirm-email` (an account's new address confirms the
/// change) and `/undo-email-change` (the old address undoes it).
///
/// Texts that name the product take it as an argument, already isolated for the language's
/// direction (``SupportedLanguage/isolated(_:)``).
package struct EmailLinkPageText: Sendable {
    /// The sign-up confirmation page's title.
    package let verifyTitle: String
    /// What confirming a sign-up does: the account is made with this address.
    package let verifyIntro: String
    /// The sign-up confirmation page's button.
    package let verifyButton: String
    /// That the address is confirmed and the account with the product is ready.
    package let verified: @Sendable (_ product: String) -> String
    /// The button to the app (`LATCHKEY_APP_URL`) once the account is ready.
    package let continueTo: @Sendable (_ product: String) -> String
    /// The confirmation page's title.
    package let confirmTitle: String
    /// What confirming does: the account will use this address.
    package let confirmIntro: String
    /// The confirmation page's button.
    package let confirmButton: String
    /// That the address was changed, and is the one to sign in with now.
    package let confirmed: String
    /// The undo page's title.
    package let undoTitle: String
    /// What undoing does: the previous address comes back and every device is signed out.
    package let undoIntro: String
    /// The undo page's button.
    package let undoButton: String
    /// That the previous address is back and every device was signed out.
    package let undone: String
    /// Why to choose a new password after an undo: whoever changed the address may know it.
    package let chooseNewPassword: String
    /// The link to the reset page, after an undo.
    package let chooseNewPasswordLink: String
    /// Shown while the request is on its way.
    package let working: String
    /// That the link is no longer valid.
    package let invalidLink: String
    /// That something failed and trying again may help.
    package let failed: String
}
