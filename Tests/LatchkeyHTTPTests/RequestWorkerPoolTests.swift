import Foundation
@testable import LatchkeyHTTP
import Synchronization
import LatchkeyTestSupport
import Testing

/// The worker pool on real threads: idle threads are woken one at a time, and every queued
/// job still finds a thread.
@Suite struct RequestWorkerPoolTests {
    @Test("jobs that block take every thread, woken one after another, and none waits while a thread is free")
    func blockingJobsTakeEveryThread() throws {
        let threads = 6
        let pool = RequestWorkerPool(name: "test-worker", threads: threads, queueLimit: 64)
        pool.start()
        defer {
            pool.close()
            pool.join()
        }
        let gate = DispatchSemaphore(value: 0)
        let started = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        // Queued in one go: the first thread woken wakes the next as it takes a job, and so on.
        for _ in 0..<threads {
            #expect(pool.reserve())
            #expect(pool.submit {
                started.add(1, ordering: .sequentiallyConsistent)
                gate.wait()
                finished.add(1, ordering: .sequentiallyConsistent)
            })
        }
        #expect(eventually { started.load(ordering: .sequentiallyConsistent) == threads }, "every thread took a job")
        for _ in 0..<threads { gate.signal() }
        #expect(eventually { finished.load(ordering: .sequentiallyConsistent) == threads })
        // Idle again, the threads still take what comes, each job once.
        let ran = Atomic<Int>(0)
        for _ in 0..<50 {
            #expect(pool.reserve())
            #expect(pool.submit { ran.add(1, ordering: .sequentiallyConsistent) })
        }
        #expect(eventually { ran.load(ordering: .sequentiallyConsistent) == 50 })
    }

    @Test("a job queued while a woken thread is on its way wakes no other; a thread taking a job with more queued wakes the next")
    func wakesOneAtATime() {
        var queue = RequestWorkerPool.Queue(limit: 16)
        // Three threads find nothing and sleep.
        for _ in 0..<3 { #expect(queue.take(woken: false).job == nil) }
        #expect(queue.sleeping == 3)
        // A burst of five: only the first wakes a thread.
        #expect((0..<5).map { _ in queue.enqueue {} } == [true, false, false, false, false])
        // The woken thread takes one and, four left, wakes the next.
        let first = queue.take(woken: true)
        #expect(first.job != nil && first.wakes)
        // A thread still running takes one: the next is on its way, so it wakes nobody.
        #expect(queue.take(woken: false).wakes == false)
        // The second woken thread takes one (two left) and wakes the third.
        #expect(queue.take(woken: true).wakes)
        #expect(queue.take(woken: true).wakes == false, "the last one left, or no thread asleep")
        #expect(queue.count == 1 && queue.sleeping == 0 && queue.waking == 0)
        // The last job goes; a thread finding none sleeps; the next job wakes it.
        #expect(queue.take(woken: false).job != nil)
        #expect(queue.take(woken: false).job == nil)
        #expect(queue.enqueue {})
    }

    @Test("follow-ups run before the requests waiting, at most as many outstanding as requests may wait; a closed pool drops its requests but runs the follow-ups still to come before its threads end")
    func followUpsGoFirstAndOutliveClose() throws {
        let pool = RequestWorkerPool(name: "test-worker", threads: 1, queueLimit: 2)
        pool.start()
        let gate = DispatchSemaphore(value: 0)
        let order = Mutex<[String]>([])
        #expect(pool.reserve())
        #expect(pool.submit { gate.wait() })
        #expect(pool.reserve())
        #expect(pool.submit { order.withLock { $0.append("request") } })
        #expect(pool.reserveFollowUp() && pool.reserveFollowUp())
        #expect(!pool.reserveFollowUp(), "two outstanding already")
        pool.submitFollowUp { order.withLock { $0.append("follow-up") } }
        gate.signal()
        #expect(eventually { order.withLock { $0.count } == 2 })
        #expect(order.withLock { $0 } == ["follow-up", "request"])

        // Closed with one follow-up still to come: its place was taken before.
        let poolThread = Mutex<pthread_t?>(nil)
        #expect(pool.reserve())
        #expect(pool.submit {
            poolThread.withLock { $0 = pthread_self() }
            gate.wait()
        })
        #expect(eventually { poolThread.withLock { $0 } != nil })
        #expect(pool.reserve())
        #expect(pool.submit { order.withLock { $0.append("dropped request") } })
        pool.close()
        gate.signal()
        #expect(!pool.reserve() && !pool.reserveFollowUp())
        let joined = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            pool.join()
            joined.signal()
        }
        #expect(joined.wait(timeout: .now() + 0.3) == .timedOut, "the thread waits for the follow-up to come")
        let ranOn = Mutex<pthread_t?>(nil)
        pool.submitFollowUp { ranOn.withLock { $0 = pthread_self() } }
        #expect(joined.wait(timeout: .now() + 10) == .success)
        let (ran, expected) = (ranOn.withLock { $0 }, poolThread.withLock { $0 })
        #expect(ran != nil && ran == expected, "the pool's thread ran it, not this one")
        #expect(order.withLock { $0 } == ["follow-up", "request"])
    }
}
