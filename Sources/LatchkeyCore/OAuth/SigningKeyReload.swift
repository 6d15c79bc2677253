import LatchkeyJOSE

/// The background job that picks up signing keys rotated by another process (`latchkey
/// keys rotate`, another instance), every second, so no restart is needed.
package struct SigningKeyReload: BackgroundJob {
    private let keyRing: SigningKeyRing
    private let logger: Logger

    /// The job for `keyRing`.
    package init(keyRing: SigningKeyRing, logger: Logger) {
        self.keyRing = keyRing
        self.logger = logger
    }

    /// `signing_key_reload`.
    package var name: String { "signing_key_reload" }
    /// Every second.
    package var schedule: JobSchedule { JobSchedule(interval: 1) }

    /// Re-reads the key file if it changed; logs the new active key, or why it could not.
    package func run(isStopping: () -> Bool) {
        do {
            if try keyRing.reloadIfChanged() {
                logger.info("signing_keys_reloaded", ["active_kid": .string(keyRing.activeKey.kid)])
            }
        } catch {
            logger.error("signing_keys_reload_failed", ["error": .string("\(error)")])
        }
    }
}
