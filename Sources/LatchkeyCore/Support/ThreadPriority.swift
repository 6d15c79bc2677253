#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scheduling priority below the default, for threads whose work must give way to request
/// handling. On Linux the nice value is per thread (`setpriority(PRIO_PROCESS, 0, …)` sets the
/// calling thread's); on Apple platforms the quality-of-service class stands for it.
package enum ThreadPriority: Sendable {
    /// Only CPU time request handling leaves: nice 19 (weight 15 against a nice-0 thread's
    /// 1024), the background QoS class.
    case background
    /// Below request threads, yet a real share of a processor other threads keep busy:
    /// nice 5 (weight 335, a quarter of a processor shared with one busy nice-0 thread), the
    /// utility QoS class.
    case belowRequests

    /// Lowers the calling thread to this priority (best effort: left as is on failure).
    /// Raising it again takes privileges a server does not have.
    package func lowerCurrentThread() {
        #if os(Linux)
        let nice: Int32 = switch self {
        case .background: 19
        case .belowRequests: 5
        }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
        #elseif canImport(Darwin)
        let qos = switch self {
        case .background: QOS_CLASS_BACKGROUND
        case .belowRequests: QOS_CLASS_UTILITY
        }
        _ = pthread_set_qos_class_self_np(qos, 0)
        #endif
    }
}
