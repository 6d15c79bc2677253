package import Foundation

/// The background job that deletes what expired, was used or was sent more than a week ago
/// (``MaintenanceStore/purge(before:)``): at start, then every hour.
package struct StoragePurge: BackgroundJob {
    /// How long finished rows are kept before they are purged.
    package static let retention: TimeInterval = 7 * 86_400

    private let store: any MaintenanceStore
    private let clock: any WallClock
    private let logger: Logger

    /// The job for `store`.
    package init(store: any MaintenanceStore, clock: any WallClock, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    /// `storage_purge`.
    package var name: String { "storage_purge" }
    /// Every hour, with up to a minute of jitter so instances do not purge at the same instant.
    package var schedule: JobSchedule { JobSchedule(interval: 3600, jitter: 60) }

    /// Purges rows finished before ``retention``; logs how many, or why it could not.
    package func run(isStopping: () -> Bool) {
        do {
            let removed = try store.purge(before: clock.now().addingTimeInterval(-Self.retention))
            logger.info("maintenance_purged", ["rows": .int(removed)])
        } catch {
            logger.error("maintenance_failed", ["error": .string("\(error)")])
        }
    }
}
