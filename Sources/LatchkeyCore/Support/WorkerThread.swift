package import Foundation
import Synchronization

/// A named background thread that runs `step`, then rests for `interval` seconds (cut short
/// by ``stop()``), over and over until stopped. `step` must return within about a second,
/// so stopping is prompt.
package final class WorkerThread: Sendable {
    private let name: String
    private let interval: TimeInterval
    private let step: @Sendable () -> Void
    private let running = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    package init(name: String, interval: TimeInterval, step: @escaping @Sendable () -> Void) {
        self.name = name
        self.interval = interval
        self.step = step
    }

    /// Starts the thread; does nothing if it is already running.
    package func start() {
        guard running.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else { return }
        let rest = DispatchTimeInterval.milliseconds(Int(min(max(interval, 0), 86_400) * 1000))
        let thread = Thread { [self] in
            while running.load(ordering: .sequentiallyConsistent) {
                step()
                if running.load(ordering: .sequentiallyConsistent) { _ = wakeUp.wait(timeout: .now() + rest) }
            }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the loop to end and waits until the current step has returned. Does nothing if
    /// the thread is not running.
    package func stop() {
        guard running.compareExchange(expected: true, desired: false, ordering: .sequentiallyConsistent).exchanged else { return }
        wakeUp.signal()
        finished.wait()
        // A wake-up the loop did not consume would cut the first rest after a restart short.
        while wakeUp.wait(timeout: .now()) == .success {}
    }
}
