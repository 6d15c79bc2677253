import Foundation
import LatchkeyServer
import Synchronization
import Testing

@Suite struct ShutdownSignalTests {
    // The signals go to the waiting thread only (pthread_kill): the test process's other
    // threads do not hold them, and a process-wide SIGTERM could reach one and end the run.

    @Test("A SIGTERM that arrives before wait() is taken by it, not lost and not fatal")
    func signalBeforeWaitIsKept() throws {
        let received = try onHoldingThread { waiter in
            pthread_kill(waiter, SIGTERM)
            return ShutdownSignal.wait()
        }
        #expect(received == .terminate)
        #expect(received.name == "SIGTERM")
    }

    @Test("wait() returns when SIGINT arrives while it waits, and each signal is taken once")
    func signalWhileWaiting() throws {
        let received = try onHoldingThread { waiter in
            let sender = Thread {
                usleep(50_000)
                pthread_kill(waiter, SIGINT)
            }
            sender.start()
            let first = ShutdownSignal.wait()
            pthread_kill(waiter, SIGTERM)
            let second = ShutdownSignal.wait()
            return [first, second]
        }
        #expect(received == [.interrupt, .terminate])
    }

    /// Runs `body` on a new thread that holds both signals, with that thread's handle.
    private func onHoldingThread<Output: Sendable>(_ body: @escaping @Sendable (pthread_t) -> Output) throws -> Output {
        let result = Mutex<Output?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            ShutdownSignal.hold()
            let output = body(pthread_self())
            result.withLock { $0 = output }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 10) == .success)
        return try #require(result.withLock { $0 })
    }
}
