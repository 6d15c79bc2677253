/// The words of a page a mailed link opens to confirm something with one request (the
/// confirmation of a new account's address): what it is doing, and how it ended.
package struct EmailLinkPageText: Sendable {
    /// The page's title and heading.
    package let title: String
    /// Shown while the request is on its way.
    package let working: String
    /// Shown when it worked, naming the product.
    package let done: @Sendable (_ product: String) -> String
    /// Shown when the link does not work (used, expired, superseded or damaged).
    package let invalidLink: String
    /// Shown when the request failed for any other reason.
    package let failed: String
    /// The button to the app after success, naming the product.
    package let continueTo: @Sendable (_ product: String) -> String
}
