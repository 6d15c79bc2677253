import Foundation
import Synchronization

/// A named thread that runs `step`, then rests for the schedule's next rest (cut short by
/// ``stop()``), over and over until stopped. `step` is told when a stop was asked for, so a
/// long run can end early.
package final class WorkerThread: Sendable {
    private let name: String
    private let schedule: JobSchedule
    private let step: @Sendable (() -> Bool) -> Void
    private let running = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// A stopped thread named `name` that will run `step` on `schedule`.
    package init(name: String, schedule: JobSchedule, step: @escaping @Sendable (() -> Bool) -> Void) {
        self.name = name
        self.schedule = schedule
        self.step = step
    }

    /// Starts the thread; false (and nothing done) if it is already running.
    @discardableResult
    package func start() -> Bool {
        guard running.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else { return false }
        let thread = Thread { [self] in
            if schedule.background { ThreadPriority.background.lowerCurrentThread() }
            let isStopping = { !self.running.load(ordering: .sequentiallyConsistent) }
            while !isStopping() {
                step(isStopping)
                let rest = DispatchTimeInterval.milliseconds(Int(min(max(schedule.nextRest(), 0), 86_400) * 1000))
                if !isStopping() { _ = wakeUp.wait(timeout: .now() + rest) }
            }
            finished.signal()
        }
        thread.name = name
        thread.start()
        return true
    }

    /// Asks the loop to end and waits until the current step has returned; false (and
    /// nothing done) if the thread is not running.
    @discardableResult
    package func stop() -> Bool {
        guard running.compareExchange(expected: true, desired: false, ordering: .sequentiallyConsistent).exchanged else { return false }
        wakeUp.signal()
        finished.wait()
        // A wake-up the loop did not consume would cut the first rest after a restart short.
        while wakeUp.wait(timeout: .now()) == .success {}
        return true
    }
}
