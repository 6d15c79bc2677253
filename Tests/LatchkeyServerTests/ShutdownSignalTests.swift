import Dispatch
import Foundation
import LatchkeyServer
import Synchronization
import Testing

@Suite struct ShutdownSignalTests {
    @Test("wait() returns when SIGTERM arrives, and the process survives it")
    func waitsForSIGTERM() {
        let returned = DispatchSemaphore(value: 0)
        let received = ReceivedSignal()
        Thread.detachNewThread {
            received.set(ShutdownSignal.wait())
            returned.signal()
        }
        // The signal source registers asynchronously; until it does, the signal is ignored,
        // so keep sending until the waiter has seen one.
        var attempts = 0
        while returned.wait(timeout: .now() + .milliseconds(20)) == .timedOut, attempts < 250 {
            kill(getpid(), SIGTERM)
            attempts += 1
        }
        #expect(received.value == .terminate)
        #expect(received.value?.name == "SIGTERM")
    }
}

private final class ReceivedSignal: Sendable {
    private let stored = Mutex<ShutdownSignal?>(nil)
    func set(_ value: ShutdownSignal) { stored.withLock { $0 = value } }
    var value: ShutdownSignal? { stored.withLock { $0 } }
}
