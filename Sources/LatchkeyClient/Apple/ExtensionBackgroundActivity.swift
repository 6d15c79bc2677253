#if os(iOS)
    import Foundation

    /// The ``BackgroundActivity`` of an app extension, which has no `UIApplication`:
    /// `ProcessInfo.performExpiringActivity(withReason:using:)`, so an extension refreshing
    /// or saving tokens is not suspended half-way, and — when its time runs out — releases
    /// the store's lock before it is suspended (a process suspended holding a lock on a file
    /// in a shared container is ended, `0xdead10cc`). Every rule is ``ExpiringActivity``'s;
    /// this type only names the system call. In the app itself use ``ApplicationBackgroundTask``.
    public struct ExtensionBackgroundActivity: BackgroundActivity {
        /// The background activity of the running extension.
        public init() {}

        /// Begins an expiring activity named `name`.
        public func begin(name: String, expiration: @escaping @Sendable () -> Void) async -> any BackgroundActivityAssertion {
            await ExpiringActivity { reason, block in
                ProcessInfo.processInfo.performExpiringActivity(withReason: reason, using: block)
            }.begin(name: name, expiration: expiration)
        }
    }
#endif
