import Foundation
@testable import LatchkeyStorage
import Synchronization
import Testing

/// The semaphore behind the connection pools: waiters are served in arrival order, and a
/// wait that runs out holds nothing.
@Suite struct FairSemaphoreTests {
    @Test("a permit given back goes to the caller that waited, not to the thread that gives it back and asks again")
    func releasedPermitGoesToTheWaiter() throws {
        let semaphore = FairSemaphore(permits: 1)
        #expect(semaphore.wait(timeout: .seconds(10)))
        let served = Mutex<[String]>([])
        let waiterDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if semaphore.wait(timeout: .seconds(10)) {
                served.withLock { $0.append("waiter") }
                semaphore.signal()
            }
            waiterDone.signal()
        }
        // Until the other thread queues (bounded: it only has to start).
        let queuedBy = Date().addingTimeInterval(10)
        while semaphore.waiting == 0, Date() < queuedBy { usleep(1000) }
        #expect(semaphore.waiting == 1)

        semaphore.signal()
        #expect(semaphore.wait(timeout: .seconds(10)))
        // This thread asked again at once, with the CPU; the waiter still came first.
        #expect(served.withLock { $0 } == ["waiter"])
        semaphore.signal()
        #expect(waiterDone.wait(timeout: .now() + 10) == .success)
    }

    @Test("a wait that runs out returns false, leaves the queue and takes no permit")
    func timedOutWaitHoldsNothing() {
        let semaphore = FairSemaphore(permits: 0)
        #expect(!semaphore.wait(timeout: .milliseconds(50)))
        #expect(semaphore.waiting == 0)
        semaphore.signal()
        #expect(semaphore.wait(timeout: .milliseconds(0)))
        #expect(!semaphore.wait(timeout: .milliseconds(0)))
    }

    @Test("every permit is taken exactly once by many threads at once")
    func permitsAreNeverDuplicated() {
        let semaphore = FairSemaphore(permits: 3)
        let holding = Mutex((now: 0, most: 0))
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            for _ in 0..<200 {
                guard semaphore.wait(timeout: .seconds(10)) else { continue }
                holding.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                holding.withLock { $0.now -= 1 }
                semaphore.signal()
            }
        }
        #expect(holding.withLock { $0.most } <= 3)
        #expect(holding.withLock { $0.now } == 0)
        for _ in 0..<3 { #expect(semaphore.wait(timeout: .milliseconds(0))) }
        #expect(!semaphore.wait(timeout: .milliseconds(0)))
    }
}
