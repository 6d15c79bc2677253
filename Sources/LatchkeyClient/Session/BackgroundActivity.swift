/// A way to keep the process running while ``AuthSession`` refreshes or saves tokens, so
/// that a rotation the server has made is not lost when the app is suspended half-way.
/// On iOS, ``ApplicationBackgroundTask`` asks UIKit for background time; elsewhere no
/// activity is needed.
public protocol BackgroundActivity: Sendable {
    /// Begins an activity named `name` (shown in system diagnostics). When the system is
    /// about to suspend the process before the activity ends, it calls `expiration`
    /// synchronously (on some thread) and then ends the activity itself; `expiration`
    /// must return quickly.
    func begin(name: String, expiration: @escaping @Sendable () -> Void) async -> any BackgroundActivityAssertion
}

/// A running ``BackgroundActivity``.
public protocol BackgroundActivityAssertion: Sendable {
    /// Ends the activity; calls after the first, and after an expiration, do nothing.
    func end() async
}
