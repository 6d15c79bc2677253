import Foundation
import Synchronization

/// Runs background jobs, each on a thread of its own (a job that blocks on the network
/// delays only itself), until stopped.
package final class JobRunner: Sendable {
    private let jobs: [any BackgroundJob]
    private let logger: Logger
    private let threads: [WorkerThread]

    /// A runner for `jobs`; nothing runs until ``start()``.
    package init(jobs: [any BackgroundJob], logger: Logger) {
        self.jobs = jobs
        self.logger = logger
        threads = jobs.map { job in
            WorkerThread(name: "latchkey-" + job.name, schedule: job.schedule) { isStopping in job.run(isStopping: isStopping) }
        }
    }

    /// Starts every job (a running one is left as it is).
    package func start() {
        for (job, thread) in zip(jobs, threads) where thread.start() {
            logger.info(job.name + "_started", ["interval_seconds": .double(job.schedule.interval)])
        }
    }

    /// Asks every job to stop and returns once each has finished its current run.
    package func stop() {
        for (job, thread) in zip(jobs, threads) where thread.stop() {
            logger.info(job.name + "_stopped")
        }
    }
}
