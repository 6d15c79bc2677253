#if canImport(Glibc)
import Glibc
#endif

/// Runs a computation on a thread of its own in Linux's idle scheduling class (`SCHED_IDLE`)
/// and waits for its result, or starts one without waiting (``start(_:)``). An idle-class
/// thread runs on the CPU time other threads leave, and any other thread that wakes takes
/// the processor from it at once — where a request worker (batch class) that wakes behind
/// a nice-19 thread waits for the scheduler's next tick, up to milliseconds. For a password
/// hash: tens of milliseconds of computing that must delay no request; for ES256 nonces
/// prepared ahead (``LibCrypto/P256Signer``): work that only idle time should pay for.
///
/// A thread per computation, because a thread cannot leave the idle class again without
/// `CAP_SYS_NICE`, and the caller (a request handler) goes on to write to the database: it
/// must not run those writes, which others may wait for, at idle priority. Starting a thread
/// costs tens of microseconds against the hash's tens of milliseconds. The caller bounds how
/// many run at once (the server's hashing threads). When no thread can be started, and on
/// other systems, ``run(_:)`` computes on the calling thread.
package enum IdleClassThread {
    /// The result of `work`, computed on a new idle-class thread (best effort: if the class
    /// cannot be set, that thread computes at the caller's priority).
    package static func run<Output: Sendable>(_ work: @escaping @Sendable () -> Output) -> Output {
        #if os(Linux)
        let computation = Computation(work)
        guard let thread = startThread(computation) else { return work() }
        pthread_join(thread, nil)
        return computation.output()
        #else
        return work()
        #endif
    }

    /// Starts `work` on a new idle-class thread, which ends with it, and returns at once: for
    /// work done ahead of need in the time other threads leave. False, and nothing started,
    /// when no thread can be started, and on other systems.
    package static func start(_ work: @escaping @Sendable () -> Void) -> Bool {
        #if os(Linux)
        guard let thread = startThread(Computation(work)) else { return false }
        pthread_detach(thread)
        return true
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// A new thread that moves itself to the idle class and runs `computation`; nil when none
    /// could be started.
    private static func startThread(_ computation: AnyComputation) -> pthread_t? {
        let context = Unmanaged.passRetained(computation).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let computation = Unmanaged<AnyComputation>.fromOpaque(context!).takeRetainedValue()
            let idlePolicy: Int32 = 5  // SCHED_IDLE; Glibc does not export it to Swift
            var parameters = sched_param()
            _ = pthread_setschedparam(pthread_self(), idlePolicy, &parameters)
            computation.run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<AnyComputation>.fromOpaque(context).release()
            return nil
        }
        return thread
    }
    #endif
}

#if os(Linux)
/// What the new thread runs, whatever the output's type.
private class AnyComputation {
    func run() {}
}

/// A computation and, once it has run, its output. Only the new thread touches it between
/// `pthread_create` and `pthread_join`, and the join orders its write before the caller's read.
private final class Computation<Output: Sendable>: AnyComputation {
    private let work: @Sendable () -> Output
    private var result: Output?

    init(_ work: @escaping @Sendable () -> Output) {
        self.work = work
    }

    override func run() {
        result = work()
    }

    func output() -> Output {
        guard let result else { preconditionFailure("the idle-class thread ended without an output") }
        return result
    }
}
#endif
