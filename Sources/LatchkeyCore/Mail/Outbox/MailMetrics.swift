import Synchronization

/// Receives a count of every delivery outcome, for `/metrics`.
package protocol MailMetrics: Sendable {
    /// A message was delivered.
    func mailSent()
    /// A delivery attempt failed; `gaveUp` when the message will not be tried again.
    func mailFailed(gaveUp: Bool)
    /// A message whose earlier attempt failed is being tried again.
    func mailRetried()
}
