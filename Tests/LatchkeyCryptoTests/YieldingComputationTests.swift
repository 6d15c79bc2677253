import Foundation
import LatchkeyCrypto
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Long computations (password hashes, ES256 nonces) give the processor up while they compute,
/// and only after computing.
@Suite struct YieldingComputationTests {
    #if os(Linux)
    @Test("a computing thread keeps giving the processor up, in the process's first timer too")
    func yieldsWhileComputing() async {
        // In a process of its own, so the computation's timer is the process's first: Linux
        // numbers timers from 0, and timer 0 comes back from glibc as a null pointer.
        await #expect(processExitsWith: .success) {
            let before = YieldingComputation.yieldsTaken
            // Computes until the timer has made the thread yield three times: a couple of
            // milliseconds of its running when the timer works. The thread may wait for the
            // processor beside other tests, so only two minutes of wall-clock time end a
            // computation that never yields.
            let deadline = ContinuousClock.now + .seconds(120)
            let yields = YieldingComputation.run { () -> Int in
                while YieldingComputation.yieldsTaken - before < 3 && ContinuousClock.now < deadline {}
                return YieldingComputation.yieldsTaken - before
            }
            exit(yields >= 3 ? EXIT_SUCCESS : EXIT_FAILURE)
        }
    }

    @Test("beside busy threads, a computation at a lower priority gets its share: it yields only after computing")
    func yieldsOnlyAfterComputing() async {
        // A thread that waited for the processor finds its timer's signal waiting when it gets
        // it. Yielding then would hand the processor straight back, charged as a used slice,
        // and a thread of lower weight than a busy one beside it would never compute again
        // (a sign-in beside one busy loop took over two minutes). Here a nice-5 thread (the
        // hashing lane's priority) computes 20 ms of CPU time beside a busy nice-0 thread per
        // processor: a few tenths of a second when each yield follows a quarter of a
        // millisecond of computing.
        await #expect(processExitsWith: .success) {
            let stop = Atomic<Bool>(false)
            for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
                Thread { while !stop.load(ordering: .relaxed) {} }.start()
            }
            let outcome = Mutex<(cpu: Duration, yields: Int)?>(nil)
            let computer = Thread {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
                let before = YieldingComputation.yieldsTaken
                let deadline = ContinuousClock.now + .seconds(60)
                let cpu = YieldingComputation.run { () -> Duration in
                    while threadCPUTime() < .milliseconds(20) && ContinuousClock.now < deadline {}
                    return threadCPUTime()
                }
                outcome.withLock { $0 = (cpu, YieldingComputation.yieldsTaken - before) }
            }
            computer.start()
            while outcome.withLock({ $0 }) == nil { usleep(10_000) }
            stop.store(true, ordering: .relaxed)
            let (cpu, yields) = outcome.withLock { $0 }!
            // Each yield after at least half the timer's interval of computing.
            let computedBeforeEachYield = yields == 0 ? .zero : cpu / yields
            exit(cpu >= .milliseconds(20) && yields > 0 && computedBeforeEachYield >= YieldingComputation.yieldInterval / 2
                ? EXIT_SUCCESS : EXIT_FAILURE)
        }
    }
    #endif
}

#if os(Linux)
/// The calling thread's CPU time.
private func threadCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}
#endif
