#if os(Linux)
import Glibc
#endif

/// Starts work on a thread of its own in Linux's idle scheduling class (`SCHED_IDLE`), for
/// work done ahead of need (ES256 nonces, ``LibCrypto/P256Signer``): an idle-class thread
/// runs on the CPU time other threads leave, and any other thread that wakes takes the
/// processor from it at once. It computes as a ``YieldingComputation``, since the scheduler
/// now and then picks it while another thread is already runnable.
///
/// Nothing may wait for such a thread: beside a busy process it gets a few thousandths of the
/// processor (weight 3 against a nice-0 thread's 1024).
package enum IdleClassThread {
    /// Starts `work` on a new idle-class thread, which ends with it, and returns at once.
    /// False, and nothing started, when no thread can be started, and on other systems.
    package static func start(_ work: @escaping @Sendable () -> Void) -> Bool {
        #if os(Linux)
        let context = Unmanaged.passRetained(Work(work)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
            let idlePolicy: Int32 = 5  // SCHED_IDLE; Glibc does not export it to Swift
            var parameters = sched_param()
            _ = pthread_setschedparam(pthread_self(), idlePolicy, &parameters)
            YieldingComputation.run(work.run)
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
        #else
        return false
        #endif
    }
}

#if os(Linux)
/// The work, boxed to cross `pthread_create`.
private final class Work {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
#endif
