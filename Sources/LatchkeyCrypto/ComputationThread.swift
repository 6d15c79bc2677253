#if os(Linux)
import Glibc
#endif

/// Runs a long computation (a password hash, a batch of ES256 nonces) on a thread started
/// for it, as a ``YieldingComputation``.
///
/// ``run(_:)`` waits for the result; its thread has the caller's scheduling class and nice
/// value. A password hash runs so rather than on the hashing lane's own thread: on that
/// thread, right after the account's lookup, a failed sign-in for a known address took
/// measurably longer than for an unknown one; on a thread of its own the difference leans
/// neither way (measured: docs/performance.md, "A thread per password hash"). Starting a
/// thread costs tens of microseconds against the hash's tens of milliseconds.
///
/// ``startInIdleClass(_:)`` does not wait: its thread runs in Linux's idle scheduling class
/// (`SCHED_IDLE`), on the CPU time other threads leave, for work done ahead of need. Nothing
/// may wait for such a thread: beside a busy process it gets a few thousandths of the
/// processor (weight 3 against a nice-0 thread's 1024).
package enum ComputationThread {
    /// The result of `work`, computed on a new thread while the caller waits; on the calling
    /// thread when no thread can be started, and on other systems.
    package static func run<Output: Sendable>(_ work: @escaping @Sendable () -> Output) -> Output {
        #if os(Linux)
        let computation = Computation(work, inIdleClass: false)
        guard let thread = startThread(computation) else { return YieldingComputation.run(work) }
        pthread_join(thread, nil)
        return computation.output()
        #else
        return work()
        #endif
    }

    /// Starts `work` on a new idle-class thread, which ends with it, and returns at once.
    /// False, and nothing started, when no thread can be started, and on other systems.
    package static func startInIdleClass(_ work: @escaping @Sendable () -> Void) -> Bool {
        #if os(Linux)
        guard let thread = startThread(Computation(work, inIdleClass: true)) else { return false }
        pthread_detach(thread)
        return true
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// A new thread that runs `computation` as a ``YieldingComputation``, in the idle class
    /// when the computation asks for it (best effort); nil when none could be started.
    private static func startThread(_ computation: AnyComputation) -> pthread_t? {
        let context = Unmanaged.passRetained(computation).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { context in
            let computation = Unmanaged<AnyComputation>.fromOpaque(context!).takeRetainedValue()
            if computation.inIdleClass {
                let idlePolicy: Int32 = 5  // SCHED_IDLE; Glibc does not export it to Swift
                var parameters = sched_param()
                _ = pthread_setschedparam(pthread_self(), idlePolicy, &parameters)
            }
            computation.runYielding()
            return nil
        }, context) == 0 else {
            Unmanaged<AnyComputation>.fromOpaque(context).release()
            return nil
        }
        return thread
    }
    #endif
}

#if os(Linux)
/// What the new thread runs, whatever the output's type, and in which class.
private class AnyComputation {
    /// Whether the new thread moves itself to the idle class.
    let inIdleClass: Bool

    init(inIdleClass: Bool) {
        self.inIdleClass = inIdleClass
    }

    func runYielding() {}
}

/// A computation and, once it has run, its output. Only the new thread touches it between
/// `pthread_create` and `pthread_join`, and the join orders its write before the caller's read.
private final class Computation<Output: Sendable>: AnyComputation {
    private let work: @Sendable () -> Output
    private var result: Output?

    init(_ work: @escaping @Sendable () -> Output, inIdleClass: Bool) {
        self.work = work
        super.init(inIdleClass: inIdleClass)
    }

    override func runYielding() {
        result = YieldingComputation.run(work)
    }

    func output() -> Output {
        guard let result else { preconditionFailure("the computation's thread ended without an output") }
        return result
    }
}
#endif
