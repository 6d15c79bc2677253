import Foundation
import LatchkeyCrypto
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Computations on threads of their own: password hashes (waited for) and ES256 nonces
/// (in the idle class, not waited for).
@Suite struct ComputationThreadTests {
    #if os(Linux)
    @Test("a computation waited for runs on another thread in the caller's class and at its nice value")
    func runsBesideTheCaller() async {
        // The hashing lane's threads are batch class at nice 5, and so must their hashes be.
        // In a process of its own, since the calling thread's priority cannot be raised again.
        await #expect(processExitsWith: .success) {
            let batchPolicy: Int32 = 3  // SCHED_BATCH
            var parameters = sched_param()
            _ = pthread_setschedparam(pthread_self(), batchPolicy, &parameters)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
            let caller = pthread_self()
            let (policy, nice, sameThread) = ComputationThread.run { () -> (Int32, Int32, Bool) in
                (sched_getscheduler(0), getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0),
                 pthread_equal(pthread_self(), caller) != 0)
            }
            exit(policy == batchPolicy && nice == 5 && !sameThread ? EXIT_SUCCESS : EXIT_FAILURE)
        }
    }

    @Test("an idle-class thread runs the work in the idle class, yielding, and the caller's class is unchanged")
    func idleClassThread() throws {
        let callerPolicy = sched_getscheduler(0)
        let ran = Mutex<(policy: Int32, yielding: Bool)?>(nil)
        let done = DispatchSemaphore(value: 0)
        #expect(ComputationThread.startInIdleClass {
            let before = YieldingComputation.yieldsTaken
            let deadline = ContinuousClock.now + .seconds(120)
            while YieldingComputation.yieldsTaken == before && ContinuousClock.now < deadline {}
            ran.withLock { $0 = (sched_getscheduler(0), YieldingComputation.yieldsTaken > before) }
            done.signal()
        })
        done.wait()
        let (policy, yielding) = try #require(ran.withLock { $0 })
        #expect(policy == 5)  // SCHED_IDLE
        #expect(yielding)
        #expect(sched_getscheduler(0) == callerPolicy)
    }
    #endif
}
