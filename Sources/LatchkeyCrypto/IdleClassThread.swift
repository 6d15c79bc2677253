import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs a computation on a thread of its own in Linux's idle scheduling class (`SCHED_IDLE`)
/// and waits for its result. An idle-class thread runs on the CPU time other threads leave,
/// and any other thread that wakes takes the processor from it at once — where a request
/// worker (batch class) that wakes behind a nice-19 thread waits for the scheduler's next
/// tick, up to milliseconds. For a password hash: tens of milliseconds of computing that
/// must delay no request.
///
/// A thread per computation, because a thread cannot leave the idle class again without
/// `CAP_SYS_NICE`, and the caller (a request handler) goes on to write to the database: it
/// must not run those writes, which others may wait for, at idle priority. Starting a thread
/// costs tens of microseconds against the hash's tens of milliseconds. The caller bounds how
/// many run at once (the server's hashing threads). On other systems `work` runs on the
/// calling thread.
package enum IdleClassThread {
    /// The result of `work`, computed on a new idle-class thread (best effort: if the class
    /// cannot be set, the thread computes at its inherited priority).
    package static func run<Output: Sendable>(_ work: @escaping @Sendable () -> Output) -> Output {
        #if os(Linux)
        let result = Mutex<Output?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let idlePolicy: Int32 = 5  // SCHED_IDLE; Glibc does not export it to Swift
            var parameters = sched_param()
            _ = pthread_setschedparam(pthread_self(), idlePolicy, &parameters)
            let output = work()
            result.withLock { $0 = output }
            done.signal()
        }
        thread.name = "latchkey-argon2"
        thread.start()
        done.wait()
        return result.withLock { $0! }
        #else
        return work()
        #endif
    }
}
