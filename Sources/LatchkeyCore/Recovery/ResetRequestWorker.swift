/// The background job that processes pending reset requests: looks up each account, issues
/// the token and queues the mail (``PasswordRecoveryService/processPendingRequests()``), in
/// batches at a fixed cadence with jitter and at low priority, so the answers to reset
/// requests carry no trace of the lookup.
package struct ResetRequestWorker: BackgroundJob {
    private let recovery: PasswordRecoveryService

    /// The job for `recovery`'s pending requests.
    package init(recovery: PasswordRecoveryService) {
        self.recovery = recovery
    }

    /// `reset_request_worker`.
    package var name: String { "reset_request_worker" }
    /// Every second plus up to a second of jitter, at background priority.
    package var schedule: JobSchedule { JobSchedule(interval: 1, jitter: 1, background: true) }

    /// Processes what is pending, a backlog of orphans included, until the server stops.
    package func run(isStopping: () -> Bool) {
        recovery.processPendingRequests(continuing: { !isStopping() })
    }
}
