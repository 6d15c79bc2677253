import Foundation
import LatchkeyCore
import Testing

/// The lock the rate limiter's shards sit behind, on real threads.
@Suite struct SleepingLockTests {
    @Test("threads taking turns at one value each see it whole: 8 threads x 2 000 read-modify-writes, each yielding the processor in the middle, lose none")
    func excludesOtherThreads() {
        let counter = SleepingLock(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<2_000 {
                counter.withLock { value in
                    let seen = value
                    // Another thread let in now would read the same value, and an increment be lost.
                    sched_yield()
                    value = seen + 1
                }
            }
        }
        #expect(counter.withLock { $0 } == 16_000)
    }

    @Test("a body that throws gives the lock back: the next caller gets it and sees what the body changed before throwing")
    func throwingBodyReleases() {
        let value = SleepingLock(1)
        #expect(throws: CancellationError.self) {
            try value.withLock { state in
                state = 2
                throw CancellationError()
            }
        }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            value.withLock { $0 += 1 }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(value.withLock { $0 } == 3)
    }
}
