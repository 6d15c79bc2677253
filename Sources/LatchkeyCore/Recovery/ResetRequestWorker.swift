/// The background job that processes accepted reset requests: looks up each account,
/// issues the token and queues the mail (``PasswordRecoveryService/processQueuedRequests()``),
/// off the response path.
package struct ResetRequestWorker: BackgroundJob {
    private let recovery: PasswordRecoveryService

    /// The job for `recovery`'s queue.
    package init(recovery: PasswordRecoveryService) {
        self.recovery = recovery
    }

    /// `reset_request_worker`.
    package var name: String { "reset_request_worker" }
    /// No rest: each run waits up to half a second for a request.
    package var schedule: JobSchedule { JobSchedule(interval: 0) }

    /// Waits up to half a second for a queued request, then processes every one waiting.
    package func run(isStopping: () -> Bool) {
        if recovery.waitForQueuedRequest(timeout: 0.5) { recovery.processQueuedRequests() }
    }
}
