#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scheduling priority of the calling thread.
package enum ThreadPriority {
    /// Moves the calling thread to the lowest priority (nice 19 on Linux, where the nice value
    /// is per thread and `setpriority(PRIO_PROCESS, 0, …)` sets the calling thread's; the
    /// background QoS class on Apple platforms), so its work only uses CPU that request
    /// handling leaves.
    package static func lowerCurrentThread() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #elseif canImport(Darwin)
        _ = pthread_set_qos_class_self_np(QOS_CLASS_BACKGROUND, 0)
        #endif
    }
}
