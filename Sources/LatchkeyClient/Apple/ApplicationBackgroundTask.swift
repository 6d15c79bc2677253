#if os(iOS)
    import UIKit

    /// The ``BackgroundActivity`` of an iOS app: a UIKit background task
    /// (`beginBackgroundTask(withName:expirationHandler:)`), so a refresh the server has
    /// already answered is saved even when the person leaves the app mid-request. Pass it
    /// to ``AuthSession/init(store:refresher:refreshLeeway:lockTimeout:urlSession:backgroundActivity:now:)``.
    ///
    /// UIKit calls the expiration handler "synchronously on the main thread, blocking the
    /// app's suspension momentarily", and "failure to end the task explicitly will result
    /// in the termination of the app" (Apple's documentation of
    /// `beginBackgroundTask(expirationHandler:)`): the handler runs the session's expiration
    /// (which releases the store's lock) and ends the task. Not available in app extensions,
    /// which have no `UIApplication`.
    @available(iOSApplicationExtension, unavailable)
    public struct ApplicationBackgroundTask: BackgroundActivity {
        /// The background activity of the running app.
        public init() {}

        /// Begins a UIKit background task named `name`.
        public func begin(name: String, expiration: @escaping @Sendable () -> Void) async -> any BackgroundActivityAssertion {
            await ApplicationBackgroundTaskAssertion(name: name, expiration: expiration)
        }
    }

    /// One UIKit background task, ended once: by ``end()`` or by its expiration.
    @available(iOSApplicationExtension, unavailable)
    @MainActor
    private final class ApplicationBackgroundTaskAssertion: BackgroundActivityAssertion {
        private var identifier: UIBackgroundTaskIdentifier = .invalid

        init(name: String, expiration: @escaping @Sendable () -> Void) {
            identifier = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
                expiration()
                self?.finish()
            }
            // `.invalid`: no background time at all ("running in the background is not
            // possible"), so no expiration handler will ever run: expire at once.
            if identifier == .invalid { expiration() }
        }

        nonisolated func end() async {
            await finish()
        }

        private func finish() {
            guard identifier != .invalid else { return }
            UIApplication.shared.endBackgroundTask(identifier)
            identifier = .invalid
        }
    }
#endif
