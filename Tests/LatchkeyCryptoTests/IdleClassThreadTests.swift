import Foundation
import LatchkeyCrypto
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Password hashing in the idle scheduling class, computed on a thread of its own so the
/// caller keeps its own class for what it does next.
@Suite struct IdleClassThreadTests {
    #if os(Linux)
    @Test("the work runs on another thread, in the idle class; the caller's class is unchanged")
    func runsInTheIdleClass() {
        let callerPolicy = sched_getscheduler(0)
        let callerThread = pthread_self()
        let (policy, sameThread) = IdleClassThread.run { (sched_getscheduler(0), pthread_equal(pthread_self(), callerThread) != 0) }
        #expect(policy == 5)  // SCHED_IDLE
        #expect(!sameThread)
        #expect(sched_getscheduler(0) == callerPolicy)
    }

    @Test("a computing idle-class thread keeps giving the processor up, the process's first one too")
    func yieldsWhileComputing() async {
        // In a process of its own, so the computation's timer is the process's first: Linux
        // numbers timers from 0, and timer 0 comes back from glibc as a null pointer.
        await #expect(processExitsWith: .success) {
            let before = IdleClassThread.yieldsTaken
            // Computes until the thread's timer has made it yield three times: a few
            // milliseconds of its running when the timer works. The thread may wait long for
            // the processor beside other tests (it is idle-class), so only two minutes of
            // wall-clock time end a computation that never yields.
            let deadline = ContinuousClock.now + .seconds(120)
            let (policy, yields) = IdleClassThread.run { () -> (Int32, Int) in
                while IdleClassThread.yieldsTaken - before < 3 && ContinuousClock.now < deadline {}
                return (sched_getscheduler(0), IdleClassThread.yieldsTaken - before)
            }
            exit(policy == 5 && yields >= 3 ? EXIT_SUCCESS : EXIT_FAILURE)  // 5: SCHED_IDLE
        }
    }
    #endif

    @Test("a hasher computing in the idle class makes and checks the same hashes")
    func idleClassHasher() throws {
        let parameters = try Argon2Parameters(memoryKiB: 256, iterations: 1, parallelism: 1)
        let idle = PasswordHasher(parameters: parameters, computesInIdleClass: true)
        let inline = PasswordHasher(parameters: parameters)
        let phc = try idle.hash(Redacted("correct horse"))
        #expect(inline.verify(Redacted("correct horse"), against: phc))
        #expect(idle.verify(Redacted("correct horse"), against: try inline.hash(Redacted("correct horse"))))
        #expect(!idle.verify(Redacted("wrong horse"), against: phc))
        #expect(!idle.verifyAgainstDummy(Redacted("correct horse")))
        let reference = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
        #expect(PasswordHasher(computesInIdleClass: true).verify(Redacted("password"), against: reference))
    }
}
