import Foundation
import Synchronization

/// A named background thread that runs `step` over and over until stopped. `step` must
/// return within about a second (wait on a condition with a timeout, not forever), so
/// `stop()` is prompt.
final class WorkerThread: Sendable {
    private let name: String
    private let step: @Sendable () -> Void
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(name: String, step: @escaping @Sendable () -> Void) {
        self.name = name
        self.step = step
    }

    func start() {
        guard running.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else { return }
        let thread = Thread { [self] in
            while running.load(ordering: .sequentiallyConsistent) { step() }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the loop to end and waits until the current step has returned.
    func stop() {
        guard running.compareExchange(expected: true, desired: false, ordering: .sequentiallyConsistent).exchanged else { return }
        finished.wait()
    }
}
