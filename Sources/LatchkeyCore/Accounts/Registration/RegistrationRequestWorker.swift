/// The background job that processes pending sign-up requests
/// (``RegistrationService/processPendingRequests()``): at a fixed cadence with jitter and at low
/// priority, so the answers to sign-ups carry no trace of the lookup.
package struct RegistrationRequestWorker: BackgroundJob {
    private let registration: RegistrationService

    /// The job for `registration`'s pending requests.
    package init(registration: RegistrationService) {
        self.registration = registration
    }

    /// `registration_request_worker`.
    package var name: String { "registration_request_worker" }
    /// Every second plus up to a second of jitter, at background priority.
    package var schedule: JobSchedule { JobSchedule(interval: 1, jitter: 1, background: true) }

    /// Processes one batch of what is pending.
    package func run(isStopping: () -> Bool) {
        registration.processPendingRequests()
    }
}
